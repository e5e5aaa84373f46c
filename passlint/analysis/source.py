"""Source text with a line index: offsets <-> (line, column), in characters and UTF-16."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from passlint.analysis.findings import Position, Range

_COUNTED_LOOKUPS = 16  # positions answered by counting before the line index is built
_LINE_BREAK = re.compile("\n")


def line_start(text: str, offset: int) -> int:
    """The start of the line holding ``offset`` (searched back no further than that line)."""
    offset = max(0, min(offset, len(text)))
    return text.rfind("\n", 0, offset) + 1


def line_break(text: str, offset: int) -> str:
    """The line ending of the line holding ``offset`` (read to that line's end), else that of
    the line before it (the last line has none), else ``\\n``: what a line inserted there
    ends with, as the file's own lines do."""
    end = text.find("\n", offset)
    if end < 0:
        start = line_start(text, offset)
        if start == 0:
            return "\n"
        end = start - 1
    return "\r\n" if end > 0 and text[end - 1] == "\r" else "\n"


def lines_with(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` of each line of ``text[start:end]`` where ``pattern`` is found
    (each once, cut to the range): where a rare pattern is looked for in a whole text, and
    its lines read closely."""
    lines: list[tuple[int, int]] = []
    at = start
    while (found := pattern.search(text, at, end)) is not None:
        line_begin = max(line_start(text, found.start()), start)
        line_end = text.find("\n", found.end(), end)
        line_end = end if line_end < 0 else line_end
        lines.append((line_begin, line_end))
        at = line_end
    return lines


def line_starts(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """The offset of each line's start in ``text[start:end]`` (lines end at ``\\n``), found
    without splitting the text into lines: that copy of a multi-megabyte text, one object per
    line, took twice the time and 13 MB for a 7.7 MB module."""
    end = len(text) if end is None else end
    return [start, *(match.end() for match in _LINE_BREAK.finditer(text, start, end))]


class SourceText:
    """A document text (never changed after creation) with a line-start index.

    Lines end at ``\\n``; a ``\\r`` before it belongs to the line's text. Columns count
    characters (code points); the ``*_utf16`` methods count UTF-16 code units for LSP. The
    index is built on demand: a few positions in a multi-megabyte text are cheaper to count.
    """

    __slots__ = ("_ascii", "_astral", "_astral_known", "_counted", "_last", "_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._ascii: bool | None = None
        # Per line, where its characters beyond U+FFFF (two UTF-16 units each) stand; None
        # until asked, and when the text has none.
        self._astral: dict[int, _Astral] | None = None
        self._astral_known = False
        self._counted = 0
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
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)
        return start, end - 1 if end > start and self.text[end - 1] == "\r" else end

    def position(self, offset: int) -> Position:
        """The 0-based (line, character column) of a character offset, clamped to the text."""
        offset = max(0, min(offset, len(self.text)))
        if self._starts is None and self._counted < _COUNTED_LOOKUPS:
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
