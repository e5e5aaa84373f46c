"""Issue 14, point 6: TensorizerLegalization's cases are one table; every face reads it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from passlint.analysis import engine
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.rules import RULES
from passlint.passes.tensorizer_legalization import CASES, QUICK_CODES, analyze_chunk

DATA = Path(__file__).parent.parent / "data" / "mlir"
FIRST_SENTENCE = re.compile(r"(.*?\.)(?: |$)", re.DOTALL)


def test_every_case_with_a_rule_has_a_catalog_line_and_a_message() -> None:
    for case in CASES:
        if case.code is not None:
            assert case.code in RULES
            assert case.message is not None
        assert case.copies == (case.apply == "copy")


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
        "composite",
    }
    for output in analysis.outputs:
        placed = output.case.inlay_place(output)
        assert placed is not None and placed[1].endswith(f"'{output.name}'")
        assert output.case.hover(analysis, output)


def mlir_messages() -> list[str]:
    messages = []
    for path in sorted(DATA.glob("**/*.mlir")):
        messages += [f.message for f in engine.analyze(path.name, path.read_text())]
    return messages


@pytest.mark.parametrize("message", mlir_messages())
def test_messages_follow_the_message_style(message: str) -> None:
    """MESSAGES.md points 1-2: a capital (or a quoted name), full stops, a first sentence of
    at most 100 characters that says what is wrong and what to do."""
    match = FIRST_SENTENCE.match(message)
    assert match is not None, message
    assert len(match.group(1)) <= 100, message
    assert message[0].isupper() or message[0] in "`'\"", message
    assert message.endswith("."), message
