"""The quick answer from @main's outline equals the full check, or declines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.mlir.argument_lists import LONG_ARGUMENTS
from passlint.quick import quick_analyze

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module

DATA = Path(__file__).parent.parent / "data" / "mlir"
DECLINED = {
    "handmade__mhlo_fusion_hybrid.mlir",  # its kLoop fusion output is defined with a region
    "jax__cond.mlir",  # the returned value is defined by an op with regions
    "jax__while_fori_loop.mlir",
}


def tl(findings: list) -> list:  # type: ignore[type-arg]
    return [f for f in findings if f.code.startswith("TL")]


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.mlir")))
def test_quick_answer_matches_the_full_check(name: str) -> None:
    text = (DATA / name).read_text()
    quick = quick_analyze(name, text)
    if name in DECLINED:
        assert quick is None
    else:
        assert quick == tl(pipeline.analyze(name, text))


GENERIC = DATA / "generic"  # the samples as jaxlib prints them in generic form
GENERIC_DECLINED = DECLINED | {"jax__reduce_argmax.mlir"}  # an output defined with a region


@pytest.mark.parametrize("name", sorted(p.name for p in GENERIC.glob("*.mlir")))
def test_quick_answer_in_generic_form(name: str) -> None:
    """@main printed generically (`"func.func"() <{...}> ({ ^bb0(...): ... }) : () -> ()`) is
    outlined too, with the same findings as the sample in its pretty form."""
    text = (GENERIC / name).read_text()
    quick = quick_analyze(name, text)
    full = tl(pipeline.analyze(name, text))
    assert [f.code for f in full] == [
        f.code for f in tl(pipeline.analyze(name, (DATA / name).read_text()))
    ]
    if name in GENERIC_DECLINED:
        assert quick is None
    else:
        assert quick == full


def test_generic_output_names_on_the_closing_line() -> None:
    """The generic form writes `output_names` after @main's region: the quick answer reads it
    there, at its place in the text."""
    text = (GENERIC / "jax__return_input_and_compute.mlir").read_text()
    text = text.replace("  }) : () -> ()", '  }) {output_names = ["only"]} : () -> ()', 1)
    quick = quick_analyze("g.mlir", text)
    full = tl(pipeline.analyze("g.mlir", text))
    assert quick is not None and quick == full
    tl004 = next(f for f in quick if f.code == "TL004")
    line = text.split("\n")[tl004.range.start.line]
    assert line[tl004.range.start.column : tl004.range.end.column] == '["only"]'
    assert "'only'" in next(f for f in quick if f.code == "TL001").message


@pytest.mark.parametrize("generic", [False, True])
def test_quick_answer_on_a_generated_dump(generic: bool) -> None:
    text = mlir_module(40, generic)
    quick = quick_analyze("g.mlir", text)
    assert quick is not None
    assert [f.code for f in quick] == ["TL001", "TL002"]
    assert quick == tl(pipeline.analyze("g.mlir", text))


@pytest.mark.parametrize("generic", [False, True])
def test_a_long_argument_list_is_read_for_the_returned_arguments(generic: bool) -> None:
    """A model's weights are @main's arguments: past ``LONG_ARGUMENTS`` characters of them,
    the header is read for the arguments the return names (the rest blanked, same offsets),
    and the answer is the full check's; a list with attributes is read whole."""
    text = mlir_module(900, generic)  # 2,700 arguments
    assert text.index(")", text.index("(%arg0")) - text.index("(%arg0") > LONG_ARGUMENTS
    quick = quick_analyze("g.mlir", text)
    assert quick is not None and [f.code for f in quick] == ["TL001", "TL002"]
    assert quick == tl(pipeline.analyze("g.mlir", text))
    returning = text.replace("%arg1, %cst_out", "%arg2699, %cst_out")
    assert returning != text
    quick = quick_analyze("g.mlir", returning)
    assert quick is not None and quick == tl(pipeline.analyze("g.mlir", returning))
    assert "`%arg2699`" in quick[0].message
    if not generic:
        attributes = text.replace(
            "%arg5: tensor<256x256xf32>", '%arg5: tensor<256x256xf32> {a = "b"}'
        )
        quick = quick_analyze("g.mlir", attributes)
        assert quick is not None and quick == tl(pipeline.analyze("g.mlir", attributes))


def test_copy_names_avoid_names_used_in_main() -> None:
    text = (
        "func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
        "  %output0_copy = stablehlo.abs %arg0 : tensor<4xf32>\n"
        "  return %arg0, %output0_copy : tensor<4xf32>, tensor<4xf32>\n"
        "}\n"
    )
    quick = quick_analyze("a.mlir", text)
    assert quick is not None and quick == tl(pipeline.analyze("a.mlir", text))
    assert quick[0].fix is not None
    assert quick[0].fix.edits[1].new_text == "%output0_copy_1"


@pytest.mark.parametrize(
    "text",
    [
        "func.func @lib() {\n  return\n}\n",  # no main
        "func.func @main() {\n  return\n}\n// -----\nfunc.func @main() {\n  return\n}\n",
        'func.func @main() -> tensor<4xf32> {\n  %0 = "t.op"() ({\n  }) : () -> tensor<4xf32>\n'
        "  return %0 : tensor<4xf32>\n}\n",
        "func.func @main() -> tensor<4xf32> {\n  %0 = t.op\n    : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n",
    ],
    ids=["no-main", "split", "region-def", "multi-line-def"],
)
def test_quick_answer_declines_what_it_cannot_settle(text: str) -> None:
    assert quick_analyze("a.mlir", text) is None


def test_not_for_other_languages() -> None:
    assert quick_analyze("a.py", "import pypto.language as pl\n") is None
