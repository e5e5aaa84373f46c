"""didChange applied by ``text_sync``: the same text as applying each change by its positions
(``SourceText``, as the test client does), a line index equal to a fresh one, and each change
described as the whole lines it replaced."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Position, Range, TextEdit
from passlint.analysis.source import SourceText
from passlint.server.text_sync import LineIndex, TextSync

PIECES = ["a", "xyz", "\n", "\r\n", "é", "😀", "  ", "\n\n", "}", ""]


def expected_after(text: str, rng: types.Range, new_text: str) -> str:
    source = SourceText(text)
    start = source.from_utf16(Position(rng.start.line, rng.start.character))
    end = source.from_utf16(Position(rng.end.line, rng.end.character))
    if source.offset(end) < source.offset(start):
        end = start
    return apply_edits(text, [TextEdit("", Range(start, end), new_text)])


def random_range(rng: random.Random, text: str) -> types.Range:
    lines = text.split("\n")

    def position() -> types.Position:
        line = rng.randrange(len(lines) + 1)  # now and then past the end
        width = len(lines[line]) if line < len(lines) else 0
        return types.Position(line=line, character=rng.randrange(width + 3))

    first, second = sorted((position(), position()), key=lambda p: (p.line, p.character))
    return types.Range(start=first, end=second)


@pytest.mark.parametrize("seed", range(20))
def test_random_changes(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 60)))
    sync = TextSync()
    for _ in range(30):
        changes: list[types.TextDocumentContentChangeEvent] = []
        expected = text
        for _ in range(rng.choice([1, 1, 2, 3])):
            if rng.randrange(12) == 0:
                new_text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(20)))
                changes.append(types.TextDocumentContentChangeWholeDocument(text=new_text))
                expected = new_text
                continue
            span = random_range(rng, expected)
            inserted = "".join(rng.choice(PIECES) for _ in range(rng.randrange(4)))
            changes.append(types.TextDocumentContentChangePartial(range=span, text=inserted))
            expected = expected_after(expected, span, inserted)
        before = text
        text, described = sync.apply("file:///a.mlir", text, changes)
        assert text == expected
        whole = any(isinstance(c, types.TextDocumentContentChangeWholeDocument) for c in changes)
        assert (described is None) == whole
        if described is not None:
            replay = before
            for change in described:
                assert replay[change.start : change.end] == change.old
                assert change.start == 0 or replay[change.start - 1] == "\n"
                assert change.end == len(replay) or replay[change.end] == "\n"
                assert change.line == replay.count("\n", 0, change.start)
                replay = replay[: change.start] + change.new + replay[change.end :]
            assert replay == text
        index = sync._indexes.get("file:///a.mlir")
        if index is not None:
            assert index.text is text
            assert index.starts == LineIndex(text).starts


def test_utf16_columns_and_clamping() -> None:
    index = LineIndex("a😀b\r\nsecond\n")
    # 😀 is two UTF-16 code units: column 3 is just after it.
    assert index.offset(types.Position(line=0, character=3)) == 2
    assert index.offset(types.Position(line=0, character=99)) == 3  # before the \r
    assert index.offset(types.Position(line=5, character=0)) == len(index.text)
    change = index.apply(
        types.Range(
            start=types.Position(line=0, character=3), end=types.Position(line=1, character=2)
        ),
        "X\nY",
    )
    assert index.text == "a😀X\nYcond\n"
    assert (change.line, change.start, change.old, change.new) == (
        0,
        0,
        "a😀b\r\nsecond",
        "a😀X\nYcond",
    )
    assert index.starts == [0, 4, 10]


def test_the_server_keeps_a_few_documents() -> None:
    sync = TextSync(documents=2)
    change = types.TextDocumentContentChangePartial(
        range=types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
        ),
        text="x",
    )
    texts = {}
    for name in "abc":
        texts[name], _ = sync.apply(f"file:///{name}", name, [change])
    assert list(sync._indexes) == ["file:///b", "file:///c"]
    # A text the index does not hold (changed elsewhere) is indexed again.
    assert sync.apply("file:///c", "other", [change])[0] == "xother"
    sync.forget("file:///c")  # closed: its text is not kept
    assert list(sync._indexes) == ["file:///b"]


def lsp_after(text: str, rng: types.Range, new_text: str) -> str:
    """LSP's own reading: lines end at \\n, \\r\\n or \\r; columns in UTF-16, clamped."""
    lines = text.splitlines(keepends=True)  # the texts here hold no other line separators

    def offset(position: types.Position) -> int:
        if position.line >= len(lines):
            return len(text)
        before = sum(len(line) for line in lines[: position.line])
        content = lines[position.line].rstrip("\r\n")
        units = 0
        for column, char in enumerate(content):
            if units >= position.character:
                return before + column
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(content)

    start, end = offset(rng.start), offset(rng.end)
    return text[:start] + new_text + text[max(start, end) :]


@pytest.mark.parametrize("seed", range(20))
def test_lone_carriage_returns_end_lines_as_the_client_counts_them(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["a", "é", "😀", "\n", "\r\n", "\r", "  "]
    text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 40)))
    sync = TextSync()
    for _ in range(30):
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        line = rng.randrange(len(lines) + 1)
        width = len(lines[line]) if line < len(lines) else 0
        start = types.Position(line=line, character=rng.randrange(width + 2))
        end = types.Position(line=line + rng.randrange(2), character=rng.randrange(width + 2))
        if (end.line, end.character) < (start.line, start.character):
            start, end = end, start
        inserted = "".join(rng.choice(pieces) for _ in range(rng.randrange(3)))
        span = types.Range(start=start, end=end)
        expected = lsp_after(text, span, inserted)
        text, described = sync.apply(
            "file:///a.mlir",
            text,
            [types.TextDocumentContentChangePartial(range=span, text=inserted)],
        )
        assert text == expected
        if "\r" in text.replace("\r\n", ""):
            assert described is None or sync._indexes.get("file:///a.mlir") is None
