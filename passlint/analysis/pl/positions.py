"""Map ``ast`` node positions (1-based lines, UTF-8 byte columns) to character offsets.

Lines are those of ``SourceText`` (``\n``, ``\r\n`` and a lone ``\r`` end one, as in CPython's
tokenizer); on line 1 of a text with a byte order mark, columns count from after it (the
parser never sees it: ``python_text``)."""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass

from passlint.analysis.findings import Position, Range
from passlint.analysis.pl.python_text import bom_length
from passlint.analysis.source import SourceText


class Positions:
    """Character offsets of ``ast`` nodes in one text; the UTF-8 widths of a non-ASCII
    line's characters are found once, when a node on it is first asked about."""

    def __init__(self, source: SourceText) -> None:
        self.source = source
        self._starts = source.line_starts
        self._wide: dict[int, _Wide | None] = {}  # by line; None: an ASCII line
        self._bom = bom_length(source.text)
        self._all_ascii = source.is_ascii or bool(self._bom and source.text[1:].isascii())

    def offset(self, lineno: int, col_offset: int) -> int:
        """The character offset of (1-based line, UTF-8 byte column)."""
        starts = self._starts
        if self._all_ascii and 1 < lineno <= len(starts):
            return starts[lineno - 1] + col_offset
        line = min(max(lineno - 1, 0), len(starts) - 1)
        start = starts[line] + (self._bom if line == 0 else 0)
        if self._all_ascii:
            return start + col_offset
        if line in self._wide:
            wide = self._wide[line]
        else:
            wide = self._wide[line] = _Wide.of(self._parsed_line(line))
        return start + (col_offset if wide is None else wide.characters(col_offset))

    def _parsed_line(self, line: int) -> str:
        """The text of ``line`` as the parser read it."""
        text = self.source.line_text(line)
        return text[self._bom :] if line == 0 else text

    def start(self, node: ast.AST) -> int:
        return self.offset(getattr(node, "lineno", 1), getattr(node, "col_offset", 0))

    def end(self, node: ast.AST) -> int:
        end_line = getattr(node, "end_lineno", None)
        end_col = getattr(node, "end_col_offset", None)
        if end_line is None or end_col is None:
            return self.start(node)
        return self.offset(end_line, end_col)

    def span(self, node: ast.AST) -> tuple[int, int]:
        return self.start(node), self.end(node)

    def range(self, node: ast.AST) -> Range:
        """The node's range (what ``source.range(*span(node))`` gives, without searching the
        line index for lines the node already names)."""
        start_line: int = getattr(node, "lineno", 1)
        start_col: int = getattr(node, "col_offset", 0)
        end_line: int | None = getattr(node, "end_lineno", None)
        end_col: int | None = getattr(node, "end_col_offset", None)
        if end_line is None or end_col is None:
            end_line, end_col = start_line, start_col
        return Range(self._position(start_line, start_col), self._position(end_line, end_col))

    def _position(self, lineno: int, col_offset: int) -> Position:
        starts = self._starts
        if 0 < lineno <= len(starts):
            return Position(lineno - 1, self.offset(lineno, col_offset) - starts[lineno - 1])
        return self.source.position(self.offset(lineno, col_offset))

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.source.text[start:end]


@dataclass(frozen=True)
class _Wide:
    """The non-ASCII characters of a line: where each starts in its UTF-8 bytes, and how
    many more bytes than characters the line has up to the end of each."""

    starts: list[int]
    extra: list[int]

    @classmethod
    def of(cls, text: str) -> _Wide | None:
        starts: list[int] = []
        extra: list[int] = []
        more = 0
        for match in _NON_ASCII.finditer(text):
            starts.append(match.start() + more)
            more += len(match.group().encode("utf-8", "surrogatepass")) - 1
            extra.append(more)
        return cls(starts, extra) if starts else None

    def characters(self, byte: int) -> int:
        """The characters before UTF-8 byte ``byte`` of the line."""
        before = bisect.bisect_left(self.starts, byte)  # wide characters before it
        return byte - self.extra[before - 1] if before else byte


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@dataclass(frozen=True)
class Line:
    """A line of a text: where it starts, where its line ending starts (the text's end on a
    last line without one) and that ending (``\\n``, ``\\r\\n``, ``\\r`` or "")."""

    start: int
    end: int
    ending: str

    @property
    def newline(self) -> str:
        """The ending a line inserted after this one's start gets: this line's own."""
        return self.ending or "\n"


def line_at(source: SourceText, offset: int) -> Line:
    """The line of ``source`` that holds character ``offset`` (found without copying it:
    a line may be megabytes long and asked about many times)."""
    line = source.position(offset).line
    starts, text = source.line_starts, source.text
    start = starts[line]
    if line + 1 == len(starts):
        return Line(start, len(text), "")
    after = starts[line + 1]
    width = 2 if text.startswith("\r\n", after - 2) and after - 2 >= start else 1
    return Line(start, after - width, text[after - width : after])


def starts_line(text: str, line: Line, offset: int) -> bool:
    """Is there only blank space between the line's start and ``offset``?"""
    at = offset
    while at > line.start and text[at - 1] in _BLANKS:
        at -= 1
    return at == line.start


_BLANKS = frozenset(" \t\f")
