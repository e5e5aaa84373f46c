"""Building the features' index of a version costs little memory beside its IR: it runs
while the whole IR is alive, at the analysis' peak (P9)."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import pytest

from passlint.analysis import engine
from passlint.analysis.source import SourceText
from passlint.server.mlir_index import build_index

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module


@pytest.mark.parametrize("generic", [False, True])
def test_the_index_is_built_in_a_fraction_of_the_memory_of_the_ir(generic: bool) -> None:
    text = mlir_module(30, generic=generic)
    tracemalloc.start()
    try:
        analysis = engine.analyze_document("/m.mlir", text)
        assert analysis.parsed is not None
        analysed = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        index = build_index(analysis.parsed, SourceText(text), analysis.tensorizer, [])
        peak = tracemalloc.get_traced_memory()[1] - analysed
    finally:
        tracemalloc.stop()
    assert index.names
    assert peak < 0.4 * analysed  # 0.6 when uses and occurrences were tuples
