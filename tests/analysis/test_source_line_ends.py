"""Lines end at \\n, \\r\\n or a lone \\r, as LSP counts them and CPython's tokenizer and MLIR's
lexer read them: positions, line texts and the line helpers of ``source``."""

from __future__ import annotations

import random
import re

import pytest

from passlint import pipeline
from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Position
from passlint.analysis.source import (
    SourceText,
    has_lone_cr,
    line_break,
    line_end,
    line_start,
    line_starts,
    split_lines,
)

BREAKS = re.compile(r"\r\n|\r|\n")  # (LSP's own wording of the rule)


def test_each_line_end_ends_a_line() -> None:
    source = SourceText("a\nb\r\nc\rd\r\re")
    assert source.line_starts == [0, 2, 5, 7, 9, 10]
    assert [source.line_text(n) for n in range(source.line_count)] == ["a", "b", "c", "d", "", "e"]
    assert source.position(8) == Position(3, 1)  # the lone \r after d
    assert source.position(4) == Position(1, 2)  # the \n of a CRLF is on its line
    assert source.offset(Position(1, 99)) == 3  # clamped before the CRLF
    assert source.offset(Position(3, 99)) == 8  # and before a lone \r
    assert split_lines("a\nb\r\nc\rd\r\re") == ["a", "b", "c", "d", "", "e"]
    assert SourceText("x\r").line_count == 2  # a lone \r at the end ends the last line


def test_lines_equal_lsps_on_random_texts() -> None:
    rng = random.Random(11)
    for _ in range(300):
        text = "".join(rng.choice(["a", "é", "\n", "\r", "\r\n", " "]) for _ in range(30))
        expected = [0, *(m.end() for m in BREAKS.finditer(text))]
        assert line_starts(text) == expected
        source, counted = SourceText(text), SourceText(text)
        _ = source.line_starts
        lines = BREAKS.split(text)
        assert [source.line_text(n) for n in range(source.line_count)] == lines
        for offset in range(len(text) + 1):
            line = max(n for n, start in enumerate(expected) if start <= offset)
            assert source.position(offset) == Position(line, offset - expected[line])
            assert counted.position(offset) == source.position(offset)
            assert line_start(text, offset) == expected[line]
            end = expected[line] + len(lines[line])
            assert line_end(text, offset) == end
        assert has_lone_cr(text) == bool(re.search(r"\r(?!\n)", text))
        for start in range(len(text) + 1):
            for end in range(start, len(text) + 1):
                part = text[start:end]
                assert has_lone_cr(text, start, end) == bool(re.search(r"\r(?!\n)", part))


def test_a_line_inserted_ends_as_its_neighbours_do() -> None:
    assert line_break("a\r\nb\r\n", 3) == "\r\n"
    assert line_break("a\rb\r", 2) == "\r"
    assert line_break("a\nb", 2) == "\n"  # (the last line has none: the one before it)
    assert line_break("a\r\nb", 3) == "\r\n"
    assert line_break("only", 1) == "\n"


PL_KERNEL = (
    "import pypto.language as pl\n"
    "\n"
    'VALID = pl.dynamic("VALID")\n'
    "\n"
    "\n"
    "@pl.function(type=pl.FunctionType.InCore)\n"
    "def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]):\n"
    "    return x\n"
)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_pl_finding_lands_on_its_line_whatever_the_line_ends(newline: str) -> None:
    """pl positions come from Python's ast, which ends lines as LSP does."""
    text = PL_KERNEL.replace("\n", newline)
    (found,) = pipeline.analyze("kernel.py", text)
    start, end = found.range.start, found.range.end
    assert (found.code, start.line, start.column, end.line, end.column) == ("VS001", 6, 70, 6, 75)
    assert found.fix is not None
    fixed = apply_edits(text, [edit for edit in found.fix.edits if edit.path == "kernel.py"])
    lf = pipeline.analyze("kernel.py", PL_KERNEL)[0].fix
    assert lf is not None
    expected = apply_edits(PL_KERNEL, [edit for edit in lf.edits if edit.path == "kernel.py"])
    assert fixed == expected.replace("\n", newline)
