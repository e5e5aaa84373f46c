"""Integer literals whose value MLIR bounds, reported as MLIR's parser reports them (E001);
their values are read by ``types`` (never with ``int()`` on text of unbounded length):

- a dimension is a signed 64-bit integer: ``tensor<9223372036854775808xf32>`` is an
  ``invalid dimension``;
- an integer type is at most 16777215 bits wide (``integer bitwidth is limited to 16777215
  bits``).

The text of a chunk is searched for such literals with two patterns that start with a rare
character (``<``, ``i``): a search starting at every digit took 40 ms of a 5 MB module. A
line holding a candidate is then read closely, its strings and comments skipped.
"""

from __future__ import annotations

import re

from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.ir import SyntaxIssue
from passlint.analysis.mlir.lexer import STRING_OR_REST
from passlint.analysis.mlir.types import LARGEST_DIMENSION, WIDEST_INTEGER, dimension, width
from passlint.analysis.source import lines_with

NUMBER = 20  # characters of a number quoted in a message, at most


# A dimension list with a run of 19 digits or more (a candidate); then, on its line, each
# shaped type's dimension list outside strings and comments.
_LONG_DIMENSION = re.compile(r"<[0-9x?*\[\] \t]*[0-9]{19}")
_DIMENSIONS = re.compile(
    rf"{STRING_OR_REST}|//[^\r\n]*|(?<![\w$.\-])(?:tensor|vector|memref)[ \t]*<[ \t]*"
    r"(?P<dims>(?:(?:[0-9]+|\?|\*|\[[0-9]+\])[ \t]*x[ \t]*)++)"
)
# An integer type of 8 digits or more; then, on its line, each integer type.
_WIDE_INTEGER = re.compile(r"i[0-9]{8}")
_INTEGER_TYPES = re.compile(
    rf"{STRING_OR_REST}|//[^\r\n]*|(?<![\w$.\-#!%@^])[su]?i(?P<bits>[0-9]+)(?![\w$.\-])"
)
_RUN = re.compile(r"[0-9]+")


def candidate_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The lines of ``text[start:end]`` on which ``out_of_range`` may find something."""
    return [
        *lines_with(_LONG_DIMENSION, text, start, end),
        *lines_with(_WIDE_INTEGER, text, start, end),
    ]


def out_of_range(text: str, start: int, end: int) -> list[SyntaxIssue]:
    """The dimensions and integer widths of ``text[start:end]`` MLIR rejects."""
    issues: list[SyntaxIssue] = []
    for line_start, line_end in lines_with(_LONG_DIMENSION, text, start, end):
        for match in _DIMENSIONS.finditer(text, line_start, line_end):
            if match.group("dims") is None:
                continue  # a string or a comment
            for run in _RUN.finditer(text, *match.span("dims")):
                if dimension(run.group()) is None:
                    issues.append(_invalid_dimension(run))
    for line_start, line_end in lines_with(_WIDE_INTEGER, text, start, end):
        for match in _INTEGER_TYPES.finditer(text, line_start, line_end):
            bits = match.group("bits")
            if bits is not None and width(bits) is None:
                issues.append(_too_wide(match))
    return issues


def _invalid_dimension(run: re.Match[str]) -> SyntaxIssue:
    return SyntaxIssue(
        run.start(),
        run.end(),
        f"Invalid dimension `{excerpt(run.group(), NUMBER)}`; write one of at most "
        f"{LARGEST_DIMENSION}. MLIR's dimensions are signed 64-bit integers.",
    )


def _too_wide(match: re.Match[str]) -> SyntaxIssue:
    return SyntaxIssue(
        match.start(),
        match.end(),
        f"Integer bitwidth is limited to {WIDEST_INTEGER} bits, not "
        f"`{excerpt(match.group(), NUMBER)}`; write a narrower integer type.",
    )
