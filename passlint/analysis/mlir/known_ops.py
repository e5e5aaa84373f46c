"""Structural readers of the operations the passes know: constants (value, type, whether a
splat), ``mhlo.fusion`` kinds and ``stablehlo.composite`` decompositions, in pretty and generic
form. (``func.func`` names are read by ``ir.function_name``.)"""

from __future__ import annotations

import re

from passlint.analysis.mlir.attribute_text import split_top_level
from passlint.analysis.mlir.ir import Operation
from passlint.analysis.mlir.types import ShapedType, element_bits


def fusion_kind(op: Operation) -> str | None:
    """``kLoop`` from ``fusion_kind = #mhlo<fusion_kind kLoop>``; the string of FusionKind."""
    for key in ("FusionKind", "fusion_kind"):
        attr = op.attribute(key)
        if attr is None or attr.value is None:
            continue
        text = attr.value.strip()
        if text.startswith('"'):
            return text.strip('"')
        match = re.search(r"fusion_kind\s+(\w+)", text)
        return match.group(1) if match else text
    return None


def composite_decomposition(op: Operation) -> str | None:
    attr = op.attribute("decomposition")
    if attr is None or attr.value is None:
        return None
    text = attr.value.strip()
    return text[1:].strip('"') if text.startswith("@") else None


def constant_value(op: Operation) -> str:
    """The value of a constant, without its type: between the op name and the type (pretty
    form), or the ``value`` attribute (generic form, ``dense<1.0> : tensor<4xf32>``)."""
    if op.is_generic:
        attr = op.attribute("value")
        return split_top_level(attr.value or "", ":")[0].strip() if attr else ""
    colon = op.template.colon
    first = op.template.name + 1
    if colon <= first:
        return ""
    return op.span_text(first, colon - 1)


def constant_type(op: Operation) -> ShapedType | None:
    before, after = op.signature_types()
    refs = after or before
    return refs[-1].shaped if refs else None


def is_splat_constant(op: Operation) -> bool:
    """A constant whose value is one element for the whole (non-scalar) tensor."""
    value = constant_value(op).strip()
    shaped = constant_type(op)
    if shaped is None or shaped.rank == 0:
        return False
    if not (value.startswith("dense<") and value.endswith(">")):
        return False
    body = value[6:-1].strip()
    if not body or body.startswith("["):
        return False
    if body.startswith('"0x'):
        bits = element_bits(shaped.element_type)
        hex_digits = len(body.strip('"')) - 2
        return bits is not None and hex_digits * 4 == max(bits, 8)
    return True
