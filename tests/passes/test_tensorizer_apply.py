"""TensorizerLegalization apply mode: exact legalized text for every stage, in both forms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from passlint.passes.tensorizer_legalization.apply import legalize_text, symbol_ref

DATA = Path(__file__).parent.parent / "data"


def test_hybrid_fixture_is_pinned() -> None:
    source = (DATA / "mlir" / "handmade__mhlo_fusion_hybrid.mlir").read_text()
    expected = (DATA / "tl" / "handmade__mhlo_fusion_hybrid.legalized.mlir").read_text()
    assert legalize_text(source) == expected


def test_cli_prints_the_legalized_module() -> None:
    path = DATA / "mlir" / "handmade__mhlo_fusion_hybrid.mlir"
    result = subprocess.run(
        [sys.executable, "-m", "passlint", "legalize", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert (
        result.stdout == (DATA / "tl" / "handmade__mhlo_fusion_hybrid.legalized.mlir").read_text()
    )


def test_stage_a_rewrites_splats_keeping_the_name_and_location() -> None:
    text = """\
func.func @main() -> (tensor<4x4xf32>, tensor<f32>, tensor<2xf32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<4x4xf32> loc(#loc1)
  %s = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %0 = stablehlo.add %s, %s : tensor<f32>
  %two = stablehlo.constant dense<[2.0, 2.000000e+00]> : tensor<2xf32>
  return %cst, %0, %two : tensor<4x4xf32>, tensor<f32>, tensor<2xf32>
}
"""
    # Rank 0 and an all-equal list are splats too (isSplat()): one scalar value each.
    assert (
        legalize_text(text)
        == """\
func.func @main() -> (tensor<4x4xf32>, tensor<f32>, tensor<2xf32>) {
  %cst_scalar = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc1)
  %cst = stablehlo.broadcast_in_dim %cst_scalar, dims = [] {neuron.symName = [@output0]} : (tensor<f32>) -> tensor<4x4xf32> loc(#loc1)
  %s_scalar = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %s = stablehlo.broadcast_in_dim %s_scalar, dims = [] : (tensor<f32>) -> tensor<f32>
  %0 = stablehlo.add %s, %s {neuron.symName = [@output1]} : tensor<f32>
  %two_scalar = stablehlo.constant dense<2.0> : tensor<f32>
  %two = stablehlo.broadcast_in_dim %two_scalar, dims = [] {neuron.symName = [@output2]} : (tensor<f32>) -> tensor<2xf32>
  return %cst, %0, %two : tensor<4x4xf32>, tensor<f32>, tensor<2xf32>
}
"""
    )


def test_stage_b_and_copies_in_stablehlo() -> None:
    text = """\
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<4xf32>) -> (tensor<0x4xf32>, tensor<2x0xf32>, tensor<4xf32>) {
  %0 = stablehlo.iota dim = 0 : tensor<2x0xf32>
  return %arg0, %0, %arg1 : tensor<0x4xf32>, tensor<2x0xf32>, tensor<4xf32>
}
"""
    assert (
        legalize_text(text)
        == """\
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<4xf32>) -> (tensor<0x4xf32>, tensor<2x0xf32>, tensor<4xf32>) {
  %0 = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "2x0", neuron.symName = [@output1]} : () -> tensor<2x0xf32>
  %output0_zero = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "0x4", neuron.symName = [@output0]} : () -> tensor<0x4xf32>
  %output2_copy = mhlo.copy %arg1 {neuron.actual_shape = "4", neuron.symName = [@output2]} : tensor<4xf32>
  return %output0_zero, %0, %output2_copy : tensor<0x4xf32>, tensor<2x0xf32>, tensor<4xf32>
}
"""
    )


def test_mhlo_copies_have_no_actual_shape_and_zero_inputs_stay() -> None:
    text = """\
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<4xf32>) -> (tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %cst = mhlo.constant dense<1.000000e+00> : tensor<4xf32>
  return %arg0, %arg1, %cst : tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    assert (
        legalize_text(text)
        == """\
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<4xf32>) -> (tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %cst = mhlo.constant dense<1.000000e+00> : tensor<4xf32>
  %output1_copy = mhlo.copy %arg1 {neuron.symName = [@output1]} : tensor<4xf32>
  %output2_copy = mhlo.copy %cst {neuron.symName = [@output2]} : tensor<4xf32>
  return %arg0, %output1_copy, %output2_copy : tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    )


def test_copy_skips_actual_shape_when_the_source_op_has_one() -> None:
    text = """\
func.func @main() -> tensor<2xf32> {
  %cst = stablehlo.constant {neuron.actual_shape = "2"} dense<[1.0, 2.0]> : tensor<2xf32>
  return %cst : tensor<2xf32>
}
"""
    out = legalize_text(text)
    assert "%output0_copy = mhlo.copy %cst {neuron.symName = [@output0]} : tensor<2xf32>" in out


def test_multi_result_names_accumulate_in_result_order() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {output_names = ["b", "a"]} {
  %0:3 = "test.triple"(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %0#2, %0#0 : tensor<4xf32>, tensor<4xf32>
}
"""
    out = legalize_text(text)
    assert '%0:3 = "test.triple"(%arg0) {neuron.symName = [@a, @"", @b]} : (tensor<4xf32>)' in out


def test_existing_sym_name_is_extended_not_reset() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = "test.pair"(%arg0) {neuron.symName = [@keep, @""]} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#1 : tensor<4xf32>
}
"""
    out = legalize_text(text)
    assert "{neuron.symName = [@keep, @output0]}" in out


def test_generic_file_gets_generic_ops() -> None:
    text = """\
"func.func"() <{function_type = () -> tensor<4xf32>, sym_name = "main"}> ({
  %0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
  %1 = "stablehlo.constant"() <{value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  "func.return"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> ()
}) : () -> ()
"""
    out = legalize_text(text)
    assert (
        '%scalar_0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>'
        in out
    )
    assert (
        '%0 = "stablehlo.broadcast_in_dim"(%scalar_0) <{broadcast_dimensions = array<i64>}> {neuron.symName = [@output0]} : (tensor<f32>) -> tensor<4xf32>'
        in out
    )
    assert (
        '%output1_copy = "mhlo.copy"(%1) {neuron.actual_shape = "4", neuron.symName = [@output1]} : (tensor<4xf32>) -> tensor<4xf32>'
        in out
    )
    assert '"func.return"(%0, %output1_copy)' in out


def test_symbol_refs_are_quoted_when_needed() -> None:
    assert symbol_ref("out") == "@out"
    assert symbol_ref("result[0]") == '@"result[0]"'
    assert symbol_ref("") == '@""'


def test_no_main_leaves_the_text_unchanged() -> None:
    text = "func.func @lib(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
    assert legalize_text(text) == text
