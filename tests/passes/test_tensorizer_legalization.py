"""TensorizerLegalization dry run: every case of the case table (``cases.py``), every TL rule, exact fixes."""

from __future__ import annotations

from pathlib import Path

import pytest
from tl_helpers import check, codes, fix_all, fix_one, span_text

from passlint.analysis.findings import Severity
from passlint.analysis.mlir.parser import parse_file
from passlint.passes.tensorizer_legalization.analysis import analyze_chunk
from passlint.passes.tensorizer_legalization.outputs import variant_of

DATA_MLIR = Path(__file__).parent.parent / "data" / "mlir"

INPUT = """\
module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
"""


def test_returned_input_is_tl001_with_exact_range_message_and_related() -> None:
    [finding] = check(INPUT)
    assert finding.code == "TL001"
    assert finding.severity == Severity.WARNING
    assert (finding.range.start.line, finding.range.start.column) == (2, 11)
    assert span_text(INPUT, finding) == "%arg0"
    assert finding.message == (
        "Output 0 ('output0') returns input `%arg0`; copy it before the return. The tensorizer "
        "needs a distinct, writable buffer per output, so TensorizerLegalization inserts an "
        "identity `mhlo.copy` named 'output0'."
    )
    [related] = finding.related
    assert (related.range.start.line, related.range.start.column) == (1, 18)
    assert related.message == "input %arg0 is defined here"


def test_tl001_fix_inserts_one_copy_line_and_replaces_only_that_operand() -> None:
    [finding] = check(INPUT)
    assert finding.fix is not None
    assert finding.fix.title == "Copy %arg0 into %output0_copy for output 0 ('output0')"
    assert (
        fix_one(INPUT, finding)
        == """\
module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>
    return %output0_copy : tensor<4xf32>
  }
}
"""
    )


def test_fix_is_idempotent_and_clears_the_diagnostic() -> None:
    fixed = fix_all(INPUT)
    assert codes(fixed) == []
    assert fix_all(fixed) == fixed
    assert parse_file(fixed).errors == []


def test_generic_form_file_gets_a_generic_copy() -> None:
    text = """\
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    "func.return"(%arg0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
"""
    [finding] = check(text)
    assert finding.code == "TL001"
    assert span_text(text, finding) == "%arg0"
    assert (
        fix_one(text, finding)
        == """\
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    %output0_copy = "mhlo.copy"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%output0_copy) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
"""
    )


def test_fresh_name_avoids_names_used_in_main() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %output0_copy = stablehlo.abs %arg0 : tensor<4xf32>
  return %arg0, %output0_copy : tensor<4xf32>, tensor<4xf32>
}
"""
    assert (
        fix_all(text)
        == """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %output0_copy = stablehlo.abs %arg0 : tensor<4xf32>
  %output0_copy_1 = mhlo.copy %arg0 : tensor<4xf32>
  return %output0_copy_1, %output0_copy : tensor<4xf32>, tensor<4xf32>
}
"""
    )


def test_output_names_name_the_outputs_and_the_copies() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) attributes {output_names = ["first", "second out"]} {
  return %arg0, %arg1 : tensor<4xf32>, tensor<2xf32>
}
"""
    findings = check(text)
    assert [f.code for f in findings] == ["TL001", "TL001"]
    assert findings[0].message.startswith("Output 0 ('first') returns input `%arg0`")
    assert findings[1].message.startswith("Output 1 ('second out') returns input `%arg1`")
    assert (
        fix_all(text)
        == """\
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) attributes {output_names = ["first", "second out"]} {
  %first_copy = mhlo.copy %arg0 : tensor<4xf32>
  %second_out_copy = mhlo.copy %arg1 : tensor<2xf32>
  return %first_copy, %second_out_copy : tensor<4xf32>, tensor<2xf32>
}
"""
    )


CONSTANTS = """\
func.func @main() -> (tensor<4xf32>, tensor<2xf32>, tensor<f32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  %dense = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %scalar = stablehlo.constant dense<3.000000e+00> : tensor<f32>
  return %cst, %dense, %scalar : tensor<4xf32>, tensor<2xf32>, tensor<f32>
}
"""


