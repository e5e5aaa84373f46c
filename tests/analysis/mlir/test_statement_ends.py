"""Issue 14, point 1: a statement ends where its syntax ends, never at a line break. Each
shape below is accepted by MLIR's own parser (jaxlib's, checked by bench/mlir_agreement.py)
and must give exactly the findings MLIR's semantics say."""

from __future__ import annotations

from mlir_testing import lc, op_named, ops

from passlint import pipeline
from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.mlir.parser import parse_file


def findings(text: str) -> list[tuple[str, tuple[int, int], str]]:
    return [
        (f.code, (f.range.start.line + 1, f.range.start.column + 1), f.message.split(";")[0])
        for f in pipeline.analyze("t.mlir", text)
    ]


def fixed(text: str) -> str:
    fixes = [f.fix for f in pipeline.analyze("t.mlir", text) if f.fix is not None]
    return apply_edits(text, edits_by_path(fixes).get("t.mlir", []))


DYNAMIC_PAD = """\
func.func @dynamic_pad(
  %static_arg: tensor<4xf64>, %dynamic_arg: tensor<?xf64>,
  %padding_value: tensor<f64>, %unknown_padding: tensor<1xi32>
) {
  %constant_padding = stablehlo.constant dense<0> : tensor<1xi32>
  %0 = stablehlo.dynamic_pad %static_arg, %padding_value,
         %constant_padding, %constant_padding, %constant_padding
         : (tensor<4xf64>, tensor<f64>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xf64>
  "hlo_test_speculatability.is_speculatable"(%0) : (tensor<4xf64>) -> ()
  return
}
"""


def test_operands_and_type_on_following_lines() -> None:
    parsed = parse_file(DYNAMIC_PAD)
    assert parsed.errors == []
    pad = op_named(parsed, "stablehlo.dynamic_pad")
    assert [use.name for use in pad.operands] == [
        "%static_arg",
        "%padding_value",
        "%constant_padding",
        "%constant_padding",
        "%constant_padding",
    ]
    assert all(use.value is not None for use in pad.operands)
    assert pad.signature_types()[1][0].text == "tensor<4xf64>"
    assert [op.name for op in ops(parsed)] == [
        "func.func",
        "stablehlo.constant",
        "stablehlo.dynamic_pad",
        "hlo_test_speculatability.is_speculatable",
        "return",
    ]


def test_return_list_continues_on_the_next_line() -> None:
    text = (
        "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
        "  return %a,\n"
        "         %b : tensor<4xf32>, tensor<4xf32>\n"
        "}\n"
    )
    assert [(code, at) for code, at, _ in findings(text)] == [
        ("TL001", (2, 10)),
        ("TL001", (3, 10)),
    ]


def test_function_body_on_one_line() -> None:
    text = (
        "func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) "
        "{ %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> "
        "return %c, %arg0 : tensor<4xf32>, tensor<4xf32> }\n"
    )
    parsed = parse_file(text)
    assert parsed.errors == []
    assert [op.name for op in ops(parsed)] == ["func.func", "stablehlo.constant", "return"]
    assert findings(text) == [
        ("TL002", (1, 150), "Output 0 ('output0') returns constant `%c`"),
        ("TL001", (1, 154), "Output 1 ('output1') returns input `%arg0`"),
    ]
    after = fixed(text)
    assert parse_file(after).errors == [] and findings(after) == []


def test_several_ops_on_one_line_pretty_and_generic() -> None:
    text = (
        "func.func @f(%a: f32) -> f32 {\n"
        '  %0 = "x.a"(%a) : (f32) -> f32 %1 = x.b %0 : f32 "x.c"(%1) : (f32) -> () return %1 : f32\n'
        "}\n"
    )
    parsed = parse_file(text)
    assert parsed.errors == []
    assert [op.name for op in ops(parsed)] == ["func.func", "x.a", "x.b", "x.c", "return"]
    assert op_named(parsed, "return").operands[0].value is op_named(parsed, "x.b").results[0]


def test_op_over_many_lines_with_location_attributes_and_regions() -> None:
    text = (
        "%x, %c = x.inputs : tensor<4x4xf32>, tensor<f32>\n"
        "%0 = stablehlo.reduce(%x\n"
        "  init:\n"
        "  %c)\n"
        "  applies\n"
        "  stablehlo.add\n"
        "  across dimensions = [1]\n"
        "  : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>\n"
        "  loc(#loc1)\n"
        "func.func @g()\n"
        "    attributes\n"
        "    {a = 1 : i32}\n"
        "{\n"
        "  return\n"
        "}\n"
        "#loc1 = loc(unknown)\n"
    )
    parsed = parse_file(text)
    assert [e.message for e in parsed.errors] == []
    top = parsed.chunks[0].operations
    assert [op.name for op in top] == ["x.inputs", "stablehlo.reduce", "func.func"]
    assert lc(text, top[1].span[1]) == (9, 13)
    assert [use.name for use in top[1].operands] == ["%x", "%c"]
    assert top[2].attribute("a") is not None and len(top[2].regions) == 1


def test_unknown_dialect_custom_form_over_lines() -> None:
    text = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = chlo.broadcast_add %a,\n"
        "    %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
        "  check.expect_eq %0,\n"
        "    %a : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n"
    )
    parsed = parse_file(text)
    assert parsed.errors == []
    assert [op.name for op in ops(parsed)] == [
        "func.func",
        "chlo.broadcast_add",
        "check.expect_eq",
        "return",
    ]
    assert len(op_named(parsed, "check.expect_eq").operands) == 2
