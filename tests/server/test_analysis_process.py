"""The worker process for large documents keeps no document text in the server."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from passlint.analysis.mlir.ir import Operation
from passlint.config import Settings
from passlint.server.analysis_process import AnalysisPool
from passlint.server.convert import ClientFeatures
from passlint.server.jobs import Job, run_job

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module


def test_a_job_sent_to_the_worker_is_not_kept_in_the_server() -> None:
    pool = AnalysisPool()
    try:
        assert pool.submit(len, "").result(timeout=60) == 0  # the process is up
        tracemalloc.start()
        try:
            text = "x" * 8_000_000
            before = tracemalloc.get_traced_memory()[0]
            assert pool.submit(len, text).result(timeout=60) == len(text)
            deadline = time.monotonic() + 5
            while tracemalloc.get_traced_memory()[0] - before > 1_000_000:
                assert time.monotonic() < deadline, "the pickled job is still in the server"
                time.sleep(0.01)
        finally:
            tracemalloc.stop()
    finally:
        pool.shutdown()


def test_the_worker_runs_jobs_without_lsprotocol() -> None:
    """lsprotocol's types are 14 MB of the worker's memory it has no use for."""
    check = (
        "import sys, passlint.server.jobs; "
        "print(sorted(m for m in sys.modules if m.startswith(('lsprotocol', 'cattrs'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert loaded.stdout.strip() == "[]"


def test_each_call_is_followed_by_a_full_collection_in_the_worker() -> None:
    pool = AnalysisPool()
    try:
        before = pool.submit(gc.get_stats).result(timeout=60)[2]["collections"]
        assert pool.submit(len, "job").result(timeout=60) == 3
        after = pool.submit(gc.get_stats).result(timeout=60)[2]["collections"]
        assert after >= before + 2  # after the first get_stats, and after the job
    finally:
        pool.shutdown()


def _operations() -> int:
    return sum(isinstance(o, Operation) for o in gc.get_objects())


def test_a_jobs_ir_is_freed_before_its_result_is_sent() -> None:
    """The IR is most of an analysis' memory, in reference cycles: left to the collector, it
    would still be alive while the worker pickles the result (P9)."""
    text = mlir_module(3, generic=True)
    job = Job(
        "file:///m.mlir", "/m.mlir", 1, text, Settings(), ("/",), {}, {}, {}, ClientFeatures()
    )
    gc.collect()
    gc.disable()
    try:
        before = _operations()
        result = run_job(job)
        assert result.index is not None and not result.failed
        assert _operations() == before
    finally:
        gc.enable()
