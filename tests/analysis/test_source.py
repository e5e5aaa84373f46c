"""SourceText: positions by counting and by the line index agree; UTF-16 conversions."""

from __future__ import annotations

import random

from passlint.analysis.findings import Position
from passlint.analysis.source import SourceText, line_starts


def test_counted_positions_equal_indexed_positions() -> None:
    rng = random.Random(3)
    text = "".join(rng.choice("ab\n\r𝄞é ") for _ in range(5000))
    offsets = [rng.randrange(len(text) + 1) for _ in range(60)]
    counted = SourceText(text)
    indexed = SourceText(text)
    _ = indexed.line_starts
    assert [counted.position(o) for o in offsets] == [indexed.position(o) for o in offsets]


def test_offsets_and_lines() -> None:
    source = SourceText("ab\ncd\r\n\nlast")
    assert source.line_starts == [0, 3, 7, 8]
    assert source.line_text(1) == "cd"
    assert source.position(4) == Position(1, 1)
    assert source.offset(Position(3, 2)) == 10
    assert source.offset(Position(0, 99)) == 2  # clamped to the line end
    assert source.position(999) == Position(3, 4)


def test_utf16_columns() -> None:
    source = SourceText("x = '𝄞é' # y\n")
    assert source.to_utf16(Position(0, 7)) == Position(0, 8)
    assert source.from_utf16(Position(0, 8)) == Position(0, 7)
    ascii_source = SourceText("abc\n")
    assert ascii_source.to_utf16(Position(0, 2)) == Position(0, 2)
    assert ascii_source.from_utf16(Position(0, 9)) == Position(0, 3)


def test_line_starts() -> None:
    for text in ["", "\n", "a", "a\n", "a\r\nb\n\nc", "😀\nx\n"]:
        lengths = [len(line) + 1 for line in text.split("\n")]
        assert line_starts(text) == [sum(lengths[:i]) for i in range(len(lengths))]


def _utf16_by_counting(line: str, column: int) -> int:
    return column + sum(1 for char in line[:column] if ord(char) > 0xFFFF)


def _column_by_counting(line: str, units: int) -> int:
    """The first character whose UTF-16 column is at least ``units`` (the line's length
    past its end)."""
    count = 0
    for index, char in enumerate(line):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def test_utf16_conversions_equal_counting_the_line() -> None:
    rng = random.Random(5)
    for _ in range(50):
        text = "".join(rng.choice("ab\n\r𝄞é😀 ") for _ in range(rng.randrange(1, 120)))
        source = SourceText(text)
        for line in range(source.line_count):
            body = source.line_text(line)
            for column in range(len(body) + 1):
                assert source.to_utf16(Position(line, column)).column == _utf16_by_counting(
                    body, column
                )
            for units in range(_utf16_by_counting(body, len(body)) + 3):
                assert source.from_utf16(Position(line, units)).column == _column_by_counting(
                    body, units
                )
