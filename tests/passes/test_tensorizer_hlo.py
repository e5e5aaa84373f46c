"""TensorizerLegalization on HLO text: the ENTRY computation's outputs (the ROOT, or each
operand of a ROOT tuple) give the MLIR rules' findings, with the copy fix in HLO's terms:
exact ranges, messages, fixed text, re-parsing, idempotence."""

from __future__ import annotations

from pathlib import Path

import pytest
from linear_time import assert_doubling_linear

from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Finding, Position, Range, Severity
from passlint.analysis.hlo.parser import parse_hlo
from passlint.config import Settings
from passlint.passes.tensorizer_legalization.rules import TL_RULES
from passlint.pipeline import analyze

DATA = Path(__file__).resolve().parents[1] / "data" / "hlo"
PATH = "m.hlo"


def check(text: str, pipeline: str = "auto") -> list[Finding]:
    return analyze(PATH, text, Settings(pipeline=pipeline))  # type: ignore[arg-type]


def fix_all(text: str) -> str:
    fixes = [f.fix for f in check(text) if f.fix is not None]
    return apply_edits(text, edits_by_path(fixes).get(PATH, []))


def spanned(text: str, finding: Finding) -> str:
    start, end = finding.range.start, finding.range.end
    assert start.line == end.line
    return text.splitlines()[start.line][start.column : end.column]


def test_each_output_slot_of_the_root_tuple() -> None:
    text = (DATA / "outputs.hlo").read_text()
    findings = check(text)
    assert [(f.code, spanned(text, f)) for f in findings] == [
        ("TL001", "x.1"),
        ("TL002", "c.1"),
        ("TL006", "e.1"),
        ("TL003", "sin.1"),
        ("TL007", "s.1"),
    ]
    assert all(f.range.start.line == 15 for f in findings)
    assert [f.severity for f in findings] == [TL_RULES[f.code].severity for f in findings]
    tl001, tl002, tl006, tl003, tl007 = findings
    assert tl001.message.startswith(
        "Output 1 ('output1') returns parameter `x.1`; copy it before the ROOT. The tensorizer "
        "needs a distinct, writable buffer per output"
    )
    assert tl001.related[0].message == "input x.1 is defined here"
    assert tl001.related[0].range == Range(Position(10, 2), Position(10, 5))
    assert "(not a splat, so stage A leaves it a constant)" in tl002.message
    assert tl006.message.startswith("Output 3 ('output3') has zero elements; the pass replaces")
    assert tl003.message.startswith("Output 4 ('output4') returns `sin.1` again (output 0);")
    assert tl003.related[0].message == "first returned as output 0"
    assert tl007.message.startswith("Output 5 ('output5') is a splat constant;")
    assert [f.fix is not None for f in findings] == [True, True, False, True, False]
    assert tl001.fix is not None and tl001.fix.title == (
        "Copy x.1 into x.1.copy for output 1 ('output1')"
    )


def test_fix_all_gives_the_expected_text_reparses_and_is_idempotent() -> None:
    text = (DATA / "outputs.hlo").read_text()
    fixed = fix_all(text)
    assert fixed == (DATA / "outputs.fixed.hlo").read_text()
    assert parse_hlo(fixed).issues == []
    assert [f.code for f in check(fixed)] == ["TL006", "TL007"]
    assert fix_all(fixed) == fixed


@pytest.mark.parametrize("name", ["outputs.hlo", "old_style.hlo", "root_parameter.hlo", "dump.txt"])
def test_each_fix_alone_clears_its_finding_only(name: str) -> None:
    text = (DATA / name).read_text()
    path = "dump.txt" if name.endswith(".txt") else PATH
    findings = analyze(path, text)
    assert any(f.fix for f in findings)
    for finding in findings:
        if finding.fix is None:
            continue
        fixed = apply_edits(text, finding.fix.edits)
        assert parse_hlo(fixed).issues == []
        after = analyze(path, fixed)
        assert len(after) == len(findings) - 1
        assert (finding.code, finding.range) not in [(f.code, f.range) for f in after]


