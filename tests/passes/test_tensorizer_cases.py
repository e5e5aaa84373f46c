"""Issue 14, point 6: TensorizerLegalization's cases are one table; every face reads it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.mlir.parser import parse_file
from passlint.catalog import RULES
from passlint.passes.tensorizer_legalization.analysis import analyze_chunk
from passlint.passes.tensorizer_legalization.cases import CASES
from passlint.passes.tensorizer_legalization.findings import QUICK_CODES

DATA = Path(__file__).parent.parent / "data" / "mlir"
FIRST_SENTENCE = re.compile(r"(.*?\.)(?: |$)", re.DOTALL)


def test_every_case_with_a_rule_has_a_catalog_line_and_a_message() -> None:
    for case in CASES:
        if case.code is not None:
            assert case.code in RULES
            assert case.message is not None
        # Every case the pass copies has a copy fix; TL003's copy is passlint's own advice
        # (the pass names the value again), the one fix beyond the pass.
        assert case.copies == (case.apply == "copy" or case.code == "TL003")


def test_quick_codes_come_from_the_table() -> None:
    assert {case.code for case in CASES if case.quick and case.code} <= QUICK_CODES
    assert "TL009" not in QUICK_CODES  # a composite needs its decomposition function


def test_every_output_of_the_hybrid_fixture_has_a_hint_and_a_hover() -> None:
    analysis = analyze_chunk(
        parse_file((DATA / "handmade__mhlo_fusion_hybrid.mlir").read_text()).chunks[0]
    )
    met = {output.case.name for output in analysis.outputs}
    assert met == {
        "input",
        "constant",
        "fusion",
        "compute",
        "zero-sized-input",
    }
    for output in analysis.outputs:
        placed = output.case.inlay_place(output)
        assert placed is not None and placed[1].endswith(f"'{output.name}'")
        assert output.case.hover(analysis, output)


def mlir_messages() -> list[str]:
    messages = []
    for path in sorted(DATA.glob("**/*.mlir")):
        messages += [f.message for f in pipeline.analyze(path.name, path.read_text())]
    return messages


@pytest.mark.parametrize("message", mlir_messages())
def test_messages_follow_the_message_style(message: str) -> None:
    """docs/messages.md points 1-2: a capital (or a quoted name), full stops, a first sentence of
    at most 100 characters that says what is wrong and what to do."""
    match = FIRST_SENTENCE.match(message)
    assert match is not None, message
    assert len(match.group(1)) <= 100, message
    assert message[0].isupper() or message[0] in "`'\"", message
    assert message.endswith("."), message


RANK_0 = """\
func.func @main() -> tensor<f32> {
  %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
  return %cst : tensor<f32>
}
"""


def test_a_returned_rank_0_splat_in_dry_run_hover_inlay_and_legalize() -> None:
    """Issue 14, point 5: stage A rewrites a rank-0 constant (isSplat() holds) into a
    broadcast named in place: TL007 and no copy, everywhere."""
    from passlint.passes.tensorizer_legalization.apply import legalize_text

    [finding] = pipeline.analyze("r.mlir", RANK_0)
    assert (finding.code, finding.fix) == ("TL007", None)
    analysis = analyze_chunk(parse_file(RANK_0).chunks[0])
    [output] = analysis.outputs
    assert output.case.name == "splat-constant"
    assert output.case.hover(analysis, output) == (
        "a splat constant: stage A rewrites it into a scalar `stablehlo.constant` and a "
        "`stablehlo.broadcast_in_dim`, named 'output0' in place (TL007)"
    )
    offset, label = output.case.inlay_place(output) or (0, "")
    assert (RANK_0[:offset].splitlines()[-1], label) == (
        "  %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>",
        "'output0'",
    )
    assert legalize_text(RANK_0) == (
        "func.func @main() -> tensor<f32> {\n"
        "  %cst_scalar = stablehlo.constant dense<3.000000e+00> : tensor<f32>\n"
        "  %cst = stablehlo.broadcast_in_dim %cst_scalar, dims = [] "
        "{neuron.symName = [@output0]} : (tensor<f32>) -> tensor<f32>\n"
        "  return %cst : tensor<f32>\n"
        "}\n"
    )
