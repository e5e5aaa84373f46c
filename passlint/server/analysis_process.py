"""The worker process that analyses large documents off the server's interpreter lock, with
a memo of its own (``run_in_worker``)."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, ParamSpec, TypeVar

from passlint.lifetime import serve_until_gone
from passlint.memo import Memo
from passlint.server.allocator import map_large_blocks
from passlint.server.jobs import ConvertedFindings, Job, Result, run_job, warm_up

P = ParamSpec("P")
T = TypeVar("T")


class AnalysisPool(ProcessPoolExecutor):
    """One worker process, started by the fork server (a clean process: the server's
    threads are not forked). It ends with the server, however the server ends
    (``start_worker``).

    Each call is followed by a full garbage collection in the process. It frees the IR of
    the analysis that just ended (millions of objects in cycles, which would otherwise still
    be there while the next analysis builds its own) while the process waits, and it is a
    message of its own: the thread that sends calls to the process keeps the last message
    it pickled until it pickles the next, and a job's message holds the document's text
    (7.7 MB kept in the server until the next analysis, otherwise)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("forkserver")
        # What the analysis running there has read of its document: bytes read, of how
        # many (a large module's reading, for the progress the server reports).
        self.reading = context.Array("q", 2, lock=False)
        super().__init__(
            max_workers=1,
            mp_context=context,
            initializer=start_worker,
            initargs=(os.getpid(), self.reading),
        )

    def read(self) -> tuple[int, int]:
        """Bytes read by the analysis running there, of how many (0, 0: none says)."""
        done, total = self.reading[:]
        return done, total

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future = super().submit(fn, *args, **kwargs)
        super().submit(gc.collect)
        return future


# In the worker process only: its memo, converted diagnostics and what it tells of its
# reading, made by ``start_worker`` (a pool's calls reach the process's state through its
# modules alone); None in the server.
_worker: tuple[Memo, ConvertedFindings, Any] | None = None


def start_worker(server: int, reading: Any) -> None:
    """In the worker, first: end when process ``server`` ends (the worker's parent is the
    fork server, not the server; and the worker holds the write ends of its own job queue
    and of the fork server's "alive" pipe, so neither would ever tell it or the fork server
    that the server is gone), map large blocks, and make the process's memo and converted
    diagnostics; ``reading``: where it tells the bytes it has read (``AnalysisPool``)."""
    global _worker
    serve_until_gone(server)
    map_large_blocks()
    _worker = Memo(), ConvertedFindings(), reading


def run_in_worker(job: Job) -> Result:
    """``run_job`` in the worker process, with the process's memo and converted diagnostics,
    telling its reading of a large module."""
    assert _worker is not None
    memo, converted, reading = _worker
    reading[0] = reading[1] = 0

    def read(done: int, total: int) -> None:
        reading[1], reading[0] = total, done

    try:
        return run_job(job, memo, converted, read)
    finally:
        reading[0] = reading[1] = 0


def _warm_up() -> None:
    assert _worker is not None
    warm_up(_worker[0])


def analysis_process() -> AnalysisPool:
    """A new worker process, warmed up at once."""
    pool = AnalysisPool()
    pool.submit(_warm_up)
    return pool
