"""The tokens of lines cut once per distinct line text (``LineTable.tokens``) are the tokens
``tokenize`` cuts from the same range of the file, wherever the line stands and however it
is indented, with the cache warm, cold or reset at its bound."""

from __future__ import annotations

import pytest
from mlir_testing import CONSTRUCTS, DATA

from passlint.analysis.mlir.fast.lines import LineTable
from passlint.analysis.mlir.lexer import Tok, tokenize
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.seen_twice import SeenTwice

FILES = sorted(DATA.glob("*.mlir")) + sorted(CONSTRUCTS.glob("*.mlir"))
REPEATED = """\
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%arg0, %arg0) {
      // a comment line
    } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
\t%1 = "stablehlo.add"(%0, %0) {
    } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\r
  %2 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>   // trailing comment
  %3 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %1 : tensor<4xf32>
}
"""


def _every_range(text: str, memo: MlirMemo | None = None) -> list[tuple[list[Tok], list[Tok]]]:
    """(cut by line, cut by ``tokenize``) for every line and for the whole chunk."""
    table = LineTable(text, 0, len(text), memo)
    pairs = []
    for line in range(len(table)):
        by_line: list[Tok] = []
        table.tokens(line, line, by_line)
        pairs.append((by_line, tokenize(text, table.starts[line], table.line_end(line))))
    whole: list[Tok] = []
    table.tokens(0, len(table) - 1, whole)
    pairs.append((whole, tokenize(text, 0, len(text))))
    return pairs


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_lines_cut_as_tokenize_cuts_them(path: object) -> None:
    text = path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    for memo in (None, MlirMemo()):
        for by_line, by_tokenize in _every_range(text, memo):
            assert by_line == by_tokenize


def test_a_repeated_line_has_its_own_offsets() -> None:
    memo = MlirMemo()
    for _ in range(3):  # cold, then kept, then read from the cache
        for by_line, by_tokenize in _every_range(REPEATED, memo):
            assert by_line == by_tokenize
    assert 0 < len(memo.cut_lines.kept) < REPEATED.count("\n")  # (repeated lines: one entry)


def test_a_line_seen_once_is_not_kept() -> None:
    memo = MlirMemo()
    text = "".join(f"%{n} = stablehlo.add %a{n}, %b{n} : tensor<4xf32>\n" for n in range(50))
    table = LineTable(text, 0, len(text), memo)
    cut: list[Tok] = []
    table.tokens(0, len(table) - 1, cut)
    assert cut == tokenize(text)
    assert not memo.cut_lines.kept and len(memo.cut_lines.seen) == 50


def test_the_cache_starts_afresh_at_its_bound() -> None:
    memo = MlirMemo(cut_lines=SeenTwice(12))
    for _ in range(3):
        for by_line, by_tokenize in _every_range(REPEATED, memo):
            assert by_line == by_tokenize
            assert memo.cut_lines.held <= 12 or len(memo.cut_lines.kept) == 1
            assert len(memo.cut_lines.seen) <= SeenTwice.SEEN_LIMIT
