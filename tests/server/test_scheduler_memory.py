"""What the scheduler keeps of a document's versions once they are superseded or closed, and
what a job carries (P9: during a burst of edits of a multi-megabyte dump, every text kept or
sent is megabytes)."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from passlint.server.analysis_process import analysis_process
from passlint.server.language_server import PasslintServer
from passlint.server.scheduler import Document, Scheduler


class Text(str):
    """A document text that can be watched (a ``str`` cannot be weakly referenced)."""


@pytest.fixture
def no_collector() -> Iterator[None]:
    """Only reference counting frees: what a reference cycle holds stays."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _until(condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_a_superseded_run_keeps_nothing_of_its_version(no_collector: None) -> None:
    release = threading.Event()
    started: list[str] = []
    results: list[str] = []

    def run(text: str) -> str:
        started.append(text[:2])
        release.wait(30)
        return text[:2]

    executor = ThreadPoolExecutor(max_workers=2)
    scheduler: Scheduler[str, str] = Scheduler(
        executor,
        lambda document: document.text,
        run,
        lambda _document, result, _refreshed, _provisional: results.append(result),
        debounce=0,
    )
    try:
        old = Text("v1" + "x" * 1000)
        scheduler.update("file:///m.mlir", "/m.mlir", 1, old)
        await _until(lambda: started == ["v1"])  # version 1 is being analysed
        watched = weakref.ref(old)
        del old
        for version in range(2, 6):  # a burst: each version supersedes the one before
            scheduler.update("file:///m.mlir", "/m.mlir", version, Text(f"v{version}" + "x" * 9))
            await asyncio.sleep(0.02)
        release.set()
        await _until(lambda: results == ["v5"])
        assert watched() is None, "the text of a superseded version is still alive"
    finally:
        release.set()
        scheduler.shutdown()


class _Pools:
    """The analysis processes a scheduler made."""

    def __init__(self) -> None:
        self.made: list[object] = []

    def __call__(self) -> object:
        pool = analysis_process()
        self.made.append(pool)
        return pool


async def test_closing_a_document_stops_its_analysis_in_the_worker_process() -> None:
    """The worker would go on analysing a closed document (the server holding its job
    meanwhile), and the next document's analysis would wait for it."""
    pools = _Pools()
    scheduler: Scheduler[float, None] = Scheduler(
        ThreadPoolExecutor(max_workers=1),
        lambda _document: 60.0,  # seconds of analysis
        time.sleep,
        lambda *_: None,
        debounce=0,
        heavy_executor=pools,  # type: ignore[arg-type]
        quick_size=10,
    )
    try:
        document = scheduler.update("file:///m.mlir", "/m.mlir", 1, "x" * 100)
        await _until(lambda: document.running is not None and document.running_heavy)
        (pool,) = pools.made
        processes = list(pool._processes.values())  # type: ignore[attr-defined]
        scheduler.close(document.uri)
        assert scheduler.heavy is None
        await _until(lambda: all(not process.is_alive() for process in processes), 10)
    finally:
        scheduler.shutdown()


def test_a_modules_job_carries_no_other_documents_text() -> None:
    """Jobs of large modules are pickled whole for the worker process."""
    server = PasslintServer(processes=False)
    try:
        for uri, path, text in (
            ("file:///big.mlir", "/big.mlir", "module {}\n"),
            ("file:///other.mlir", "/other.mlir", "x" * 1000),
            ("file:///k.py", "/k.py", "import pypto.language as pl\n"),
        ):
            server.scheduler.documents[uri] = Document(uri, path, 1, text)
        job = server.make_job(server.scheduler.documents["file:///big.mlir"])
        assert dict(job.texts) == {"/big.mlir": "module {}\n"}
        assert dict(job.uris) == {"/big.mlir": "file:///big.mlir"}
        kernel = server.make_job(server.scheduler.documents["file:///k.py"])
        assert set(kernel.texts) == {"/big.mlir", "/other.mlir", "/k.py"}  # the overlay
    finally:
        server.executor.shutdown()
        server.quick_executor.shutdown()
