"""MLIR text that is unusual but possible, or hostile: read as MLIR reads it, reported with
a clear diagnostic, never a crash.

- a huge token is quoted by a short excerpt in every message;
- an integer of any length: a dimension or an integer type's width beyond MLIR's bounds is an
  E001 where MLIR's parser reports it, never an exception (Python's int() refuses more than
  4,300 digits), in the analysis, `passlint legalize` and the server's features;
- a byte order mark (U+FEFF) is an E001 where MLIR's parser reports one ("unexpected
  character" at 1:1, jaxlib 0.10.2, from the file's bytes): it skips none;
- line ends: \n, \r\n and a lone \r, as MLIR's lexer reads them (a comment ends at \n or \r,
  a string goes on over a lone \r) and as LSP counts lines; a fix writes the file's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_dump import dump

from passlint import pipeline
from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Finding
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.source import SourceText
from passlint.passes.tensorizer_legalization.analysis import analyze_file
from passlint.passes.tensorizer_legalization.apply import legalize_text
from passlint.server import hover, navigation
from passlint.server.mlir_index import build_index
from passlint.server.views import MlirView, Shift

HEAD = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
TAIL = "  return %arg0 : tensor<4xf32>\n}\n"
ADD = "stablehlo.add %arg0, %arg0 : tensor<4xf32>"


def findings(text: str) -> list[tuple[str, int, int, str]]:
    """(code, 1-based line, 1-based column, message) of each finding."""
    return [_row(found) for found in pipeline.analyze("unusual.mlir", text)]


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
    (found,) = pipeline.analyze("unusual.mlir", text)
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


# -- integers of any length -----------------------------------------------------------------------

DIGITS = "9" * 5000
DIMENSION = (
    f"Invalid dimension `{'9' * 17}...`; write one of at most 9223372036854775807. MLIR's "
    "dimensions are signed 64-bit integers."
)

INTEGERS = {
    # where MLIR's parser (jaxlib 0.10.2) reports each: "invalid dimension" at 1:31 ...
    "an argument's dimension": (
        HEAD.replace("tensor<4xf32>)", f"tensor<{DIGITS}xf32>)") + TAIL,
        [("E001", 1, 31, DIMENSION), ("TL001", 2, 10)],
    ),
    "a result's second dimension": (
        HEAD + f'  %0 = "x.y"() : () -> tensor<4x{DIGITS}xf32>\n  return %0 : tensor<4xf32>\n}}\n',
        [("E001", 2, 33, DIMENSION)],
    ),
    "a dimension after blanks": (
        HEAD + f'  %0 = "x.y"() : () -> tensor<4 x {DIGITS} x f32>\n' + TAIL,
        [("E001", 2, 35, DIMENSION), ("TL001", 3, 10)],
    ),
    "a returned value's dimension": (
        HEAD
        + f'  %0 = "x.y"() : () -> tensor<{DIGITS}xf32>\n  return %0 : tensor<{DIGITS}xf32>\n}}\n',
        [("E001", 2, 31, DIMENSION), ("E001", 3, 22, DIMENSION)],
    ),
    "a dimension after 0x": (
        HEAD + f'  %0 = "x.y"() : () -> vector<0x[{DIGITS}]xf32>\n' + TAIL,
        [("E001", 2, 34, DIMENSION), ("TL001", 3, 10)],
    ),
    "one past the largest dimension": (
        HEAD + '  %0 = "x.y"() : () -> tensor<9223372036854775808xf32>\n' + TAIL,
        [
            (
                "E001",
                2,
                31,
                "Invalid dimension `9223372036854775808`; write one of at most "
                "9223372036854775807. MLIR's dimensions are signed 64-bit integers.",
            ),
            ("TL001", 3, 10),
        ],
    ),
    # ... "integer bitwidth is limited to 16777215 bits" at 2:24
    "an integer type's width": (
        HEAD + f'  %0 = "x.y"() : () -> si{DIGITS}\n' + TAIL,
        [
            (
                "E001",
                2,
                24,
                f"Integer bitwidth is limited to 16777215 bits, not `si{'9' * 15}...`; write a "
                "narrower integer type.",
            ),
            ("TL001", 3, 10),
        ],
    ),
    "a result group's size": (
        HEAD + f'  %0:{DIGITS} = "x.y"() : () -> i32\n' + TAIL,
        [
            (
                "E006",
                2,
                3,
                "Operation defines 1 results but was provided 4096 to bind; match the result "
                "list to the type.",
            ),
            ("TL001", 3, 10),
        ],
    ),
}


@pytest.mark.parametrize("where", INTEGERS)
def test_an_integer_of_any_length(where: str) -> None:
    text, expected = INTEGERS[where]
    found: list[tuple[object, ...]] = [
        row[:3] if row[0] == "TL001" else row for row in findings(text)
    ]
    assert found == expected
    legalize_text(text)
    analysis = pipeline.analyze_document("unusual.mlir", text)
    assert analysis.parsed is not None
    source = SourceText(text)
    view = MlirView(build_index(analysis.parsed, source, analysis.tensorizer, []), Shift(), source)
    for offset in range(0, len(text), 7):  # (hover and definition answered -32603 here)
        hover.mlir_hover(view, offset)
        navigation.mlir_definition(view, offset)


def test_a_result_group_of_zero_binds_one_result() -> None:
    """(as before the group size was read bounded: not 4,096 results)"""
    text = HEAD + '  %0:0 = "x.y"() : () -> i32\n' + TAIL
    assert [code for code, *_ in findings(text)] == ["TL001"]


def test_the_largest_dimension_and_width_are_valid() -> None:
    text = (
        HEAD
        + '  %0 = "x.y"() : () -> tensor<9223372036854775807x0000000000000000000000004xf32>\n'
        + '  %1 = "x.y"() : () -> i16777215\n'
        + '  %2 = "x.y"() {a = "tensor<99999999999999999999xf32>"} : () -> i32\n'  # a string
        + TAIL
    )
    assert [code for code, *_ in findings(text)] == ["TL001"]


# -- line ends ------------------------------------------------------------------------------------

COMMENTED = HEAD + "  // a comment\n  %0 = " + ADD + "\n" + TAIL


def test_a_comment_ends_at_a_lone_cr() -> None:
    """With lone-CR line ends a comment ran to the end of the file: E009, TL001 missed."""
    for newline in ("\r", "\r\n", "\n"):
        assert [row[:3] for row in findings(COMMENTED.replace("\n", newline))] == [("TL001", 4, 10)]


def test_a_string_goes_on_over_a_lone_cr() -> None:
    """As for MLIR's lexer (jaxlib 0.10.2 parses it): \\n ends a string, \\r does not."""
    text = HEAD + '  %0 = "x.y"() {a = "one\rtwo"} : () -> i1\n' + TAIL
    assert [row[0] for row in findings(text)] == ["TL001"]
    (op,) = [op for op in parse_file(text).chunks[0].operations[0].walk() if op.name == "x.y"]
    assert op.attribute("a") is not None and op.attribute("a").value == '"one\rtwo"'


