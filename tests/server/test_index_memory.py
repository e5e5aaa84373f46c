"""Building the features' index of a version costs little memory beside its IR: it runs
while the whole IR is alive, at the analysis' peak (P9)."""

from __future__ import annotations

import pickle
import sys
import tracemalloc
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.source import SourceText
from passlint.server.mlir_index import Names, build_index

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module


@pytest.mark.parametrize("generic", [False, True])
def test_the_index_is_built_in_a_fraction_of_the_memory_of_the_ir(generic: bool) -> None:
    text = mlir_module(30, generic=generic)
    tracemalloc.start()
    try:
        analysis = pipeline.analyze_document("/m.mlir", text)
        assert analysis.parsed is not None
        analysed = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        index = build_index(analysis.parsed, SourceText(text), analysis.tensorizer, [])
        peak = tracemalloc.get_traced_memory()[1] - analysed
    finally:
        tracemalloc.stop()
    assert index.names
    assert peak < 0.4 * analysed  # 0.6 when uses and occurrences were tuples


def test_names_are_read_as_a_list_of_strings_would_be() -> None:
    names = Names()
    for name in ["%0", "main", "^bb1", "", "%arg0"]:
        names.append(name)
    names.seal()
    names.append("%1")
    assert len(names) == 6
    assert list(names) == ["%0", "main", "^bb1", "", "%arg0", "%1"]
    assert names[-1] == "%1" and names[1:3] == ["main", "^bb1"] and "^bb1" in names
    assert pickle.loads(pickle.dumps(names)) == names
    with pytest.raises(IndexError):
        names[6]


@pytest.mark.parametrize("generic", [False, True])
def test_the_index_unpickled_in_the_server_is_about_the_size_of_its_pickle(generic: bool) -> None:
    """The server holds the index of the latest version of each open document (P9): its
    tens of thousands of names are one string, not one object each."""
    text = mlir_module(30, generic=generic)
    analysis = pipeline.analyze_document("/m.mlir", text)
    assert analysis.parsed is not None
    data = pickle.dumps(build_index(analysis.parsed, SourceText(text), analysis.tensorizer, []))
    tracemalloc.start()
    try:
        index = pickle.loads(data)
        size = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(index.names) > 1000
    assert size < 1.3 * len(data)