def test_stablehlo_splat_constants_are_tl007_rank_0_included_others_tl002() -> None:
    # Stage A rewrites every constant whose DenseElementsAttr is a splat: isSplat() holds for
    # a rank-0 constant too, so it is broadcast and named in place, not copied.
    findings = check(CONSTANTS)
    assert [(f.code, span_text(CONSTANTS, f)) for f in findings] == [
        ("TL007", "%cst"),
        ("TL002", "%dense"),
        ("TL007", "%scalar"),
    ]
    assert findings[0].severity == Severity.INFORMATION
    assert findings[0].fix is None and findings[2].fix is None
    assert findings[1].message == (
        "Output 1 ('output1') returns constant `%dense`; copy it before the return. Constants "
        "are read-only, so TensorizerLegalization inserts an identity `mhlo.copy` named "
        "'output1' (not a splat, so stage A leaves it a constant)."
    )
    assert findings[2].message == (
        "Output 2 ('output2') is a splat constant; stage A broadcasts it, nothing to change. The "
        "StableHLO variant rewrites `%scalar` into a scalar `stablehlo.constant` and a "
        "`stablehlo.broadcast_in_dim`, which is named 'output2' in place (no copy)."
    )


@pytest.mark.parametrize(
    ("value", "splat"),
    [
        ("dense<[5.0]> : tensor<1xf32>", True),
        ("dense<[[2, 2], [2, 2]]> : tensor<2x2xi32>", True),
        ("dense<[1.0, 1.000000e+00]> : tensor<2xf32>", True),
        ('dense<"0x0000803F"> : tensor<8xf32>', True),
        ('dense<"0x0000803F0000803F"> : tensor<2xf32>', True),
        ('dense<"0x0000803F00000040"> : tensor<2xf32>', False),
        ("dense<[1, 2]> : tensor<2xi32>", False),
        ("dense<> : tensor<0xf32>", False),
    ],
)
def test_splat_is_what_mlir_is_splat_says(value: str, splat: bool) -> None:
    """Every element equal (checked against jaxlib's DenseElementsAttr.is_splat)."""
    type_text = value.rsplit(": ", 1)[1]
    text = (
        f"func.func @main() -> {type_text} {{\n  %c = stablehlo.constant {value}\n"
        f"  return %c : {type_text}\n}}\n"
    )
    expected = "TL007" if splat else ("TL006" if "0x" in type_text[7:9] else "TL002")
    assert codes(text) == [expected]


def test_mhlo_variant_copies_constants_splat_or_not() -> None:
    findings = check(CONSTANTS, pipeline="mhlo")
    assert [f.code for f in findings] == ["TL002", "TL002", "TL002"]


def test_mhlo_constant_in_stablehlo_module_is_copied() -> None:
    text = """\
func.func @main() -> tensor<4xf32> {
  %cst = mhlo.constant dense<0.000000e+00> : tensor<4xf32>
  %x = stablehlo.abs %cst : tensor<4xf32>
  return %cst : tensor<4xf32>
}
"""
    [finding] = check(text)
    assert finding.code == "TL002"
    assert fix_one(text, finding) == text.replace(
        "  return %cst",
        "  %output0_copy = mhlo.copy %cst : tensor<4xf32>\n  return %output0_copy",
    )


def test_hex_splat_constant_is_a_splat() -> None:
    text = """\
func.func @main() -> (tensor<4xf32>, tensor<2xf32>) {
  %a = stablehlo.constant dense<"0x0000803F"> : tensor<4xf32>
  %b = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  return %a, %b : tensor<4xf32>, tensor<2xf32>
}
"""
    assert codes(text) == ["TL007", "TL002"]


ZERO = """\
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<2x0xf32>) -> (tensor<0x4xf32>, tensor<2x0xf32>) {
  %0 = stablehlo.abs %arg1 : tensor<2x0xf32>
  return %arg0, %0 : tensor<0x4xf32>, tensor<2x0xf32>
}
"""


def test_zero_sized_outputs_in_stablehlo_are_information() -> None:
    findings = check(ZERO)
    assert [(f.code, f.severity, span_text(ZERO, f)) for f in findings] == [
        ("TL006", Severity.INFORMATION, "%arg0"),
        ("TL006", Severity.INFORMATION, "%0"),
    ]
    assert "AwsNeuronZeroSizedOp" in findings[0].message
    assert all(f.fix is None for f in findings)


