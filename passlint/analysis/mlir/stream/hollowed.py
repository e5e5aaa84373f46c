"""The hollowed text: the file with each hole replaced by one placeholder statement, and the
way back from its lines to the file's.

A hole of ``n`` whole lines becomes one line at the body's indentation,

    %passlint.hole.K, %e1, %e2 = "passlint.hole"(%i1, %i2) : (i1, i1) -> (i1, i1, i1)

a generic op that defines the hole's exports (after a result of its own, so the line starts
a statement as the hole's first line did) and uses its imports; the lines around it are the
file's, byte for byte. Lines after it move up by ``n - 1``.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.mlir.stream.scan import PLACEHOLDER, Hole, Holes

if TYPE_CHECKING:
    from passlint.analysis.mlir.stream.scan import Source


@dataclass
class Hollowed:
    """The hollowed text, where each placeholder and each function with holes is in it, and
    the line map back to the file."""

    text: str
    placeholders: list[tuple[int, int]]  # each placeholder statement's [start, end)
    functions: list[tuple[int, int]]  # each function with holes: [start, end)
    placeholder_lines: list[int]  # each placeholder's line
    lines_after: list[int]  # the file's line after each hole

    def file_line(self, line: int) -> int | None:
        """The file's line of the hollowed text's ``line`` (None: a placeholder's)."""
        at = bisect.bisect_right(self.placeholder_lines, line) - 1
        if at < 0:
            return line
        if self.placeholder_lines[at] == line:
            return None
        return self.lines_after[at] + line - self.placeholder_lines[at] - 1


def hollow(source: Source, holes: Holes) -> Hollowed:
    """The hollowed text of ``source`` (its bytes) with ``holes`` (``scan.find_holes``)."""
    writer = _Writer(source)
    functions: list[tuple[int, int]] = []
    placeholders: list[tuple[int, int]] = []
    placeholder_lines: list[int] = []
    lines_after: list[int] = []
    for function in holes.functions:
        start = writer.take(function.start)
        if function.arguments_cut is not None:  # (the header's long argument list, cut down)
            cut_start, cut_stop, text = function.arguments_cut
            writer.take(cut_start)
            writer.put_text(text, cut_stop)
        for hole in function.holes:
            writer.take(hole.start)
            placeholders.append(writer.put(_placeholder(hole, len(placeholders)), hole))
            placeholder_lines.append(writer.line - 1)
            lines_after.append(hole.first + hole.lines)
        functions.append((start, writer.take(function.end)))
    writer.take(len(source))
    text = "".join(writer.pieces)
    return Hollowed(text, placeholders, functions, placeholder_lines, lines_after)


class _Writer:
    """The hollowed text as it is written: the file's text taken up to a byte offset, and
    placeholders in place of holes."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.pieces: list[str] = []
        self.at = 0  # bytes of the file passed
        self.length = 0  # characters written
        self.line = 0  # line breaks written

    def take(self, until: int) -> int:
        """Write the file's text up to byte ``until``; where it ends in the hollowed text."""
        piece = self.source[self.at : until].decode("utf-8")
        self.pieces.append(piece)
        self.length += len(piece)
        self.line += piece.count("\n")
        self.at = max(self.at, until)
        return self.length

    def put_text(self, text: str, until: int) -> None:
        """Write ``text`` in place of the file's bytes up to ``until`` (as many characters as
        those bytes: the same offsets, the same lines)."""
        self.pieces.append(text)
        self.length += len(text)
        self.line += text.count("\n")
        self.at = until

    def put(self, text: str, hole: Hole) -> tuple[int, int]:
        """Write ``text`` and a line break for ``hole``, passing its bytes; where the
        statement (after its indentation) starts and ends."""
        start = self.length + len(hole.indent)
        self.pieces.append(text + "\n")
        self.length += len(text) + 1
        self.line += 1
        self.at = hole.end
        return start, start - len(hole.indent) + len(text)


def _placeholder(hole: Hole, number: int) -> str:
    """The placeholder line of ``hole`` (without its line break)."""
    results = [f"%{PLACEHOLDER}.{number}", *hole.exports]
    operands = list(hole.imports)
    result_types = "i1" if len(results) == 1 else f"({', '.join(['i1'] * len(results))})"
    return (
        f'{hole.indent}{", ".join(results)} = "{PLACEHOLDER}"({", ".join(operands)})'
        f" : ({', '.join(['i1'] * len(operands))}) -> {result_types}"
    )
