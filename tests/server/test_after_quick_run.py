"""Work queued behind a large document's quick run (its line index) waits for that run on the
quick thread: it was queued ahead of it and held up the first answer of a 100 MB module by
0.17 s (the run's task submits its job only once the event loop runs it)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from passlint.server.scheduler import Document, Scheduler


async def test_work_after_the_quick_run_runs_after_it() -> None:
    order: list[str] = []

    def quick(job: str, memo: object) -> str:
        order.append("quick run")
        return job

    executor = ThreadPoolExecutor(max_workers=1)
    quick_thread = ThreadPoolExecutor(max_workers=1)
    scheduler: Scheduler[str, str] = Scheduler(
        executor,
        lambda document: document.text,
        str.upper,
        lambda *_: None,
        debounce=0,
        quick=quick,
        quick_executor=quick_thread,
        quick_size=4,
    )
    try:
        scheduler.update("file:///m.mlir", "/m.mlir", 1, "large text")
        scheduler.after_quick_run("file:///m.mlir", lambda: order.append("line index"))
        assert await asyncio.wait_for(scheduler.result("file:///m.mlir"), 5) == "LARGE TEXT"
        await asyncio.get_running_loop().run_in_executor(quick_thread, lambda: None)
        assert order == ["quick run", "line index"]
    finally:
        scheduler.shutdown()
        executor.shutdown()
        quick_thread.shutdown()


async def test_a_small_document_queues_nothing() -> None:
    executor = ThreadPoolExecutor(max_workers=1)
    scheduler: Scheduler[str, str] = Scheduler(
        executor,
        lambda document: document.text,
        str.upper,
        lambda *_: None,
        debounce=0,
        quick=lambda job, memo: job,
        quick_size=1 << 20,
    )
    try:
        document: Document = scheduler.update("file:///m.mlir", "/m.mlir", 1, "small")
        scheduler.after_quick_run("file:///m.mlir", lambda: None)
        assert document.after_quick == []
        await asyncio.wait_for(scheduler.result("file:///m.mlir"), 5)
    finally:
        scheduler.shutdown()
        executor.shutdown()
