"""Structural readers of the operations the passes know: constants (value, type, whether a
splat), ``mhlo.fusion`` kinds and ``stablehlo.composite`` decompositions, in pretty and generic
form. (``func.func`` names are read by ``ir.function_name``.)"""

from __future__ import annotations

import re

from passlint.analysis.mlir.attribute_text import split_top_level
from passlint.analysis.mlir.ir import Operation, TypeRef
from passlint.analysis.mlir.types import ShapedType, element_bits, resolve_alias


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
    if colon > first:
        return op.span_text(first, colon - 1)
    return split_top_level(_aliased_constant(op), ":")[0].strip()


def _aliased_constant(op: Operation) -> str:
    """What a pretty constant without ``: type`` holds: an attribute alias's definition
    (``stablehlo.constant #c`` with ``#c = dense<...> : tensor<4xf32>``), or ''."""
    first = op.template.name + 1
    location = op.template.location
    last = (len(op.toks) if location is None else location[0]) - 1
    if last != first:
        return ""
    return resolve_alias(op.tok_text(first), op.alias_values)


def is_resource_constant(op: Operation) -> bool:
    """Is the constant's value a ``dense_resource<...>`` blob?"""
    return constant_value(op).lstrip().startswith("dense_resource<")


def constant_type(op: Operation) -> ShapedType | None:
    before, after = op.signature_types()
    refs = after or before
    if refs:
        return refs[-1].shaped
    aliased = aliased_constant_type(op)
    return aliased.shaped if aliased else None


def aliased_constant_type(op: Operation) -> TypeRef | None:
    """The type of a pretty constant that spells none (``stablehlo.constant #c``): the one in
    the alias's definition, placed at the alias's use."""
    parts = split_top_level(_aliased_constant(op), ":") if not op.is_generic else []
    if len(parts) != 2:
        return None
    first = op.template.name + 1
    return TypeRef(op.tok_span(first), parts[1].strip(), op.alias_values)


def is_splat_constant(op: Operation) -> bool:
    """Is the constant's value a splat, as MLIR's ``DenseElementsAttr::isSplat()`` says: one
    value for every element, so every single-element tensor (rank 0 included) and any list or
    hex blob whose elements are all equal. ``dense<>`` and ``dense_resource<...>`` are not.

    Reads the literal's text as it stands (a multi-megabyte constant is scanned, never split
    into a list): the first differing element ends the scan."""
    body = _dense_body(op)
    shaped = constant_type(op)
    if body is None or shaped is None or not body:
        return False
    if body.startswith('"0x'):
        digits = _hex_digits(shaped.element_type)
        blob = body[3:-1] if body.endswith('"') else ""
        if digits is None or not blob or len(blob) % digits:
            return False
        first = blob[:digits]
        return len(blob) == digits or blob == first * (len(blob) // digits)
    if not body.startswith("["):
        return True  # one literal for the whole tensor
    elements = _ELEMENT.finditer(body)
    first_match = next(elements, None)
    if first_match is None:
        return False
    value = _element_value(first_match.group())
    return all(_element_value(match.group()) == value for match in elements)


def splat_value(op: Operation) -> str:
    """The one element of a splat constant as a scalar ``dense<...>`` literal."""
    body = _dense_body(op) or ""
    shaped = constant_type(op)
    if body.startswith('"0x') and shaped is not None:
        digits = _hex_digits(shaped.element_type) or len(body) - 4
        return f'dense<"0x{body[3 : 3 + digits]}">'
    if body.startswith("["):
        match = _ELEMENT.search(body)
        return f"dense<{match.group() if match else body}>"
    return f"dense<{body}>"


# An element of a dense list: a complex pair, a string, or a number or word.
_ELEMENT = re.compile(r'\([^()]*\)|"[^"\\]*+(?:\\.[^"\\]*+)*+"|[^\s,\[\]()]+')


def _dense_body(op: Operation) -> str | None:
    """What stands between ``dense<`` and ``>`` (None when the value is not ``dense<...>``)."""
    value = constant_value(op).strip()
    if not (value.startswith("dense<") and value.endswith(">")):
        return None
    return value[6:-1].strip()


def _hex_digits(element_type: str) -> int | None:
    """Hex digits one element takes in a ``dense<"0x...">`` blob."""
    bits = element_bits(element_type)
    return None if bits is None else max(bits, 8) // 4


def _element_value(text: str) -> object:
    """An element's value: ``1.0`` and ``1.000000e+00`` are one number."""
    try:
        return float(text)
    except ValueError:
        if text.startswith("("):
            parts = text[1:-1].split(",")
            return tuple(_element_value(part.strip()) for part in parts)
        return text