def test_zero_sized_input_in_mhlo_is_a_warning_and_compute_is_named() -> None:
    findings = check(ZERO, pipeline="mhlo")
    assert [(f.code, f.severity, span_text(ZERO, f)) for f in findings] == [
        ("TL006", Severity.WARNING, "%arg0"),
    ]
    assert findings[0].message.startswith(
        "Output 0 ('output0') returns zero-element input `%arg0`; copy it to end the alias."
    )


def test_same_value_twice_is_tl003_on_the_later_slot() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.sine %arg0 : tensor<4xf32>
  return %0, %0, %0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    findings = check(text)
    assert [(f.code, f.range.start.column) for f in findings] == [("TL003", 13), ("TL003", 17)]
    assert findings[0].message.startswith(
        "Output 1 ('output1') returns `%0` again (output 0); copy it for this output."
    )
    assert findings[0].related[0].message == "first returned as output 0"
    assert (
        fix_all(text)
        == """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.sine %arg0 : tensor<4xf32>
  %output1_copy = mhlo.copy %0 : tensor<4xf32>
  %output2_copy = mhlo.copy %0 : tensor<4xf32>
  return %0, %output1_copy, %output2_copy : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    )


def test_input_returned_twice_gets_one_copy_per_slot() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>
}
"""
    assert codes(text) == ["TL001", "TL001"]
    fixed = fix_all(text)
    assert fixed.count("mhlo.copy") == 2
    assert "return %output0_copy, %output1_copy" in fixed
    assert codes(fixed) == []


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        (
            '["a"]',
            "has 1 name for 2 outputs; give one distinct string per output. The pass reads past",
        ),
        (
            '["a", "b", "c"]',
            "has 3 names for 2 outputs; give one distinct string per output. 'c' name no output.",
        ),
        (
            '["a", "a"]',
            "repeats 'a'; give one distinct string per output. Two buffers would share one name.",
        ),
        ('["a", 3]', "has entries that are not strings (at 1)"),
        ('"a"', "is not an array of strings"),
    ],
)
def test_output_names_mismatch_is_tl004_on_the_attribute_value(names: str, problem: str) -> None:
    text = f"""\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {{output_names = {names}}} {{
  %0 = stablehlo.sine %arg0 : tensor<4xf32>
  %1 = stablehlo.cosine %arg0 : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}}
"""
    [finding] = check(text)
    assert finding.code == "TL004"
    assert finding.severity == Severity.ERROR
    assert span_text(text, finding) == names
    assert problem in finding.message


def test_missing_main_is_opt_in_tl005() -> None:
    text = "func.func @helper() {\n  return\n}\n"
    assert codes(text) == []
    [finding] = check(text, select=("TL005",))
    assert finding.code == "TL005"
    assert span_text(text, finding) == "func.func"


def test_main_without_return_operands_has_no_findings() -> None:
    assert codes("func.func @main() {\n  return\n}\n") == []
    assert codes("func.func private @main()\n") == []


