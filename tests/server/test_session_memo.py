"""Each server session owns its memo (and its converted diagnostics): its analyses (in its
threads, quick or full), its pl models and its navigation use it, and two sessions in one
process share none; the analysis process analyses with a memo of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from passlint.config import Settings
from passlint.memo import Memo
from passlint.server import language_server
from passlint.server.analysis_process import analysis_process, run_in_worker
from passlint.server.convert import ClientFeatures
from passlint.server.jobs import ConvertedFindings, Job, Result, run_job
from passlint.server.language_server import PasslintServer
from passlint.server.models import build_pl_model

MODULE = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n"
)
KERNEL = "import pypto.language as pl\n\n\n@pl.function\ndef k(x: pl.Tensor[[4], pl.FP32]):\n    return x\n"


# In the analysis process: how many line shapes its memo keeps.
WORKER_SHAPES = (
    "len(__import__('passlint.server.analysis_process', fromlist=['_'])._worker[0].mlir.shapes)"
)


def job(path: str, text: str) -> Job:
    uri = f"file://{path}"
    return Job(
        uri,
        path,
        1,
        text,
        Settings(),
        ("/",),
        {path: text},
        {path: uri},
        {path: 1},
        ClientFeatures(),
    )


@pytest.fixture
def servers() -> Iterator[tuple[PasslintServer, PasslintServer]]:
    made = PasslintServer(processes=False), PasslintServer(processes=False)
    yield made
    for server in made:
        server.executor.shutdown()
        server.quick_executor.shutdown()


def test_two_sessions_do_not_share_a_memo(
    servers: tuple[PasslintServer, PasslintServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = servers
    assert first.session.memo is not second.session.memo
    assert first.session.models.memo is first.session.memo
    used: list[tuple[Memo | None, ConvertedFindings | None]] = []

    def recorded(
        job: Job, memo: Memo | None = None, converted: ConvertedFindings | None = None
    ) -> Result:
        used.append((memo, converted))
        return run_job(job, memo, converted)

    monkeypatch.setattr(language_server, "run_job", recorded)
    for server in servers:
        assert not server.run_job(job("/m.mlir", MODULE)).failed
    assert used == [
        (first.session.memo, first.session.converted),
        (second.session.memo, second.session.converted),
    ]
    assert first.session.converted is not second.session.converted
    assert first.session.memo.mlir.shapes and second.session.memo.mlir.shapes


def test_a_quick_run_uses_the_sessions_memo(
    servers: tuple[PasslintServer, PasslintServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    used: list[object] = []
    monkeypatch.setattr(
        language_server, "run_quick_job", lambda job, memo, run_memo: used.append(run_memo)
    )
    for server in servers:
        server.run_quick_job(job("/m.mlir", MODULE), None)
    assert used == [servers[0].session.memo, servers[1].session.memo]


def test_a_pl_model_resolves_in_the_memo_it_was_built_with() -> None:
    memo = Memo()
    model = build_pl_model("/k.py", KERNEL, None, memo)
    assert model is not None and model.memo is memo.pl and memo.pl.pieces.pieces
    reference = build_pl_model("/k.py", KERNEL, None)
    assert reference is not None and reference.memo is None


def test_the_analysis_process_analyses_with_its_own_memo() -> None:
    pool = analysis_process()
    try:
        kept_before = pool.submit(eval, WORKER_SHAPES).result(timeout=120)
        result = pool.submit(run_in_worker, job("/m.mlir", MODULE)).result(timeout=120)
        kept_after = pool.submit(eval, WORKER_SHAPES).result(timeout=120)
    finally:
        pool.shutdown()
    reference = run_job(job("/m.mlir", MODULE))
    assert not result.failed and result.diagnostics_text == reference.diagnostics_text
    assert kept_after > kept_before  # the job's shapes are kept in the process's memo
