"""Issue 15 P7: one analysis per document version serves diagnostics and every feature; the
editor features' index reads the pass's analysis of each chunk, it does not run it again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from passlint.analysis.source import SourceText
from passlint.config import Settings
from passlint.passes.tensorizer_legalization import analysis as tl_analysis
from passlint.passes.tensorizer_legalization.analysis import analyze_file
from passlint.server import jobs
from passlint.server.convert import ClientFeatures
from passlint.server.mlir_index import build_index

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module

DATA = Path(__file__).resolve().parents[1] / "data" / "mlir"
TEXTS = {
    "pretty": mlir_module(2),
    "generic": mlir_module(2, generic=True),
    "hybrid": (DATA / "handmade__mhlo_fusion_hybrid.mlir").read_text(),
    "chunks": mlir_module(1) + "// -----\n" + (DATA / "jax__zero_size_arrays.mlir").read_text(),
}


def job(text: str) -> jobs.Job:
    return jobs.Job(
        "file:///m.mlir",
        "/m.mlir",
        1,
        text,
        Settings(),
        ("/",),
        {"/m.mlir": text},
        {"/m.mlir": "file:///m.mlir"},
        {"/m.mlir": 1},
        ClientFeatures(),
    )


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_each_chunk_is_analysed_once_per_version(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    class Counted(tl_analysis.ChunkAnalysis):  # made once by each analysis of a chunk
        def __init__(self, chunk, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(chunk)
            super().__init__(chunk, *args, **kwargs)

    monkeypatch.setattr(tl_analysis, "ChunkAnalysis", Counted)
    result = jobs.run_job(job(TEXTS[name]))
    assert not result.failed and result.index is not None
    assert len(calls) == len(result.index.chunks)
    assert len({id(chunk) for chunk in calls}) == len(calls)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_the_index_equals_one_built_from_a_fresh_analysis(name: str) -> None:
    text = TEXTS[name]
    result = jobs.run_job(job(text))
    from passlint import pipeline

    analysis = pipeline.analyze_document("/m.mlir", text)
    assert analysis.parsed is not None
    fresh = build_index(
        analysis.parsed, SourceText(text), analyze_file(analysis.parsed), analysis.findings
    )
    assert result.index == fresh
