"""statement_memo: a statement repeated verbatim gets its IR relocated from its kept copy,
and that IR is the one scanning, parsing and building the copy gives.

A copy is kept when its chunk is built, after the chunk is scanned: the copies here that
are relocated stand in a later chunk than the two before them."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from ir_dump import dump, recut_mismatches

from passlint.analysis.mlir import validate
from passlint.analysis.mlir.fast import statement_memo
from passlint.analysis.mlir.ir import Operation
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.mlir.structure import MAX_REGION_DEPTH, MemoStatement

SPLIT = "// -----\n"
FUNCTION = """func.func @f(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<2xf32>
  %1 = "stablehlo.reduce"(%0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  cf.br ^bb1(%1 : tensor<2xf32>)
^bb1(%3: tensor<2xf32>):
  return %3 : tensor<2xf32>
}
"""


@pytest.fixture
def memo() -> MlirMemo:
    return MlirMemo()


@pytest.fixture
def relocations(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The (name, start) of each op the builder relocates from a kept copy."""
    seen: list[tuple[str, int]] = []

    real = MlirMemo.relocated

    def spy(self: MlirMemo, statement: MemoStatement, text: str) -> Operation:
        seen.append((statement.entry.row[0], statement.start))
        return real(self, statement, text)

    monkeypatch.setattr(MlirMemo, "relocated", spy)
    return seen


def same_as_fresh(text: str, memo: MlirMemo) -> None:
    """The IR of ``text`` with the memo warm is that of the token path with none."""
    warm = dump(parse_file(text, memo))
    assert warm == dump(parse_file(text))
    assert recut_mismatches(text) == []


def test_the_third_copy_is_relocated(relocations: list[tuple[str, int]], memo: MlirMemo) -> None:
    text = FUNCTION + "\n" + FUNCTION + SPLIT + "// CHECK: x\n\n" + FUNCTION
    third = text.rindex("func.func")
    parsed = parse_file(text, memo)
    assert parsed.errors == []
    assert relocations == [("func.func", third)]
    assert memo.kept.get(FUNCTION.rstrip("\n")) is not None
    same_as_fresh(text, memo)


def test_copies_at_other_indentations_and_places(
    relocations: list[tuple[str, int]], memo: MlirMemo
) -> None:
    """The function indented in a module is another text; the last chunk's module and
    function are third copies, each taken whole."""
    inner = "".join("  " + line + "\n" for line in FUNCTION.splitlines())
    module = "module {\n" + inner + "}\n"
    text = "\n// -----\n".join([FUNCTION, module, FUNCTION + FUNCTION, module, module + FUNCTION])
    assert parse_file(text, memo).errors == []
    last = text.rindex("module {")
    assert relocations == [
        ("module", last),
        ("func.func", text.index("func.func", last + len(module))),
    ]
    same_as_fresh(text, memo)


def test_a_copy_with_an_error_is_never_kept(
    relocations: list[tuple[str, int]], memo: MlirMemo
) -> None:
    broken = FUNCTION.replace("%arg0, %arg1 :", "%arg0, :")
    text = broken * 2 + SPLIT + broken
    errors = parse_file(text, memo).errors
    assert len(errors) == 3 and errors[0].message.startswith("Expected SSA operand")
    assert relocations == []
    assert memo.kept.kept == {}
    same_as_fresh(text, memo)


def test_a_copy_the_next_line_continues_is_scanned(
    relocations: list[tuple[str, int]], memo: MlirMemo
) -> None:
    """A trailing location on the line after the ``}`` belongs to the statement."""
    text = FUNCTION * 2 + SPLIT + FUNCTION + 'loc("x.py":1:2)\n' + SPLIT + FUNCTION
    parsed = parse_file(text, memo)
    assert parsed.errors == []
    (third,) = parsed.chunks[1].operations
    assert text[third.span[0] : third.span[1]].endswith('loc("x.py":1:2)')
    assert relocations == [("func.func", text.rindex("func.func"))]
    same_as_fresh(text, memo)


def test_a_copy_nested_too_deep_is_scanned(
    relocations: list[tuple[str, int]], memo: MlirMemo
) -> None:
    """A kept statement nesting regions to the limit, copied verbatim one region deeper (its
    indentation says nothing), reports the nesting as its scan does."""
    depth = MAX_REGION_DEPTH - 1  # the function's region and the ops' regions within it
    lines = ["  func.func @deep() {"]
    lines += [f"{' ' * (i + 3)}a.b {{" for i in range(depth)]
    lines += [f"{' ' * (depth + 3)}return"]
    lines += [f"{' ' * (i + 3)}}}" for i in reversed(range(depth))]
    lines += ["  }"]
    deep = "\n".join(lines) + "\n"
    text = deep * 2 + SPLIT + deep + SPLIT + "module {\n" + deep + "}\n"
    errors = parse_file(text, memo).errors
    assert [error.message.split(":")[0] for error in errors] == ["Nesting too deep"]
    assert relocations == [("func.func", text.index("func", len(deep * 2)))]  # not the deeper
    same_as_fresh(text, memo)


def test_a_header_without_its_closing_line_is_scanned(memo: MlirMemo) -> None:
    """An unclosed copy, and one whose ``}`` carries more text, are not candidates."""
    text = FUNCTION * 2 + SPLIT + FUNCTION.rstrip("\n") + " loc(unknown)\n" + SPLIT
    text += FUNCTION[:-3]
    errors = parse_file(text, memo).errors
    assert [error.message.split(";")[0] for error in errors] == [
        "Expected '}' to close the region opened here"
    ]
    same_as_fresh(text, memo)


def test_relocated_ir_is_the_ir_shifted(memo: MlirMemo) -> None:
    (op,) = parse_file(FUNCTION, memo).chunks[0].operations
    statement_memo.keep(memo.kept, FUNCTION, op, 0)
    entry = memo.kept.get(FUNCTION)
    assert entry is not None and entry.depth == 2  # (the function's body, the reduce's)
    moved = statement_memo.relocated(entry.row, 7, " " * 7 + FUNCTION)
    assert moved.span == (op.span[0] + 7, op.span[1] + 7)
    ops, copies = op.walk(), moved.walk()
    assert [o.name for o in ops] == [c.name for c in copies]
    for original, copy in zip(ops, copies, strict=True):
        assert [r.start + 7 for r in original.results] == [r.start for r in copy.results]
        assert [u.start + 7 for u in original.operands] == [u.start for u in copy.operands]
        assert all(use.value is None for use in copy.operands)  # resolved by the parser
        if original.tokens is not None:
            assert copy.tokens == [(k, s + 7, e + 7) for k, s, e in original.tokens]
    assert moved.parent is None and moved.parent_op is None


def test_validation_of_copies(monkeypatch: pytest.MonkeyPatch, memo: MlirMemo) -> None:
    """A kept function whose copy validated clean is not validated again; one with an
    undeclared use (which scans and builds without an error, so it is kept) reports it in
    every copy."""
    undeclared = FUNCTION.replace("@f(", "@g(").replace("%arg0, %arg1 :", "%arg0, %nope :")
    text = (FUNCTION + undeclared) * 2 + SPLIT + FUNCTION + undeclared + SPLIT
    text += FUNCTION + undeclared
    checked: list[int] = []
    scope = validate._Checker.scope

    def counting(
        self: validate._Checker, operations: list[Operation], *args: Any, **kwargs: Any
    ) -> None:
        checked.append(len(operations))
        scope(self, operations, *args, **kwargs)

    monkeypatch.setattr(validate._Checker, "scope", counting)
    errors = parse_file(text, memo).errors
    assert [(text[e.start : e.end], e.code) for e in errors] == [("%nope", "E003")] * 4
    # The ops checked per scope: each chunk's top level, each function's body and its
    # reduce body. @f's copy is checked in the second chunk (its first relocation) and found
    # clean, so not in the third; @g is checked in each.
    chunks = [[4, 4, 2, 4, 2, 4, 2, 4, 2], [2, 4, 2, 4, 2], [2, 4, 2]]
    assert checked == [count for chunk in chunks for count in chunk]
    same_as_fresh(text, memo)


def test_dropped_copies_leave_no_cyclic_garbage(
    monkeypatch: pytest.MonkeyPatch, memo: MlirMemo
) -> None:
    """A kept copy is acyclic rows (an IR holds cycles): dropped past the bound, it is freed
    by reference counting, as it must be where a batch run freezes what each file leaves."""
    memo.kept.limit = len(FUNCTION)  # one copy at most
    other = FUNCTION.replace("@f(", "@h(")
    text = (FUNCTION * 2 + other * 2 + SPLIT) * 2
    gc.collect()
    gc.disable()
    try:
        parsed = parse_file(text, memo)
        assert len(memo.kept.kept) == 1  # (@f and @h were kept in turn)
        parsed.release()
        del parsed
        memo.clear()
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_copy_dropped_while_its_chunk_is_built(
    monkeypatch: pytest.MonkeyPatch, memo: MlirMemo
) -> None:
    """A chunk's scan takes two copies of @f from its kept copy; building the chunk keeps
    @g's, which drops @f's (one copy at most): the second copy of @f is still whole."""
    memo.kept.limit = len(FUNCTION)
    other = FUNCTION.replace("@f(", "@g(")
    parse_file(FUNCTION * 2 + other, memo)  # (keeps @f's copy: the chunk below takes it)
    warm = dump(parse_file(FUNCTION + other + FUNCTION, memo))
    assert warm == dump(parse_file(FUNCTION + other + FUNCTION))
