"""The last analysis seen through the edits since: an index moved by a Shift answers as the
index of the new text does, everywhere off the changed lines; the edit log refuses what it
cannot know."""

from __future__ import annotations

from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.source import SourceText
from passlint.analysis.text_change import replace_span
from passlint.server import inlay, navigation
from passlint.server.mlir_index import MlirIndex, build_index
from passlint.server.views import EditLog, MlirView, Shift

DATA = Path(__file__).resolve().parents[1] / "data"
TEXT = (DATA / "mlir" / "handmade__mhlo_fusion_hybrid.mlir").read_text()


def index_of(text: str) -> MlirIndex:
    analysis = pipeline.analyze_document("x.mlir", text)
    assert analysis.parsed is not None
    return build_index(analysis.parsed, SourceText(text), analysis.tensorizer, analysis.findings)


def edited(text: str, line: int, inserted: str) -> tuple[str, Shift]:
    source = SourceText(text)
    start = source.line_starts[line]
    new, change = replace_span(text, start, start, inserted, line)
    return new, Shift([change])


@pytest.mark.parametrize(
    ("line", "inserted"),
    [(0, "// a comment\n"), (14, "    %extra = stablehlo.abs %arg0 : tensor<8x4xf32>\n"), (27, "")],
)
def test_moved_index_answers_as_the_new_one(line: int, inserted: str) -> None:
    new_text, shift = edited(TEXT, line, inserted)
    old = MlirView(index_of(TEXT), shift, SourceText(new_text))
    fresh = MlirView(index_of(new_text), Shift(), SourceText(new_text))
    changed = range(
        new_text.count("\n", 0, SourceText(new_text).line_starts[line]),
        line + inserted.count("\n") + 1,
    )
    source = SourceText(new_text)
    checked = 0
    for offset in range(0, len(new_text), 3):
        if source.position(offset).line in changed:
            continue
        expected = navigation.mlir_definition(fresh, offset)
        if any(source.position(start).line in changed for start, _ in expected):
            expected = []  # a definition on a changed line waits for the new analysis
        assert navigation.mlir_definition(old, offset) == expected
        checked += 1
    assert checked > 500
    kept = [h.offset for h in fresh.index.hints if source.position(h.offset).line not in changed]
    assert [offset for offset, _ in inlay.mlir_hints(old, 0, len(new_text))] == kept


def test_shift_refuses_changed_lines_and_spans_across_them() -> None:
    text = "a\nb\nc\nd\n"
    new, shift = edited(text, 1, "x\n")
    assert new == "a\nx\nb\nc\nd\n"
    assert shift.forward(0) == 0  # line a
    assert shift.forward(2) is None  # line b was replaced (by x and b)
    assert shift.forward(4) == 6  # line c, one line down
    assert shift.backward(6) == 4
    assert shift.lines(2, 3) == (3, 4)
    assert shift.lines(0, 2) is None  # spans the changed line


def test_edit_log() -> None:
    log = EditLog(keep=3)
    log.opened("u", 1)
    _, shift = edited("a\nb\n", 0, "x\n")
    for version in (2, 3):
        log.record("u", version, shift.changes)
    moved = log.shift("u", 1, 3)
    assert moved is not None and len(moved.changes) == 2
    same = log.shift("u", 3, 3)
    assert same is not None and same.identity
    log.record("u", 4, None)  # replaced whole: nothing before it can be moved past it
    assert log.shift("u", 1, 4) is None
    for version in (5, 6, 7):
        log.record("u", version, shift.changes)
    assert log.shift("u", 4, 7) is not None
    assert log.shift("u", 3, 7) is None  # version 4's entry is forgotten (keep=3)


def test_completion_reads_only_the_line_tail() -> None:
    """A dump's line holds a megabyte-long hex word: the word before the cursor is found
    without trying every start of that line (which took minutes on stablehlo testdata)."""
    from passlint.server.completion import word_before

    line = '    %0 = stablehlo.constant dense<"0x' + "0A" * 500_000 + '"> : tensor<4xf32> %ar'
    assert word_before(line) == "%ar"
    assert word_before("0" * 1_000_000) == "0" * 512


def test_edit_log_keeps_a_bounded_size_of_changed_lines() -> None:
    """A pasted megabyte (or a whole-text edit sent as a range) is not kept for thousands of
    versions: older changes are forgotten once the log holds ``size`` characters."""
    log = EditLog(size=100)
    log.opened("u", 1)
    _, small = edited("a\nb\n", 0, "x\n")
    _, big = edited("a\nb\n", 0, "y" * 200 + "\n")
    log.record("u", 2, small.changes)
    log.record("u", 3, small.changes)
    assert log.shift("u", 1, 3) is not None
    log.record("u", 4, big.changes)  # over the size alone: forgotten with all before it
    assert log.shift("u", 3, 4) is None
    log.record("u", 5, small.changes)
    assert log.shift("u", 4, 5) is not None
    assert log.shift("u", 1, 5) is None
