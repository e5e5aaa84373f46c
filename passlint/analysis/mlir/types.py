"""Builtin shaped types read from their text: ``tensor<2x?x8xf32>`` and friends."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from passlint.analysis.mlir.attribute_text import split_top_level

LARGEST_DIMENSION = (1 << 63) - 1  # (a signed 64-bit integer)
WIDEST_INTEGER = (1 << 24) - 1  # bits of an integer type, at most


def bounded(digits: str, largest: int) -> int | None:
    """The value of a run of decimal digits, or None when it is above ``largest`` (read
    without ``int()`` on a run of any length: Python refuses more than 4,300 digits)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(largest)):
        return None
    number = int(significant)
    return number if number <= largest else None


def dimension(digits: str) -> int | None:
    """A dimension's value (None: MLIR rejects it, ``invalid dimension``)."""
    return bounded(digits, LARGEST_DIMENSION)


def width(digits: str) -> int | None:
    """An integer type's width in bits (None: wider than MLIR allows)."""
    return bounded(digits, WIDEST_INTEGER)


_SHAPED = re.compile(r"(tensor|vector|memref)<\s*((?:(?:\d+|\?|\[\d+\])x)*+)(.*)>\s*\Z", re.DOTALL)
_UNRANKED = re.compile(r"(tensor|memref)<\s*\*x(.*)>\s*\Z", re.DOTALL)


@dataclass(frozen=True)
class ShapedType:
    """A ranked or unranked shaped type; ``shape`` is None when unranked, dims None if ``?``."""

    kind: str
    shape: tuple[int | None, ...] | None
    element_type: str

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def is_static(self) -> bool:
        return self.shape is not None and all(dim is not None for dim in self.shape)

    @property
    def num_elements(self) -> int | None:
        """Number of elements; 0 when any dimension is 0, None when unknown otherwise."""
        if self.shape is None:
            return None
        if any(dim == 0 for dim in self.shape):
            return 0
        if not self.is_static:
            return None
        count = 1
        for dim in self.shape:
            count *= dim or 0
        return count


def parse_shaped_type(text: str) -> ShapedType | None:
    """The shaped type spelled by ``text``, or None if it is not one (a dimension MLIR
    rejects included)."""
    text = text.strip()
    unranked = _UNRANKED.match(text)
    if unranked:
        return ShapedType(unranked.group(1), None, _element_type(unranked.group(2)))
    match = _SHAPED.match(text)
    if not match:
        return None
    dims: list[int | None] = []
    for dim in match.group(2).split("x")[:-1]:
        dim = dim.strip("[]")
        if dim == "?":
            dims.append(None)
        elif (size := dimension(dim)) is not None:
            dims.append(size)
        else:
            return None
    return ShapedType(match.group(1), tuple(dims), _element_type(match.group(3)))


NO_ALIASES: Mapping[str, str] = MappingProxyType({})


def resolve_alias(text: str, aliases: Mapping[str, str]) -> str:
    """The type or attribute ``text`` spells, an ``!alias`` or ``#alias`` replaced by its
    definition (which ``aliases`` holds resolved the same way: ``!b = !a`` maps ``!b`` to
    what ``!a`` is). Only a whole alias is replaced, so the text never grows past the
    definitions' own (``tuple<!a, !a>`` stays as written)."""
    if not aliases:
        return text
    stripped = text.strip()
    return aliases.get(stripped, stripped)


def shaped_type_in(text: str, aliases: Mapping[str, str]) -> ShapedType | None:
    """``parse_shaped_type`` of a type written where ``aliases`` are defined: the type and
    its element type may be aliases (``!t``, ``tensor<4x!elem>``)."""
    shaped = parse_shaped_type(resolve_alias(text, aliases))
    if shaped is None or not aliases or shaped.element_type not in aliases:
        return shaped
    return replace(shaped, element_type=resolve_alias(shaped.element_type, aliases))


def _element_type(rest: str) -> str:
    """The element type, without a trailing encoding or layout (``, #enc``)."""
    return split_top_level(rest, ",")[0].strip()


_ELEMENT_BITS = re.compile(r"(?:[su]?i|f|bf)(\d+)")


def element_bits(element_type: str) -> int | None:
    """Storage width in bits of a scalar element type, when known."""
    if element_type == "index":
        return 64
    if element_type.startswith("complex<"):
        inner = element_bits(element_type[8:-1])
        return None if inner is None else 2 * inner
    match = _ELEMENT_BITS.match(element_type)
    if match and match.end() == len(element_type):
        bits = width(match.group(1))
        return None if bits is None else 8 if bits == 1 else bits
    if (
        element_type.startswith("f8")
        or element_type.startswith("f4")
        or element_type.startswith("f6")
    ):
        return 8
    return None
