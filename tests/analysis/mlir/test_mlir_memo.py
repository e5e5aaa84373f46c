"""MlirMemo: what a parse and @main's outline keep in it, the same IR with it and without
it (the reference path), and one ``clear`` that forgets all of it."""

from __future__ import annotations

from ir_dump import dump

from passlint.analysis.mlir.fast.main_outline import outline_main
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file

FUNCTION = """func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>
  %1 = "stablehlo.abs"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
"""
MAIN = FUNCTION.replace("@f(", "@main(")


def _sizes(memo: MlirMemo) -> dict[str, int]:
    return {
        "trees": len(memo.trees),
        "templates": len(memo.templates),
        "by_classes": len(memo.by_classes),
        "by_text": len(memo.by_text.kept) + len(memo.by_text.seen),
        "shapes": len(memo.shapes),
        "cut_lines": len(memo.cut_lines.kept) + len(memo.cut_lines.seen),
        "kept": len(memo.kept.kept) + len(memo.kept.seen),
        "counts": len(memo.counts),
        "headers": len(memo.headers),
    }


def test_a_parse_and_an_outline_fill_the_memo_and_clear_empties_it() -> None:
    memo = MlirMemo()
    text = FUNCTION * 3 + MAIN
    assert dump(parse_file(text, memo)) == dump(parse_file(text))
    assert outline_main(MAIN, memo) is not None
    assert all(_sizes(memo).values()), _sizes(memo)
    memo.clear()
    assert not any(_sizes(memo).values())
    assert memo.by_text.held == memo.cut_lines.held == memo.kept.held == 0


def test_without_a_memo_nothing_is_kept_anywhere() -> None:
    """A parse and an outline without a memo leave a memo made before them empty."""
    memo = MlirMemo()
    parse_file(FUNCTION * 3)
    outline_main(MAIN)
    assert not any(_sizes(memo).values())


def test_the_generic_outline_is_kept_by_its_header() -> None:
    generic = """"func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, \
sym_name = "main"}> ({
^bb0(%arg0: tensor<2xf32>):
  %0 = "stablehlo.abs"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  "func.return"(%0) : (tensor<2xf32>) -> ()
}) : () -> ()
"""
    memo = MlirMemo()
    warm = outline_main(generic, memo)
    assert warm is not None and len(memo.generics) == 1
    fresh = outline_main(generic)
    assert fresh is not None and warm.dialects == fresh.dialects
    memo.clear()
    assert memo.generics == {}
