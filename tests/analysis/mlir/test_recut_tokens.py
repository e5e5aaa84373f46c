"""Ops do not keep their statement's tokens: ``Operation.toks`` cuts them again from the text,
and that cut must be exactly what the statement scanner gave (regions as ``REGION`` tokens,
no newlines). Ops whose tokens differ from a re-cut, or that validation reads, keep them."""

from __future__ import annotations

from pathlib import Path

import pytest
from ir_dump import recut_mismatches
from mlir_testing import CONSTRUCTS, DATA

from passlint.analysis.mlir.parser import parse_file

FILES = sorted(DATA.glob("*.mlir")) + sorted(CONSTRUCTS.glob("*.mlir"))

UNUSUAL = [
    # a closing bracket the scanner drops, inside a region op's header
    "func.func @main(%a: tensor<4xf32>)) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n",
    # a block reference (validation reads the tokens of ops that name blocks)
    "func.func @f(%c: i1) {\n  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n  return\n^bb2:\n  return\n}\n",
    # a statement across lines, with a comment inside and a region between its parts
    '%0 = "op.a"(%x,\n  // note\n  %y) ({\n  ^bb0(%z: f32):\n    "op.b"() : () -> ()\n}) : '
    "(f32,\n f32) -> f32\n",
    # a region left open at the end of the file
    'func.func @f() {\n  "op.b"() : () -> ()\n',
]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_recut_tokens_are_the_scanned_ones(path: Path) -> None:
    assert recut_mismatches(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("text", UNUSUAL)
def test_recut_tokens_of_unusual_statements(text: str) -> None:
    assert recut_mismatches(text) == []


def test_ops_keep_no_tokens_until_asked() -> None:
    parsed = parse_file((DATA / "jax__while_fori_loop.mlir").read_text(encoding="utf-8"))
    every = [op for chunk in parsed.chunks for top in chunk.operations for op in top.walk()]
    assert any(op.regions for op in every)
    assert all(op.tokens is None for op in every)