FUSIONS = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {output_names = ["sched", "loop"]} {
  %0 = "mhlo.fusion"(%arg0) ({
  ^bb0(%p: tensor<4xf32>):
    %1 = mhlo.abs %p : tensor<4xf32>
    mhlo.return %1 : tensor<4xf32>
  }) {FusionKind = "ScheduleFusion"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mhlo.fusion"(%arg0) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
  ^bb0(%p: tensor<4xf32>):
    %3 = mhlo.negate %p : tensor<4xf32>
    mhlo.return %3 : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}
"""


def test_schedule_fusion_is_named_inside_other_fusions_in_place() -> None:
    assert codes(FUSIONS) == []
    chunk = parse_file(FUSIONS).chunks[0]
    analysis = analyze_chunk(chunk)
    assert analysis.variant == "mhlo"
    sched, loop = analysis.outputs
    assert sched.case.name == "fusion"
    assert sched.named_op is not None and sched.named_op.name == "mhlo.abs"
    assert loop.case.name == "compute"
    assert loop.named_op is not None and loop.named_op.name == "mhlo.fusion"


COMPOSITE = """\
module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "my.op" %arg0 {CompositeKind = "FusedComposite", decomposition = @my.op} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @my.op(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def test_composite_with_decomposition_is_named_inside() -> None:
    assert codes(COMPOSITE) == []
    [output] = analyze_chunk(parse_file(COMPOSITE).chunks[0]).outputs
    assert output.case.name == "composite"
    assert output.named_op is not None and output.named_op.name == "stablehlo.abs"


def test_composite_without_composite_kind_is_named_in_place() -> None:
    # jax's composites carry no CompositeKind: the pass names the composite result itself,
    # and never looks for the decomposition.
    text = COMPOSITE.replace('CompositeKind = "FusedComposite", ', "")
    for source in (text, text.replace("@my.op(%arg0", "@other(%arg0")):
        assert codes(source) == []
        [output] = analyze_chunk(parse_file(source).chunks[0]).outputs
        assert output.case.name == "compute"
        assert output.named_op is not None and output.named_op.name == "stablehlo.composite"


def test_composite_without_decomposition_is_tl009() -> None:
    text = COMPOSITE.replace("@my.op(%arg0", "@other(%arg0")
    [finding] = check(text)
    assert finding.code == "TL009"
    assert span_text(text, finding) == "@my.op"
    assert (
        "Output 0 ('output0') needs decomposition @my.op, which is missing; add the function."
        in finding.message
    )


def test_multi_result_op_outputs_name_their_result_slots() -> None:
    text = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = "test.pair"(%arg0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#1, %0#0 : tensor<4xf32>, tensor<4xf32>
}
"""
    assert codes(text) == []
    outputs = analyze_chunk(parse_file(text).chunks[0]).outputs
    assert [(o.case.name, o.named_result) for o in outputs] == [("compute", 1), ("compute", 0)]


def test_split_files_are_checked_per_chunk_with_shifted_positions() -> None:
    text = INPUT + "// -----\n" + INPUT + "// -----\nfunc.func @lib() {\n  return\n}\n"
    findings = check(text, select=("TL",))
    assert [(f.code, f.range.start.line) for f in findings] == [
        ("TL001", 2),
        ("TL001", 8),
        ("TL005", 12),
    ]
    fixed = fix_all(text)
    assert fixed.count("%output0_copy = mhlo.copy %arg0 : tensor<4xf32>") == 2
    assert codes(fixed) == []


def test_variant_selection_and_override() -> None:
    mhlo_only = parse_file("func.func @main() {\n  %0 = mhlo.constant dense<1> : tensor<i32>\n}\n")
    mixed = parse_file(FUSIONS.replace("mhlo.abs", "stablehlo.abs"))
    assert variant_of(mhlo_only.chunks[0], "auto") == "mhlo"
    assert variant_of(mixed.chunks[0], "auto") == "stablehlo"
    assert variant_of(mixed.chunks[0], "mhlo") == "mhlo"
    only_copy = parse_file("func.func @main() {\n  %0 = mhlo.copy %a : tensor<i32>\n}\n")
    assert variant_of(only_copy.chunks[0], "auto") == "stablehlo"


def test_crlf_file_keeps_its_line_endings() -> None:
    text = INPUT.replace("\n", "\r\n")
    fixed = fix_all(text)
    assert fixed == fix_all(INPUT).replace("\n", "\r\n")


def test_return_not_first_on_its_line() -> None:
    text = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  ^bb0: return %arg0 : tensor<4xf32>\n}\n"
    fixed = fix_all(text)
    assert codes(fixed) == []
    assert "^bb0: %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n  return %output0_copy" in fixed


def test_each_output_case_is_described_with_its_rule() -> None:
    analysis = analyze_chunk(
        parse_file((DATA_MLIR / "handmade__mhlo_fusion_hybrid.mlir").read_text()).chunks[0]
    )
    described: dict[str, str] = {}
    for output in analysis.outputs:
        described.setdefault(output.case.name, output.case.hover(analysis, output))
    assert described["input"].endswith("names the copy 'passthrough' (TL001)")
    assert described["constant"].endswith("names the copy 'splat' (TL002)")
    assert "stage B replaces it" in described["zero-sized-input"]
    assert described["fusion"].endswith(
        "writing 'sched' into `neuron.symName` slot 0 of `stablehlo.tanh`"
    )
    assert described["compute"].startswith("computed here: the pass names it in place")
    assert "stablehlo.composite" in [o.named_op.name for o in analysis.outputs if o.named_op]
    assert described["compute"].startswith("computed here: the pass names it in place")
