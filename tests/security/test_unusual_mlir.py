"""MLIR text that is unusual but possible, or hostile: read as MLIR reads it, reported with
a clear diagnostic, never a crash.

- a huge token is quoted by a short excerpt in every message;
"""

from __future__ import annotations

import pytest

from passlint.analysis import engine
from passlint.analysis.findings import Finding
from passlint.analysis.mlir.parser import parse_file
from passlint.passes.tensorizer_legalization import analyze_file

HEAD = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
TAIL = "  return %arg0 : tensor<4xf32>\n}\n"
ADD = "stablehlo.add %arg0, %arg0 : tensor<4xf32>"


def findings(text: str) -> list[tuple[str, int, int, str]]:
    """(code, 1-based line, 1-based column, message) of each finding."""
    return [_row(found) for found in engine.analyze("unusual.mlir", text)]


def _row(found: Finding) -> tuple[str, int, int, str]:
    start = found.range.start
    return found.code, start.line + 1, start.column + 1, found.message


# -- a huge token ---------------------------------------------------------------------------------

HUGE = "a" * 5_000_000  # (a 50 MB token made a 52-million-character message)
QUOTED = "a" * 37 + "..."

HUGE_TOKENS = {
    "an unknown op": (
        HEAD + f"  %0 = {HUGE} %arg0 : tensor<4xf32>\n" + TAIL,
        ("E001", 2, 8, f"Custom op '{QUOTED}' is unknown; spell the op as `dialect.op`."),
    ),
    "an undefined value": (
        HEAD + f"  %0 = stablehlo.add %{HUGE}, %arg0 : tensor<4xf32>\n" + TAIL,
        (
            "E003",
            2,
            22,
            f"Use of undeclared SSA value name `%{QUOTED[:-4]}...`; define it before this use.",
        ),
    ),
    "a label outside a region": (
        f"^{HUGE}:\n" + HEAD + TAIL,
        (
            "E001",
            1,
            1,
            f"Unexpected block label '^{QUOTED[:-4]}...'; expected an operation. Labels belong "
            "inside a region.",
        ),
    ),
    "an undefined location alias": (
        HEAD + f"  %0 = {ADD} loc(#{HUGE})\n" + TAIL,
        (
            "E007",
            2,
            55,
            f"Operation location alias `#{QUOTED[:-4]}...` was never defined; define it, as "
            f'`#{QUOTED[:-4]}... = loc("file":1:1)`.',
        ),
    ),
    "a value defined twice": (
        HEAD + f"  %{HUGE} = {ADD}\n" * 2 + TAIL,
        (
            "E004",
            3,
            3,
            f"Redefinition of SSA value `%{QUOTED[:-4]}...`; rename this one or the first.",
        ),
    ),
    "an undefined block": (
        HEAD + f"  cf.br ^{HUGE}\n" + TAIL,
        (
            "E008",
            2,
            9,
            f"Reference to an undefined block `^{QUOTED[:-4]}...`; define it in this region or "
            "fix the name.",
        ),
    ),
}


@pytest.mark.parametrize("where", HUGE_TOKENS)
def test_a_huge_token_is_quoted_by_an_excerpt(where: str) -> None:
    text, expected = HUGE_TOKENS[where]
    found = findings(text)
    assert expected in found
    assert all(len(message) < 300 for *_, message in found)


def test_a_huge_output_name_is_quoted_by_an_excerpt() -> None:
    text = HEAD.replace("{\n", f'attributes {{output_names = ["{HUGE}"]}} {{\n') + TAIL
    (found,) = engine.analyze("unusual.mlir", text)
    assert found.message == (
        "Output 0 ('aaaaaaaaaaaaa...') returns input `%arg0`; copy it before the return. The "
        "tensorizer needs a distinct, writable buffer per output, so TensorizerLegalization "
        f"inserts an identity `mhlo.copy` named '{QUOTED}'."
    )
    assert found.fix is not None
    assert found.fix.title == f"Copy %arg0 into %{QUOTED[:-4]}... for output 0 ('{QUOTED}')"
    assert found.fix.edits[1].new_text == f"%{HUGE}_copy"  # (the fix itself is whole)
    (analysis,) = analyze_file(parse_file(text))
    (output,) = analysis.outputs
    assert len(output.case.hover(analysis, output)) < 300


def test_many_output_names_are_quoted_three_at_most() -> None:
    names = ", ".join([f'"{HUGE[:100]}"'] * 100_000)
    text = HEAD.replace("{\n", f"attributes {{output_names = [{names}]}} {{\n") + TAIL
    messages = [message for code, *_, message in findings(text) if code == "TL004"]
    assert messages == [
        "`output_names` of @main has 100000 names for 1 output; give one distinct string per "
        f"output. '{QUOTED}', '{QUOTED}', '{QUOTED}' and 99996 more name no output."
    ]
