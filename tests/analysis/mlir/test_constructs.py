"""Issue 26, point 3: MLIR's builtin syntax in every form its parser reads (func.func
declarations, type and attribute aliases, module forms) reads without an E code and gives
the TL findings the pass's reading implies. The fixtures are under
tests/data/mlir/constructs/; each chunk of the ones listed here is accepted by jaxlib (the
opt-in check below)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mlir_testing import CONSTRUCTS, lc

from passlint.analysis import engine
from passlint.analysis.mlir.parser import parse_file, split_chunks
from passlint.passes.tensorizer_legalization import legalize_text

# Fixture -> the codes of its findings, in order, with the 1-based line and column of each.
EXPECTED: dict[str, list[tuple[str, int, int]]] = {
    "declarations.mlir": [("TL001", 27, 10)],
}


def findings(name: str) -> list[tuple[str, int, int]]:
    text = (CONSTRUCTS / name).read_text(encoding="utf-8")
    found = engine.analyze(name, text)
    return [(f.code, f.range.start.line + 1, f.range.start.column + 1) for f in found]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_construct_reads_without_errors_and_gives_its_findings(name: str) -> None:
    text = (CONSTRUCTS / name).read_text(encoding="utf-8")
    assert [(e.message, lc(text, e.start)) for e in parse_file(text).errors] == []
    assert findings(name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_construct_legalizes_to_text_that_reads_without_errors(name: str) -> None:
    legalized = legalize_text((CONSTRUCTS / name).read_text(encoding="utf-8"))
    assert parse_file(legalized).errors == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_jaxlib_accepts_every_chunk_of_the_construct(name: str) -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from jaxlib_oracle import Oracle

    text = (CONSTRUCTS / name).read_text(encoding="utf-8")
    oracle = Oracle()
    try:
        for start, end in split_chunks(text):
            chunk = text[start:end]
            legalized = legalize_text(chunk)
            assert oracle.verdict(chunk).kind == "ok", chunk
            assert oracle.verdict(legalized).kind == "ok", legalized
    finally:
        oracle.close()
