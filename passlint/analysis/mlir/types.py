"""Builtin shaped types read from their text: ``tensor<2x?x8xf32>`` and friends."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from passlint.analysis.mlir.attribute_text import split_top_level

_SHAPED = re.compile(r"(tensor|vector|memref)<\s*((?:(?:\d+|\?|\[\d+\])x)*)(.*)>\s*\Z", re.DOTALL)
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


@lru_cache(maxsize=4096)
def parse_shaped_type(text: str) -> ShapedType | None:
    """The shaped type spelled by ``text``, or None if it is not one."""
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
        dims.append(None if dim == "?" else int(dim))
    return ShapedType(match.group(1), tuple(dims), _element_type(match.group(3)))


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
        bits = int(match.group(1))
        return 8 if bits == 1 else bits
    if (
        element_type.startswith("f8")
        or element_type.startswith("f4")
        or element_type.startswith("f6")
    ):
        return 8
    return None
