"""The line reader of printed HLO (``printed.read_printed``) against the token parser
(``parser.parse_tokens``): on every text it reads, the same module; on what XLA's printer
does not write, it steps aside (None) and the parser reads the text; it reads a dump in
linear time (bench/run.py's H1 row measures it beside the parser)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linear_time import assert_doubling_linear

from passlint.analysis.hlo.ir import HloFile
from passlint.analysis.hlo.parser import parse_hlo, parse_tokens
from passlint.analysis.hlo.printed import read_printed

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = sorted(
    p
    for p in [*DATA.rglob("*.hlo"), *DATA.rglob("*.hlo.txt"), *DATA.rglob("*.txt")]
    if "HloModule" in p.read_text(encoding="utf-8", errors="replace")
)


def tree(parsed: HloFile) -> tuple[object, ...]:
    """Everything a parse holds but its source."""
    return (
        parsed.name,
        parsed.name_span,
        [dataclasses.astuple(a) for a in parsed.attributes],
        [dataclasses.astuple(c) for c in parsed.computations],
        [dataclasses.astuple(i) for i in parsed.issues],
    )


def assert_agrees(text: str) -> bool:
    """Whether the reader took ``text``; when it did, it read what the parser reads."""
    printed = read_printed(text)
    if printed is not None:
        assert tree(printed) == tree(parse_tokens(text))
    return printed is not None


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(DATA)))
def test_each_hlo_file_reads_as_the_parser_reads_it(path: Path) -> None:
    assert_agrees(path.read_text(encoding="utf-8"))


def test_the_printed_corpus_is_read_by_lines() -> None:
    """jaxlib's HLO text (tests/data/formats) is all printed form: the reader takes it."""
    printed = [p for p in CORPUS if p.parent.name == "formats"]
    assert printed
    assert all(assert_agrees(p.read_text(encoding="utf-8")) for p in printed)


PRINTED = """\
HloModule jit_f, entry_computation_layout={(f32[2,3]{1,0}, /*index=1*/s32[])->(f32[2,3]{1,0}, s32[])}

%add.1 (x.2: f32[], y.3: f32[]) -> f32[] {
  %x.2 = f32[] parameter(0)
  %y.3 = f32[] parameter(1)
  ROOT %add.4 = f32[] add(f32[] %x.2, f32[] %y.3)
}

ENTRY main.5 {
  p.1 = f32[2,3]{1,0} parameter(0), metadata={op_name="x" source_file="/a/b.py"}
  p.2 = s32[] parameter(1)
  c.3 = f32[] constant(0)
  w.7 = bf16[56,50]{1,0} constant({...}), metadata={op_type="GatherV2" op_name="lookup"}
  s.8 = f32[2,2]{1,0} slice(p.1), slice={[0:2], [1:3]}
  r.4 = f32[2]{0} reduce(p.1, c.3), dimensions={1}, to_apply=%add.1
  t.5 = (f32[2]{0}, (s32[], f32[<=4,?]{1,0})) custom-call(r.4), custom_call_target="x//y"
  g.9 = f32[2]{0} get-tuple-element(t.5), index=0
  six = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[]) tuple(c.3, c.3, c.3, c.3, c.3, /*index=5*/c.3)
  ROOT tuple.6 = (f32[2,3]{1,0}, s32[]) tuple(p.1, p.2) // the outputs
}
"""

# One change each that the printer never writes, or that the grammar reads another way.
NOT_PRINTED = [
    PRINTED.replace("  ROOT tuple.6", "  ROOT\n  tuple.6"),  # (split over lines)
    PRINTED.replace("dimensions={1}", "dimensions={1} /* dims */"),
    PRINTED.replace("/*index=5*/c.3", "/*index=5 */c.3"),
    PRINTED.replace("to_apply=%add.1", "to_apply=ROOT"),  # (ROOT ends a value)
    PRINTED.replace("p.2 = s32[] parameter(1)", "p.1 = s32[] parameter(1)"),  # (twice)
    PRINTED.replace("tuple(p.1, p.2)", "tuple(p.1, q.2)"),  # (undefined)
    PRINTED.replace("ENTRY main.5 {", "ENTRY {"),
    PRINTED.replace("f32[2]{0} reduce", "f32[2] {0} reduce"),  # (a layout apart)
    PRINTED.replace("}\n\nENTRY", "}\nHloModule again\nENTRY"),
    PRINTED + "  x = f32[] parameter(2)\n",  # (outside a computation)
    PRINTED.rstrip("}\n") + "\n",  # (unclosed)
    PRINTED.replace("\n", "\r", 3),  # (lone carriage returns)
]


