"""Issue 8 P2's guard: after any sequence of edits, the quick answer reused from the last one
(``QuickMemo``) equals ``quick_analyze`` from scratch on the same text.

Edits land anywhere, and often where the answer reads: @main's header, its return and the
lines around it, the definitions of the returned values, braces, `// -----`, dialect names,
suppression comments and the names copies would take.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passlint.analysis.findings import Severity
from passlint.analysis.text_change import TextChange, replace_span
from passlint.config import Settings
from passlint.quick import QuickMemo, quick_analyze

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from generate import mlir_module

T = TypeVar("T")
DATA = Path(__file__).resolve().parents[2] / "data" / "mlir"
TEXTS = [
    mlir_module(2),
    mlir_module(1, generic=True),
    mlir_module(1).replace("stablehlo.", "mhlo."),  # the MHLO variant
    *(
        (DATA / name).read_text()
        for name in (
            "jax__return_input_and_compute.mlir",
            "jax__zero_size_arrays.mlir",
            "jax__return_same_ssa_twice.mlir",
        )
    ),
]
SETTINGS = [
    Settings(),
    Settings(pipeline="mhlo"),
    Settings(extend_select=("PL100",)),
    Settings(ignore=("TL002",), severity={"TL001": Severity.ERROR}),
]
SNIPPETS = [
    "x",
    " ",
    "\n",
    "{",
    "}",
    "%",
    "=",
    ", ",
    "\n}",
    "\n  }",
    "  }\n",
    "// -----",
    "\n// -----\n",
    "@main(",
    '@"main"(',
    "= mhlo.add ",
    "= stablehlo.abs ",
    '= "mhlo.',
    "= mhlo.copy ",
    "mhlo.return",
    "stablehlo.return",
    "// passlint: ignore[TL001]",
    "\n    // passlint: ignore[TL001, TL002]\n",
    "%output0_copy",
    "%output1_copy",
    "%output2_copy",
    "%arg1",
    "%cst_out",
    "%76",
    "return ",
    "func.func @main(",
    ":",
    "(",
    "\n    %new = stablehlo.abs %arg0 : tensor<128x256xf32>",
    "\n    %cst_out = stablehlo.constant dense<1.0> : tensor<4xf32>",
    "\n    %76 = stablehlo.abs %arg0 : tensor<128x256xf32>",
    "\n      : tensor<4xf32>",
    "\n    ^bb1:",
    "    ",
]
_INTERESTING = re.compile(r"return|@main|func\.func|^\s*}|mhlo\.|// |%cst_out|%76 ")


def returned_names(text: str) -> set[str]:
    names = set()
    for row in text.split("\n"):
        if re.match(r"\s*\"?(func\.)?return", row):
            names.update(re.findall(r"%[\w$.\-]+", row.split(":")[0]))
    return names


def interesting_lines(text: str) -> list[int]:
    """Lines the quick answer reads closely or that can change it."""
    returned = returned_names(text)
    return [
        i
        for i, row in enumerate(text.split("\n"))
        if _INTERESTING.search(row) or any(name in row for name in returned)
    ]


def line_offsets(text: str, line: int) -> tuple[int, int]:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    line = min(line, len(starts) - 1)
    end = text.find("\n", starts[line])
    return starts[line], len(text) if end < 0 else end


def apply(text: str, start: int, end: int, inserted: str) -> tuple[str, TextChange]:
    return replace_span(text, start, end, inserted, text.count("\n", 0, start))


BENIGN = ["x", " ", "%9", "\n    ", "0", "\n"]
NAMES = ["%output0_copy", "%output1_copy", "%output2_copy", "%output1_copy_1", "%arg1", "%1"]
STRUCTURE = ["{", "}", "\n}", "\n  }", "\n    }", "// -----", "@main(", "= mhlo.add "]
STRUCTURE += ["= stablehlo.abs ", "mhlo.return", "// passlint: ignore[TL001]"]


class Choices(Protocol):
    """Where the random choices come from: hypothesis (which shrinks a failure) or a seeded
    ``random.Random`` (long runs)."""

    def pick(self, items: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...


class Drawn:
    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, items: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(items))

    def number(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


class Seeded:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, items: Sequence[T]) -> T:
        return self.rng.choice(items)

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def random_change(choose: Choices, text: str, undo: list[TextChange]) -> tuple[str, TextChange]:
    """One editor-like change: type harmless text, a name, a brace, separator, dialect or
    suppression anywhere; break a line before a brace or join it to the line above; undo the
    last change; or, mostly on the lines the answer reads, type a snippet that can change it,
    delete a span, or delete or copy a line."""
    total = text.count("\n") + 1
    kind = choose.pick(["benign", "benign", "undo", "name", "structure", "brace", "close", "close"])
    if kind == "undo" and undo:
        last = undo.pop()
        return apply(text, last.start, last.start + len(last.new), last.old)
    lines = interesting_lines(text)
    if lines and kind == "close" and choose.pick([True, False]):
        line = choose.pick(lines)
    else:
        line = choose.number(0, total - 1)
    line_start, line_end = line_offsets(text, line)
    at = choose.number(line_start, line_end)
    if kind in ("benign", "undo"):
        return apply(text, at, at, choose.pick(BENIGN))
    if kind == "name":
        return apply(text, at, at, choose.pick(sorted({*NAMES, *returned_names(text)})))
    if kind == "structure":
        return apply(text, at, at, choose.pick(STRUCTURE))
    if kind == "brace":
        braces = [m.start() for m in re.finditer(r"[{}]", text)]
        at = choose.pick(braces) if braces else at
        if choose.pick([True, False]):
            return apply(text, at, at, choose.pick(["\n", "\n  ", "\n    "]))
        joined = max(text.rfind("\n", 0, at), 0)
        return apply(text, joined, min(joined + 1, len(text)), "")
    action = choose.pick(["type", "type", "delete", "line", "copy"])
    if action == "type":
        return apply(text, at, at, choose.pick(SNIPPETS))
    if action == "delete":
        return apply(text, at, min(len(text), at + choose.number(1, 40)), "")
    if action == "line":
        return apply(text, line_start, min(len(text), line_end + 1), "")
    row = text[line_start:line_end] + "\n"
    other_start, _ = line_offsets(text, choose.number(0, total - 1))
    return apply(text, other_start, other_start, row)


def edit_session(choose: Choices, versions: int) -> int:
    """Open a text, then make ``versions`` versions of it, each by one to three changes (one
    didChange; now and then sent whole), checking the reused quick answer of most against
    the one from scratch. Returns how many answers were reused."""
    text = choose.pick([*TEXTS, TEXTS[2]])  # MHLO twice: it has more to lose
    chosen = choose.pick(SETTINGS)
    memo = QuickMemo()
    assert quick_analyze("m.mlir", text, chosen, memo) == quick_from_scratch(text, chosen)
    undo: list[TextChange] = []
    reused = 0
    for _ in range(versions):
        before = text
        changes = []
        for _ in range(choose.pick([1, 1, 1, 2, 3])):
            text, change = random_change(choose, text, undo)
            changes.append(change)
            undo.append(change)
        whole = choose.number(0, 15) == 0
        memo.record(before, text, None if whole else changes, 0)
        if choose.number(0, 5) == 0:
            continue  # a version whose quick run was cancelled
        if choose.number(0, 10) == 0:
            chosen = choose.pick(SETTINGS)
        expected = quick_from_scratch(text, chosen)
        reused += memo.recall("m.mlir", text, chosen) is not None
        assert quick_analyze("m.mlir", text, chosen, memo) == expected
        if expected is None and choose.number(0, 2) == 0:
            text, undo = choose.pick(TEXTS), []  # start again (sent whole)
    return reused


def quick_from_scratch(text: str, chosen: Settings) -> object:
    return quick_analyze("m.mlir", text, chosen)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_reused_quick_answer_equals_the_one_from_scratch(data: st.DataObject) -> None:
    edit_session(Drawn(data), data.draw(st.integers(1, 20)))


@pytest.mark.parametrize("seed", range(8))
def test_long_edit_sessions(seed: int) -> None:
    reused = sum(edit_session(Seeded(seed * 100 + run), 40) for run in range(12))
    assert reused >= 40


@pytest.mark.parametrize("seed", range(4))
def test_most_edits_reuse_the_answer(seed: int) -> None:
    """Typing in @main's body, away from what the answer reads, reuses it (and still equals
    the answer from scratch)."""
    rng = random.Random(seed)
    text = mlir_module(6, generic=seed % 2 == 1)
    memo = QuickMemo()
    quick_analyze("m.mlir", text, None, memo)
    reused = 0
    for version in range(40):
        rows = text.split("\n")
        line = rng.randrange(3, len(rows) - 6)
        start, end = line_offsets(text, line)
        at = rng.randrange(start, end + 1)
        before = text
        text, change = apply(text, at, at, rng.choice([" ", "x", "\n", "%9", "\n    "]))
        memo.record(before, text, [change], 0)
        reused += memo.recall("m.mlir", text, Settings()) is not None
        assert quick_analyze("m.mlir", text, None, memo) == quick_analyze("m.mlir", text), version
    assert reused >= 30


def test_a_change_moves_the_findings_below_it() -> None:
    text = mlir_module(2)
    memo = QuickMemo()
    first = quick_analyze("m.mlir", text, None, memo)
    assert first is not None and [f.code for f in first] == ["TL001", "TL002"]
    at = text.index("    %3 = ")
    changed, change = apply(text, at, at, "    %extra = stablehlo.abs %arg0 : tensor<4xf32>\n")
    memo.record(text, changed, [change], 0)
    kept = memo.recall("m.mlir", changed, Settings())
    assert kept is not None
    again = quick_analyze("m.mlir", changed, None, memo)
    assert again is not None
    assert [f.range.start.line for f in again] == [f.range.start.line + 1 for f in first]
    assert again == quick_analyze("m.mlir", changed)


def test_changes_that_skip_a_version_still_lead_to_the_text() -> None:
    """Quick runs of versions superseded before they ran are skipped: the next run goes from
    the last answer through every recorded change."""
    text = mlir_module(2)
    memo = QuickMemo()
    quick_analyze("m.mlir", text, None, memo)
    for _ in range(3):
        at = text.index("    %5 = ")
        before = text
        text, change = apply(text, at, at, "    %extra = stablehlo.abs %arg0 : tensor<4xf32>\n")
        memo.record(before, text, [change], 0)
    assert memo.recall("m.mlir", text, Settings()) is not None
    assert quick_analyze("m.mlir", text, None, memo) == quick_analyze("m.mlir", text)


def test_a_text_replaced_whole_is_answered_from_scratch() -> None:
    text = mlir_module(2)
    memo = QuickMemo()
    quick_analyze("m.mlir", text, None, memo)
    replaced = text.replace("%arg1, %cst_out", "%arg2, %cst_out")
    memo.record(text, replaced, None, 0)
    assert memo.recall("m.mlir", replaced, Settings()) is None
    assert quick_analyze("m.mlir", replaced, None, memo) == quick_analyze("m.mlir", replaced)


def test_replace_span_describes_whole_lines() -> None:
    text = "a\nbc\nde\nf"
    changed, change = apply(text, 3, 6, "X\nY")
    assert changed == "a\nbX\nYe\nf"
    assert change == TextChange(1, 2, "bc\nde", "bX\nYe")
    assert (change.end, change.last_line, change.line_delta, change.delta) == (7, 2, 0, 0)
    changed, change = apply("abc", 3, 3, "\n")
    assert (changed, change) == ("abc\n", TextChange(0, 0, "abc", "abc\n"))


@pytest.mark.parametrize("op", ["t.abs", "mhlo.negate", "mhlo.copy", " mhlo.abs"])
def test_replacing_the_only_op_of_a_dialect(op: str) -> None:
    """The variant follows the dialects: replacing the one op that made the module MHLO is
    seen, whether the change brings another op of it or not."""
    text = (
        "func.func @main(%arg0: tensor<0xf32>) -> tensor<0xf32> {\n"
        '  %0 = "t.op"() : () -> tensor<0xf32>\n'
        "  %1 = mhlo.abs %0 : tensor<0xf32>\n"
        '  %2 = "t.op"(%1) : (tensor<0xf32>) -> tensor<0xf32>\n'
        '  %3 = "t.op"(%2) : (tensor<0xf32>) -> tensor<0xf32>\n'
        "  return %arg0 : tensor<0xf32>\n"
        "}\n"
    )
    memo = QuickMemo()
    first = quick_analyze("m.mlir", text, None, memo)
    at = text.index("mhlo.abs")
    changed, change = apply(text, at, at + len("mhlo.abs"), op)
    memo.record(text, changed, [change], 0)
    assert (memo.recall("m.mlir", changed, Settings()) is not None) == (op == "mhlo.negate")
    again = quick_analyze("m.mlir", changed, None, memo)
    assert again == quick_analyze("m.mlir", changed)
    assert first is not None and again is not None
    assert (again[0].message == first[0].message) == (op == "mhlo.negate")  # `=  mhlo.` is none
