"""A failure of the scheduler itself (making a document's job raised: a bug, or a path the
file system refused before ``uris``) fails whoever waits for that version's result; they
waited for good before (a pull of diagnostics, a hover, a fix-all never answered)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from passlint.server.scheduler import Document, Scheduler


async def test_a_job_that_cannot_be_made_fails_the_waiters() -> None:
    def make_job(document: Document) -> str:
        raise OSError(36, "File name too long")

    executor = ThreadPoolExecutor(max_workers=1)
    scheduler: Scheduler[str, str] = Scheduler(
        executor, make_job, str.upper, lambda *_: None, debounce=0
    )
    try:
        scheduler.update("file:///m.mlir", "/m.mlir", 1, "text")
        with pytest.raises(OSError, match="File name too long"):
            await asyncio.wait_for(scheduler.result("file:///m.mlir"), 5)
        with pytest.raises(OSError, match="File name too long"):
            await asyncio.wait_for(scheduler.result("file:///m.mlir", provisional_ok=True), 5)
    finally:
        scheduler.shutdown()
        executor.shutdown()
