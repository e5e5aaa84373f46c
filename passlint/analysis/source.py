"""Source text with a line index: offsets <-> (line, column), in characters and UTF-16."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from passlint.analysis.findings import Position, Range

_COUNTED_LOOKUPS = 16  # positions answered by counting before the line index is built
# Lines end at ``\n``, ``\r\n`` or a lone ``\r``: as LSP counts them, and CPython's
# tokenizer and MLIR's lexer read them. A text without ``\r`` has only ``\n``, found faster.
LINE_BREAK = re.compile(r"\r\n?|\n")
_NEWLINE = re.compile("\n")


def _breaks(text: str, start: int, end: int) -> re.Pattern[str]:
    """The pattern that finds the line breaks of ``text[start:end]``."""
    return LINE_BREAK if text.find("\r", start, end) >= 0 else _NEWLINE


def line_starts(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The offset of each line's start in ``text[start:end]`` (a range that does not end
    between the two characters of a CRLF), found without splitting the text into lines: that
    copy of a multi-megabyte text, one object per line, took twice the time and 13 MB for a
    7.7 MB module."""
    end = len(text) if end is None else end
    return [start, *(match.end() for match in _breaks(text, start, end).finditer(text, start, end))]


def line_start_offsets(text: str) -> Iterator[int]:
    """``line_starts`` of the whole text one at a time (no list of them all: a million
    lines' list is 40 MB)."""
    yield 0
    for match in _breaks(text, 0, len(text)).finditer(text):
        yield match.end()


def has_lone_cr(text: str, start: int = 0, end: int | None = None) -> bool:
    """Does a line of ``text[start:end]`` end at a ``\\r`` that no ``\\n`` follows there?"""
    end = len(text) if end is None else end
    return text.find("\r", start, end) >= 0 and _LONE_CR.search(text, start, end) is not None