def test_old_dumps_keep_their_style() -> None:
    text = (DATA / "old_style.hlo").read_text()
    (finding,) = check(text)
    assert (finding.code, spanned(text, finding)) == ("TL001", "%p0")
    fixed = fix_all(text)
    assert "  %p0.copy = f32[4]{0} copy(f32[4]{0} %p0)\n  ROOT %t = " in fixed
    assert "tuple(f32[4]{0} %neg, f32[4]{0} %p0.copy, token[] %tok)" in fixed
    assert check(fixed) == []


def test_a_root_that_is_the_output_hands_root_to_the_copy() -> None:
    text = (DATA / "root_parameter.hlo").read_text()
    (finding,) = check(text)
    assert (finding.code, spanned(text, finding), finding.related) == ("TL001", "x", ())
    assert fix_all(text) == (
        "HloModule identity\n\nENTRY main {\n"
        "  x = f32[8]{0} parameter(0) // the input, returned as it is\n"
        "  ROOT x.copy = f32[8]{0} copy(x)\n}\n"
    )
    assert fix_all(fix_all(text)) == fix_all(text)


def test_a_computation_without_root_returns_its_last_instruction() -> None:
    """No ``ROOT`` keyword: XLA's parser takes the last instruction; the copy is added after
    it as the ROOT (there is no keyword to drop). Found by the fuzz target."""
    text = "HloModule m\n\nENTRY main {\n  p = f32[2] parameter(0)\n}\n"
    (finding,) = check(text)
    assert (finding.code, spanned(text, finding)) == ("TL001", "p")
    assert fix_all(text) == (
        "HloModule m\n\nENTRY main {\n  p = f32[2] parameter(0)\n  ROOT p.copy = f32[2] copy(p)\n}\n"
    )
    assert check(fix_all(text)) == []
    tupled = "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  t = (f32[2]) tuple(p)\n}\n"
    assert fix_all(tupled) == (
        "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  p.copy = f32[2] copy(p)\n"
        "  t = (f32[2]) tuple(p.copy)\n}\n"
    )
    assert check(fix_all(tupled)) == []


def test_one_line_computation_and_crlf() -> None:
    text = "HloModule m\r\nENTRY e { p = f32[2] parameter(0)\r\n  ROOT t = (f32[2]) tuple(p) }\r\n"
    fixed = fix_all(text)
    assert fixed == (
        "HloModule m\r\nENTRY e { p = f32[2] parameter(0)\r\n"
        "  p.copy = f32[2] copy(p)\r\n  ROOT t = (f32[2]) tuple(p.copy) }\r\n"
    )
    one_line = "HloModule m\nENTRY e { ROOT c = f32[2] constant({1, 2}) }\n"
    assert fix_all(one_line) == (
        "HloModule m\nENTRY e { c = f32[2] constant({1, 2})\nROOT c.copy = f32[2] copy(c) }\n"
    )
    assert check(fix_all(one_line)) == []


def test_a_byte_order_mark_is_no_token() -> None:
    """A file saved with a BOM (and CR LF) reads as without one: the finding's range and the
    fixed text are those of the text after the mark."""
    text = "\ufeffHloModule m\r\nENTRY e {\r\n  p = f32[2] parameter(0)\r\n  ROOT t = (f32[2]) tuple(p)\r\n}\r\n"
    [finding] = check(text)
    assert (finding.code, finding.range) == ("TL001", Range(Position(3, 26), Position(3, 27)))
    assert fix_all(text) == (
        "\ufeffHloModule m\r\nENTRY e {\r\n  p = f32[2] parameter(0)\r\n"
        "  p.copy = f32[2] copy(p)\r\n  ROOT t = (f32[2]) tuple(p.copy)\r\n}\r\n"
    )
    assert check(fix_all(text)) == []