_DATA = Path(__file__).resolve().parents[1] / "data" / "mlir"
_CORPUS = sorted(_DATA.rglob("*.mlir"))


def _fixed(text: str) -> str:
    fixes = [found.fix for found in pipeline.analyze("f.mlir", text) if found.fix is not None]
    return apply_edits(text, edits_by_path(fixes).get("f.mlir", []))


@pytest.mark.parametrize("path", _CORPUS, ids=lambda path: str(path.relative_to(_DATA)))
def test_line_ends_change_nothing_else(path: Path) -> None:
    """Each file of tests/data/mlir with lone-CR and CRLF line ends: the same findings at the
    same lines and columns, and fixed the same with its own line ends. Lone CRs keep every
    offset, so the IR is the same (but where a string left unterminated runs on)."""
    text = path.read_text(encoding="utf-8")
    expected = findings(text)
    for newline in ("\r", "\r\n"):
        changed = text.replace("\n", newline)
        if "Unterminated string" not in str(expected):
            assert findings(changed) == expected
            assert _fixed(changed) == _fixed(text).replace("\n", newline)
    if "Unterminated string" not in str(expected):
        assert dump(parse_file(text.replace("\n", "\r"))) == dump(parse_file(text))
    for newline in ("\r", "\r\n"):
        changed = text.replace("\n", newline)
        assert dump(parse_file(changed, MlirMemo())) == dump(parse_file(changed))


# -- a byte order mark ----------------------------------------------------------------------------

BOM_MESSAGE = (
    "Unexpected byte order mark (U+FEFF); remove it. MLIR's parser reads it as a character no "
    "token starts with, at the start of a file too."
)


def test_a_byte_order_mark_at_the_start_is_reported_as_mlir_reports_it() -> None:
    text = "\ufeff" + HEAD + TAIL
    (error, output) = pipeline.analyze("bom.mlir", text)
    start, end = error.range.start, error.range.end
    assert (error.code, start.line, start.column, end.line, end.column) == ("E001", 0, 0, 0, 1)
    assert error.message == BOM_MESSAGE
    assert output.code == "TL001"  # (the module after it is read on)
    assert _fixed(text) == "\ufeff" + _fixed(HEAD + TAIL)


def test_a_byte_order_mark_inside_a_line() -> None:
    assert findings(HEAD + "  \ufeff\n" + TAIL)[0] == ("E001", 2, 3, BOM_MESSAGE)