_LONE_CR = re.compile(r"\r(?!\n)")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each without its line break."""
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


def line_start(text: str, offset: int) -> int:
    """The start of the line holding ``offset`` (searched back no further than that line)."""
    offset = max(0, min(offset, len(text)))
    newline = text.rfind("\n", 0, offset)
    lone = text.rfind("\r", newline + 1, offset)
    if lone >= 0 and text.startswith("\n", lone + 1):  # (``offset`` is on that \n)
        lone = text.rfind("\r", newline + 1, lone)
    return max(newline, lone) + 1


def line_end(text: str, offset: int, end: int | None = None) -> int:
    """Where the line holding ``offset`` ends: the start of its line break, or ``end`` (the
    text's end by default) when the line goes on to there."""
    end = len(text) if end is None else end
    if 0 < offset < end and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset - 1  # (on the \n of a CRLF)
    newline = text.find("\n", offset, end)
    stop = end if newline < 0 else newline
    carriage = text.find("\r", offset, stop)
    return stop if carriage < 0 else carriage


def line_break(text: str, offset: int) -> str:
    """The line ending of the line holding ``offset`` (read to that line's end), else that of
    the line before it (the last line has none), else ``\n``: what a line inserted there
    ends with, as the file's own lines do."""
    end = line_end(text, offset)
    if end == len(text):
        end = line_start(text, offset) - 1
        if end < 0:
            return "\n"
        if text[end] == "\n" and end > 0 and text[end - 1] == "\r":
            return "\r\n"
        return text[end]
    return "\r\n" if text.startswith("\r\n", end) else text[end]


def lines_with(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` of each line of ``text[start:end]`` where ``pattern`` is found
    (each once, cut to the range): where a rare pattern is looked for in a whole text, and
    its lines read closely."""
    lines: list[tuple[int, int]] = []
    at = start
    while (found := pattern.search(text, at, end)) is not None:
        stop = line_end(text, found.end(), end)
        lines.append((max(line_start(text, found.start()), start), stop))
        at = stop
    return lines


class SourceText:
    """A document text (never changed after creation) with a line-start index.

    Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r`` (``LINE_BREAK``). Columns count
    characters (code points); the ``*_utf16`` methods count UTF-16 code units for LSP. The
    index is built on demand: a few positions in a multi-megabyte text without ``\\r`` are
    cheaper to count.
    """

    __slots__ = (
        "_ascii",
        "_astral",
        "_astral_known",
        "_carriage",
        "_counted",
        "_last",
        "_starts",
        "text",
    )

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._ascii: bool | None = None
        # Per line, where its characters beyond U+FFFF (two UTF-16 units each) stand; None
        # until asked, and when the text has none.
        self._astral: dict[int, _Astral] | None = None
        self._astral_known = False
        self._counted = 0
        self._carriage = "\r" in text  # (lines are counted by \n alone without it)
        self._last = (0, 0)  # (offset, line) of the last counted lookup

    def __repr__(self) -> str:
        return f"SourceText({len(self.text)} characters)"

    @property
    def line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = line_starts(self.text)
        return self._starts

    @property
    def is_ascii(self) -> bool:
        if self._ascii is None:
            self._ascii = self.text.isascii()
        return self._ascii

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line_text(self, line: int) -> str:
        """The text of ``line`` without its line ending."""
        bounds = self._bounds(line)
        return "" if bounds is None else self.text[bounds[0] : bounds[1]]

    def _bounds(self, line: int) -> tuple[int, int] | None:
        """Where the text of ``line`` starts and ends (before its line ending), or None when
        there is no such line."""
        starts = self.line_starts
        if line < 0 or line >= len(starts):
            return None
        start = starts[line]
        if line + 1 == len(starts):
            return start, len(self.text)
        after = starts[line + 1]  # (after its line break)
        crlf = after - 2 >= start and self.text.startswith("\r\n", after - 2)
        return start, after - 2 if crlf else after - 1

    def position(self, offset: int) -> Position:
        """The 0-based (line, character column) of a character offset, clamped to the text."""
        offset = max(0, min(offset, len(self.text)))
        if self._starts is None and self._counted < _COUNTED_LOOKUPS and not self._carriage:
            self._counted += 1
            last_offset, last_line = self._last
            if offset >= last_offset:
                line = last_line + self.text.count("\n", last_offset, offset)
            else:
                line = last_line - self.text.count("\n", offset, last_offset)
            self._last = (offset, line)
            return Position(line, offset - (self.text.rfind("\n", 0, offset) + 1))
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return Position(line, offset - self.line_starts[line])

    def range(self, start: int, end: int) -> Range:
        return Range(self.position(start), self.position(end))

    def offset(self, position: Position) -> int:
        """The character offset of a position; columns past the line's text clamp to its end."""
        if position.line < 0:
            return 0
        bounds = self._bounds(position.line)
        if bounds is None:
            return len(self.text)
        start, end = bounds
        return min(start + max(position.column, 0), end)

    def span(self, rng: Range) -> tuple[int, int]:
        return self.offset(rng.start), self.offset(rng.end)

    def to_utf16(self, position: Position) -> Position:
        """Convert a character column to a UTF-16 code-unit column."""
        astral = self._astral_of(position.line)
        if astral is None:
            return position
        before = bisect.bisect_left(astral.columns, position.column)
        return Position(position.line, position.column + before)

    def from_utf16(self, position: Position) -> Position:
        """Convert a UTF-16 code-unit column to a character column (clamped to the line's
        text); a column inside a surrogate pair is the character after it."""
        bounds = self._bounds(position.line)
        length = 0 if bounds is None else bounds[1] - bounds[0]
        units = max(position.column, 0)
        astral = self._astral_of(position.line)
        if astral is None:
            return Position(position.line, min(units, length))
        before = bisect.bisect_right(astral.reached, units)  # those starting before it
        column = units - before
        if before:
            column = max(column, astral.columns[before - 1] + 1)
        return Position(position.line, min(column, length))

    def _astral_of(self, line: int) -> _Astral | None:
        """Where the characters beyond U+FFFF (two UTF-16 units each) of ``line`` stand, or
        None when it has none. Read once per line: converting each position by counting
        its line's characters up to it cost a long line's length per position."""
        if not self._astral_known:
            self._astral_known = True
            if not self.is_ascii and _ASTRAL.search(self.text) is not None:
                self._astral = {}
        if self._astral is None:
            return None  # (none in the whole text)
        found = self._astral.get(line)
        if found is None:
            bounds = self._bounds(line)
            if bounds is None:
                return None
            start, end = bounds
            columns = tuple(m.start() - start for m in _ASTRAL.finditer(self.text, start, end))
            found = _Astral(columns, tuple(c + k + 1 for k, c in enumerate(columns)))
            self._astral[line] = found
        return found if found.columns else None


@dataclass(frozen=True, slots=True)
class _Astral:
    """The columns of a line's characters beyond U+FFFF, and for each the UTF-16 column it
    starts at, plus one (a column at or past that is after its first unit)."""

    columns: tuple[int, ...]
    reached: tuple[int, ...]


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")  # two UTF-16 code units each
