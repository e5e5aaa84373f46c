"""Source text with a line index: offsets <-> (line, column), in characters and UTF-16."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from passlint.analysis.findings import Position, Range


@dataclass(frozen=True)
class SourceText:
    """An immutable document text with a line-start index.

    Lines end at ``\\n``; a ``\\r`` before it belongs to the line's text. Columns count
    characters (code points); the ``*_utf16`` methods count UTF-16 code units for LSP.
    """

    text: str

    def __post_init__(self) -> None:
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        object.__setattr__(self, "_starts", starts)

    @property
    def line_starts(self) -> list[int]:
        starts: list[int] = self._starts  # type: ignore[attr-defined]
        return starts

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line_text(self, line: int) -> str:
        """The text of ``line`` without its line ending."""
        starts = self.line_starts
        if line < 0 or line >= len(starts):
            return ""
        start = starts[line]
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)
        text = self.text[start:end]
        return text[:-1] if text.endswith("\r") else text

    def position(self, offset: int) -> Position:
        """The 0-based (line, character column) of a character offset, clamped to the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return Position(line, offset - self.line_starts[line])

    def range(self, start: int, end: int) -> Range:
        return Range(self.position(start), self.position(end))

    def offset(self, position: Position) -> int:
        """The character offset of a position; columns past the line end clamp to it."""
        starts = self.line_starts
        if position.line < 0:
            return 0
        if position.line >= len(starts):
            return len(self.text)
        start = starts[position.line]
        line_end = (
            starts[position.line + 1] - 1 if position.line + 1 < len(starts) else len(self.text)
        )
        return min(start + max(position.column, 0), line_end)

    def span(self, rng: Range) -> tuple[int, int]:
        return self.offset(rng.start), self.offset(rng.end)

    def to_utf16(self, position: Position) -> Position:
        """Convert a character column to a UTF-16 code-unit column."""
        prefix = self.line_text(position.line)[: position.column]
        return Position(position.line, _utf16_len(prefix))

    def from_utf16(self, position: Position) -> Position:
        """Convert a UTF-16 code-unit column to a character column (clamped to the line)."""
        line = self.line_text(position.line)
        units = 0
        for index, char in enumerate(line):
            if units >= position.column:
                return Position(position.line, index)
            units += 2 if ord(char) > 0xFFFF else 1
        return Position(position.line, len(line))


def _utf16_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)
