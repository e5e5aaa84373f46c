"""Issue 14, point 4: a large constant is a span of the text, never a token or an object
per element (the memory rows of bench/run.py measure the peak RSS on 8 MB and 4 MB)."""

from __future__ import annotations

from mlir_testing import lc

from passlint import pipeline
from passlint.analysis.mlir.fast.lines import shape_of
from passlint.analysis.mlir.lexer import tokenize
from passlint.analysis.mlir.parser import parse_file


def module(value: str, count: int) -> str:
    t = f"tensor<{count}xf32>"
    return (
        f"func.func @main(%arg0: {t}) -> ({t}, {t}) {{\n"
        f"  %cst = stablehlo.constant dense<{value}> : {t}\n"
        f"  %0 = stablehlo.add %arg0, %cst : {t}\n"
        f"  return %0, %cst : {t}, {t}\n}}\n"
    )


def test_a_long_element_list_is_one_token() -> None:
    values = ", ".join(f"{i}.5" for i in range(10_000))
    text = module(f"[{values}]", 10_000)
    line = text.split("\n")[1]
    kinds = [tok.kind for tok in tokenize(line)]
    assert kinds.count("ELEMENTS") == 1 and len(kinds) < 20
    assert parse_file(text).errors == []
    assert [f.code for f in pipeline.analyze("c.mlir", text)] == ["TL002"]


def test_a_splat_list_of_any_length_is_a_splat() -> None:
    text = module("[" + ", ".join(["2.5"] * 10_000) + "]", 10_000)
    assert [f.code for f in pipeline.analyze("c.mlir", text)] == ["TL007"]
    hexed = module('"0x' + "0000203F" * 10_000 + '"', 10_000)
    assert [f.code for f in pipeline.analyze("c.mlir", hexed)] == ["TL007"]


def test_a_malformed_long_list_is_read_token_by_token_and_reported_in_place() -> None:
    values = [f"{i}.5" for i in range(1_000)]
    values[500] = "500.5 501.5"
    text = module("[" + ", ".join(values) + "]", 1_001)
    (error,) = parse_file(text).errors
    assert error.message.startswith("Expected ']', not '501.5'")
    line, column = lc(text, error.start)
    assert line == 2 and text.split("\n")[1][column - 1 :].startswith("501.5")


def test_a_long_line_is_shaped_from_its_ends_and_not_cached() -> None:
    key = "%v = stablehlo.constant dense<[" + "1.1, " * 5_000 + "1.1]> : tensor<1xf32>"
    shape = shape_of(key)
    assert (shape.start, shape.end, shape.template) == ("always", "op", None)
    assert shape_of(key) is not shape  # not kept: a megabyte key would stay in memory