def test_printed_text_is_read_by_lines_and_anything_else_by_tokens() -> None:
    """(XLA's printer writes ``/*index=5*/`` before every fifth element of a long list.)"""
    assert assert_agrees(PRINTED)
    six = read_printed(PRINTED)
    assert six is not None
    tupled = six.computations[1].by_name["six"]
    assert [e.text for e in tupled.shape.elements][-1] == "f32[]"
    assert [o.name for o in tupled.operands] == ["c.3"] * 6
    assert assert_agrees(PRINTED.replace("\n", "\r\n"))
    assert assert_agrees("\ufeff" + PRINTED)
    for text in NOT_PRINTED:
        assert not assert_agrees(text), text
    assert tree(parse_hlo(NOT_PRINTED[4])) == tree(parse_tokens(NOT_PRINTED[4]))
    assert parse_hlo(NOT_PRINTED[4]).issues  # (the parser's E010)


_PIECES = [" ", "\n", ",", "(", ")", "{", "}", "[", "]", "=", '"', "//", "%", "ROOT ", "0", "x"]


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_any_edit_of_a_printed_text_reads_alike_or_is_left_to_the_parser(
    data: st.DataObject,
) -> None:
    """Random small edits of printed text: whatever the reader accepts, the parser reads the
    same way."""
    text = PRINTED
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["insert", "delete", "duplicate"]))
        if kind == "insert":
            text = text[:at] + data.draw(st.sampled_from(_PIECES)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + data.draw(st.integers(1, 3)) :]
        else:
            line_start = text.rfind("\n", 0, at) + 1
            line_end = text.find("\n", at)
            line = text[line_start : line_end + 1 if line_end >= 0 else len(text)]
            text = text[:line_start] + line + text[line_start:]
    assert_agrees(text)


def _dump(instructions: int) -> str:
    lines = ["HloModule big, entry_computation_layout={(f32[8,16]{1,0})->f32[8,16]{1,0}}\n\n"]
    lines.append("ENTRY main {\n  p0 = f32[8,16]{1,0} parameter(0)\n")
    previous = "p0"
    rng = random.Random(5)
    for i in range(instructions):
        opcode = rng.choice(["add", "multiply", "subtract"])
        lines.append(
            f"  {opcode}.{i} = f32[8,16]{{1,0}} {opcode}({previous}, p0), "
            f'metadata={{op_name="jit(f)/{opcode}" source_line={i}}}\n'
        )
        previous = f"{opcode}.{i}"
    lines.append(f"  ROOT t = (f32[8,16]{{1,0}}) tuple({previous})\n}}\n")
    return "".join(lines)


def test_a_dump_is_read_in_linear_time() -> None:
    assert_doubling_linear(_dump, read_printed, 4000)


def _long_line(n: int, broken: bool) -> str:
    operands = ", ".join(["f32[] p"] * n) + (", )" if broken else ")")
    value = '{op_name="' + "x/" * n + '" source_line=1}'
    return (
        "HloModule m\n\nENTRY e {\n  p = f32[] parameter(0)\n"
        f"  ROOT t = (f32[]) tuple({operands}, metadata={value}\n}}\n"
    )


@pytest.mark.parametrize("broken", [False, True], ids=["read", "left to the parser"])
def test_one_long_line_is_read_in_linear_time(broken: bool) -> None:
    """A line of thousands of operands and a long value; broken at its end, the reader
    scans it and gives up (no backtracking into it)."""
    assert (read_printed(_long_line(3, broken)) is None) == broken
    assert_doubling_linear(lambda n: _long_line(n, broken), read_printed, 4000)