def test_copy_names_are_fresh_and_distinct() -> None:
    text = (
        "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  p.copy = f32[2] negate(p)\n"
        "  ROOT t = (f32[2], f32[2], f32[2]) tuple(p, p, p.copy)\n}\n"
    )
    fixed = fix_all(text)
    assert "  p.copy_1 = f32[2] copy(p)\n  p.copy_2 = f32[2] copy(p)\n" in fixed
    assert "tuple(p.copy_1, p.copy_2, p.copy)" in fixed
    assert check(fixed) == [] and fix_all(fixed) == fixed


def test_the_copy_goes_above_a_suppression_of_the_root() -> None:
    text = (
        "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  c = f32[2] constant({1, 2})\n"
        "  // passlint: ignore[TL002]\n  ROOT t = (f32[2], f32[2]) tuple(p, c)\n}\n"
    )
    (finding,) = check(text)
    assert finding.code == "TL001"
    fixed = fix_all(text)
    assert "  p.copy = f32[2] copy(p)\n  // passlint: ignore[TL002]\n  ROOT t" in fixed
    assert check(fixed) == []


def test_the_mhlo_variant() -> None:
    text = (DATA / "outputs.hlo").read_text()
    findings = check(text, pipeline="mhlo")
    assert [(f.code, spanned(text, f)) for f in findings] == [
        ("TL001", "x.1"),
        ("TL002", "c.1"),
        ("TL006", "e.1"),
        ("TL003", "sin.1"),
        ("TL002", "s.1"),
    ]
    assert findings[2].severity == Severity.WARNING
    assert "copy it to end the alias" in findings[2].message
    assert "the MHLO variant copies constants, splat or not" in findings[4].message


def test_a_computed_output_is_clean_and_syntax_errors_are_e010() -> None:
    text = "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p)\n}\n"
    assert check(text) == []
    broken = check((DATA / "broken.hlo").read_text())
    assert [(f.code, f.range.start) for f in broken] == [
        ("E010", Position(4, 12)),
        ("E010", Position(7, 0)),
    ]


def _many_outputs(n: int) -> str:
    lines = ["HloModule m", "ENTRY e {"]
    lines += [f"  p.{i} = f32[2]{{0}} parameter({i})" for i in range(n)]
    lines.append(f"  ROOT t = () tuple({', '.join(f'p.{i}' for i in range(n))})")
    return "\n".join([*lines, "}"]) + "\n"


def test_findings_and_fixes_are_linear_in_the_outputs() -> None:
    assert_doubling_linear(_many_outputs, check, 128)


def test_every_module_of_a_lit_test_is_checked() -> None:
    """A lit test holds modules between `// -----` lines (XLA's tools read them one by one):
    each module's ENTRY computation (else its last) is checked, and fixed in place."""
    text = (
        "HloModule first\n\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p)\n}\n"
        "\n// -----\n\n"
        "HloModule second\n\nc {\n  ROOT q = f32[2] parameter(0)\n}\n\n"
        "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT t = (f32[2]) tuple(p)\n}\n"
        "\n// -----\n\n"
        "f {\n  ROOT k = f32[2] constant({1, 2})\n}\n"
    )
    findings = check(text)
    assert [(f.code, f.range.start.line, spanned(text, f)) for f in findings] == [
        ("TL001", 17, "p"),
        ("TL002", 23, "k"),
    ]
    fixed = fix_all(text)
    assert fixed == text.replace(
        "  ROOT t = (f32[2]) tuple(p)\n",
        "  p.copy = f32[2] copy(p)\n  ROOT t = (f32[2]) tuple(p.copy)\n",
    ).replace(
        "  ROOT k = f32[2] constant({1, 2})\n",
        "  k = f32[2] constant({1, 2})\n  ROOT k.copy = f32[2] copy(k)\n",
    )
    assert check(fixed) == []
