"""What the passes read of a ``constant(...)`` literal: its elements, and whether it is a
splat (every element equal, as MLIR's ``isSplat`` says of the dense attribute XLA's HLO to
StableHLO converter makes of it; a single element, rank 0 included, is a splat)."""

from __future__ import annotations

import math
import re

from passlint.analysis.hlo.ir import Instruction

# A leading shape in older dumps' literals: ``constant(f32[2] {1, 2})``.
_SHAPE_PREFIX = re.compile(r"\s*[A-Za-z][\w]*\[[^\]]*\](?:\{[^{}]*\})?")
# One element: a parenthesised complex pair, a string, or a bare word or number.
_ELEMENT = re.compile(r"\([^()]*\)|\"(?:[^\"\\]|\\.)*\"|[^\s{},()]+")


def literal_elements(literal: str) -> list[str]:
    """The elements of a literal in order, braces and commas dropped."""
    prefix = _SHAPE_PREFIX.match(literal)
    body = literal[prefix.end() :] if prefix else literal
    return _ELEMENT.findall(body)


def is_splat_constant(instruction: Instruction) -> bool:
    """Whether a ``constant`` holds one element, or elements that are all equal."""
    count = instruction.shape.num_elements
    if count == 1:
        return True
    if instruction.splat is not None:  # (read from a proto: ``proto.is_splat``)
        return instruction.splat
    elements = literal_elements(instruction.literal or "")
    if not elements or (count is not None and len(elements) != count):
        return False
    first = _value(elements[0])
    return all(_value(element) == first for element in elements[1:])


def _value(element: str) -> object:
    """An element's value: numbers by what they are (``1`` and ``1.0`` alike), else text."""
    word = element.lower().replace(" ", "")
    try:
        number = float(word)
    except ValueError:
        return word
    return "nan" if math.isnan(number) else number
