"""When analysis runs: debounced per document, off the event loop, newest version only.

Each open document has a *key* ``(version, generation)``: an edit bumps the version, a
re-analysis request (settings changed, a dependency changed) bumps the generation. Every
change cancels the document's pending run and starts a new one after the debounce delay
(and a second more per 100 MB of the document).
Large documents also get a *quick* run right away, without the debounce, on its own
thread: a partial answer (the TL findings from @main's outline) that is shown until the
full run for the same key arrives (which starts after it); each document's ``memo`` is told
of every change of its text, so a quick run can reuse the last one's answer. A run executes
in the thread pool; a run that is already computing cannot be interrupted, so the next run
of the same document waits for it (one analysis per document at a time) and its result is
dropped. A result is only stored, published or handed to a waiting pull request when its
key is still the document's key, so a superseded version is never shown.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

log = logging.getLogger(__name__)

Key = tuple[int, int]
R = TypeVar("R")
J = TypeVar("J")


@dataclass(eq=False)
class Document:
    """An open document as the scheduler sees it."""

    uri: str
    path: str
    version: int
    text: str
    generation: int = 0
    task: asyncio.Task[None] | None = None
    running: asyncio.Future[Any] | None = None
    result: Any = None
    result_key: Key | None = None
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    closed: bool = False
    running_heavy: bool = False  # ``running`` is in the worker process
    quick_task: asyncio.Task[None] | None = None
    first_waiters: list[asyncio.Future[Any]] = field(default_factory=list)  # quick or full
    provisional: Any = None  # a quick result for ``provisional_key``, until the full one
    provisional_key: Key | None = None
    memo: Memo | None = None  # for the quick runs
    failure: tuple[Key, Exception] | None = None  # the scheduling of that key failed
    on_disk: int | None = None  # a file the analysis reads (its bytes), not given as ``text``
    after_quick: list[Callable[[], object]] = field(default_factory=list)  # ``after_quick_run``

    @property
    def key(self) -> Key:
        return self.version, self.generation

    @property
    def size(self) -> int:
        """How large the document is: its text's characters, or its file's bytes."""
        return len(self.text) if self.on_disk is None else self.on_disk


class Memo(Protocol):
    """What the quick runs of a document keep between them, told of each change."""

    def record(self, before: str, after: str, changes: list[Any] | None, version: int) -> None: ...


class SlowWork(Protocol):
    """Work-done progress for runs that take long: start, tell how far the run has come (a
    few times a second), ask whether cancelled, end."""

    async def start(self, document: Document) -> Any: ...

    def report(self, handle: Any, document: Document) -> None: ...

    def cancelled(self, handle: Any) -> bool: ...

    def end(self, handle: Any) -> None: ...


class Scheduler(Generic[J, R]):
    """Runs ``run(make_job(document))`` in ``executor`` and hands fresh results to
    ``on_result(document, result, refreshed, provisional)`` (``refreshed``: not caused by an
    edit; ``provisional``: a quick result the full one will replace)."""

    def __init__(
        self,
        executor: Executor,
        make_job: Callable[[Document], J],
        run: Callable[[J], R],
        on_result: Callable[[Document, R, bool, bool], None],
        slow_work: SlowWork | None = None,
        debounce: float = 0.15,
        slow_after: float = 0.5,
        big: int = 1_000_000,
        quick: Callable[[J, Any], R | None] | None = None,
        quick_executor: Executor | None = None,
        quick_size: int = 512 * 1024,
        heavy_executor: Callable[[], Executor] | None = None,
        quick_memo: Callable[[], Memo] | None = None,
        heavy_run: Callable[[J], R] | None = None,
        heavy_job: Callable[[J], J] | None = None,
        release_after: int = 1 << 62,
    ) -> None:
        self.executor = executor
        self.make_job = make_job
        self.run = run
        self.on_result = on_result
        self.slow_work = slow_work
        self.debounce = debounce
        self.slow_after = slow_after
        self.big = big  # documents this long (characters) show progress from the start
        self.quick = quick  # run(job, the document's memo)
        self.quick_memo = quick_memo
        self.quick_executor = quick_executor or executor
        self.quick_size = quick_size  # documents this long get a quick run first
        # Documents that long are analysed in another process (made on first use), so the
        # analysis does not hold the interpreter lock the event loop and quick runs need.
        self.heavy_factory = heavy_executor
        self.heavy: Executor | None = None
        self.heavy_run = heavy_run or run  # what runs a job there
        self.heavy_job = heavy_job  # a job as it is sent there (None: as it is)
        self.release_after = release_after  # a document this large stops the process after
        self._stopped: weakref.WeakSet[Executor] = weakref.WeakSet()  # by ``_stop_heavy``
        self.documents: dict[str, Document] = {}

    # -- document lifecycle ----------------------------------------------------------------

    def update(
        self,
        uri: str,
        path: str,
        version: int,
        text: str,
        changes: list[Any] | None = None,
        on_disk: int | None = None,
    ) -> Document:
        """A document was opened or changed (by ``changes``; None: replaced whole): analyse
        its new version. ``on_disk``: the document is a file of that many bytes, which the
        analysis reads (``text`` is empty: no quick runs)."""
        document = self.documents.get(uri)
        if document is None:
            document = Document(uri, path, version, text, on_disk=on_disk)
            self.documents[uri] = document
        else:
            if document.memo is not None:
                document.memo.record(document.text, text, changes, version)
            document.version, document.text, document.path = version, text, path
            document.on_disk = on_disk
        if not self._gets_quick_runs(document):
            # A memo keeps the texts of the changes it records until a quick run answers.
            document.memo = None
        elif document.memo is None and self.quick_memo is not None:
            document.memo = self.quick_memo()
        self._schedule(document, refreshed=False)
        return document

    def close(self, uri: str) -> None:
        document = self.documents.pop(uri, None)
        if document is None:
            return
        document.closed = True
        if document.running_heavy and document.running is not None and not document.running.done():
            # Its analysis would go on in the worker process, which holds its text there (and
            # the server holds the job until it ends); an analysis queued behind it would
            # wait for it.
            self._stop_heavy("its document was closed")
        for task in (document.task, document.quick_task):
            if task is not None:
                task.cancel()
        for waiter in [*document.waiters, *document.first_waiters]:
            waiter.cancel()
        document.waiters.clear()
        document.first_waiters.clear()

    def refresh(self, uris: list[str] | None = None) -> None:
        """Analyse documents again (all open ones by default) with unchanged text."""
        for uri in list(self.documents) if uris is None else uris:
            document = self.documents.get(uri)
            if document is not None:
                document.generation += 1
                self._schedule(document, refreshed=True)

    async def result(self, uri: str, provisional_ok: bool = False) -> R | None:
        """The result for the document's current key, waiting for it if needed; with
        ``provisional_ok``, a quick result will do when it comes first. Raises what made
        the scheduling of that key fail."""
        document = self.documents.get(uri)
        if document is None:
            return None
        if document.result_key == document.key:
            result: R = document.result
            return result
        if provisional_ok and document.provisional_key == document.key:
            quick: R = document.provisional
            return quick
        if document.failure is not None and document.failure[0] == document.key:
            raise document.failure[1].with_traceback(None)
        waiter: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        (document.first_waiters if provisional_ok else document.waiters).append(waiter)
        return await waiter

    def provisional(self, uri: str) -> R | None:
        """The quick result for the document's current key, when the full one is not in."""
        document = self.documents.get(uri)
        if document is None or document.provisional_key != document.key:
            return None
        if document.result_key == document.key:
            return None
        result: R = document.provisional
        return result

    def current(self, uri: str) -> R | None:
        """The stored result if it is for the document's current key, else None."""
        document = self.documents.get(uri)
        if document is None or document.result_key != document.key:
            return None
        result: R = document.result
        return result

    async def idle(self) -> None:
        """Wait until no run is pending (used at shutdown)."""
        tasks = [
            d.task for d in self.documents.values() if d.task is not None and not d.task.done()
        ]
        if tasks:
            await asyncio.wait(tasks)

    def cancel_all(self) -> None:
        for document in self.documents.values():
            if document.task is not None:
                document.task.cancel()

    # -- running ---------------------------------------------------------------------------

    def _schedule(self, document: Document, refreshed: bool) -> None:
        if document.task is not None and not document.task.done():
            document.task.cancel()
        loop = asyncio.get_running_loop()
        document.task = loop.create_task(self._guarded(document, document.key, refreshed))
        if self._gets_quick_runs(document):
            if document.quick_task is not None and not document.quick_task.done():
                document.quick_task.cancel()
            document.quick_task = loop.create_task(self._run_quick(document, document.key))

    def _gets_quick_runs(self, document: Document) -> bool:
        return (
            self.quick is not None
            and document.on_disk is None
            and (len(document.text) >= self.quick_size)
        )

    def after_quick_run(self, uri: str, work: Callable[[], object]) -> None:
        """Run ``work`` on the quick runs' thread once the document's next quick run is
        queued there, so that it does not hold up that run's answer (a large document's line
        index, wanted only at its first change). Dropped when the document closes first."""
        document = self.documents.get(uri)
        if document is not None and self._gets_quick_runs(document):
            document.after_quick.append(work)

    async def _run_quick(self, document: Document, key: Key) -> None:
        """The quick run: shown only while the full run for the same key is not in."""
        assert self.quick is not None
        job = self.make_job(document)
        try:
            loop = asyncio.get_running_loop()
            running = loop.run_in_executor(self.quick_executor, self.quick, job, document.memo)
            for work in document.after_quick:
                self.quick_executor.submit(work)
            document.after_quick.clear()
            result = await running
        except asyncio.CancelledError:
            return  # quietly: see ``_guarded``
        except Exception:
            log.exception("the quick analysis of %s failed", document.uri)
            return
        if result is None or document.key != key or document.closed:
            return
        if document.result_key == key:
            return  # the full result was faster
        document.provisional, document.provisional_key = result, key
        self._wake(document.first_waiters, document, result)
        self.on_result(document, result, False, True)

    async def _guarded(self, document: Document, key: Key, refreshed: bool) -> None:
        try:
            await self._run(document, key, refreshed)
        except asyncio.CancelledError:
            # A cancelled run ends quietly. A task that ends cancelled keeps its
            # CancelledError, whose traceback holds the frames of the run: its job (a text
            # of the document), the worker pool it was sent to (which keeps its jobs once
            # stopped), the document. They are in a reference cycle with the task, kept until
            # the collector's next full collection: during a burst of edits, one old text
            # per edit.
            return
        except Exception as error:
            log.exception("scheduling the analysis of %s failed", document.uri)
            # Whoever waits for this version's result would wait for good: it fails them.
            if document.key == key:
                self._fail(document, key, error)

    @staticmethod
    def _fail(document: Document, key: Key, error: Exception) -> None:
        document.failure = (key, error)
        pending = [*document.waiters, *document.first_waiters]
        document.waiters.clear()
        document.first_waiters.clear()
        for waiter in pending:
            if not waiter.done():
                waiter.set_exception(error)

    async def _run(self, document: Document, key: Key, refreshed: bool) -> None:
        # A large document waits longer, a second per 100 MB: its analysis takes seconds and
        # would be stopped by the next keystroke (and take the cores the edits need).
        await asyncio.sleep(self.debounce + document.size / 100e6)
        quick = document.quick_task
        if quick is not None and not quick.done():
            # Starting the full run (and stopping a superseded one) takes the cores the
            # quick run needs: let it answer first.
            await asyncio.wait([quick])
        while document.running is not None and not document.running.done():
            if document.running_heavy:
                # A superseded analysis in the worker process is stopped with the process.
                self._stop_heavy()
            # A thread cannot be interrupted: let the superseded run finish first.
            superseded = document.running
            await asyncio.wait([superseded])
            if not superseded.cancelled():
                superseded.exception()  # its failure (a stopped process) is expected
        if document.key != key or document.closed:
            return
        job = self.make_job(document)
        executor = self._executor_for(document)
        while True:
            run = self.heavy_run if executor is self.heavy else self.run
            sent = job
            if executor is self.heavy and self.heavy_job is not None:
                sent = self.heavy_job(job)
            future = asyncio.get_running_loop().run_in_executor(executor, run, sent)
            document.running, document.running_heavy = future, executor is self.heavy
            try:
                result = await self._await_run(document, future)
                if executor is self.heavy and document.size >= self.release_after:
                    # Its memory (a few hundred megabytes for a large module: the process
                    # keeps what it freed) goes back to the system; the next run starts a
                    # new process.
                    self._stop_heavy("the analysis of a large document is done")
                break
            except (BrokenExecutor, asyncio.CancelledError) as error:
                stopped = executor in self._stopped
                task = asyncio.current_task()
                if isinstance(error, asyncio.CancelledError) and (
                    not stopped or (task is not None and task.cancelling())
                ):
                    raise
                if executor is self.executor:
                    raise
            if document.key != key or document.closed:
                return  # stopped because a newer version came
            if stopped:
                # Stopped for another document's newer version: again, in a new process
                # (from a thread, this analysis would hold up the event loop).
                executor = self._executor_for(document)
            else:
                # The analysis process died (killed, out of memory): start a new one next
                # time and answer this time from a thread.
                log.error("the analysis process died while analysing %s", document.uri)
                self.heavy, executor = None, self.executor
        if result is _CANCELLED or document.key != key or document.closed:
            log.debug("dropping the result for %s %s (now %s)", document.uri, key, document.key)
            return
        document.result, document.result_key = result, key
        self._wake(document.waiters, document, result)
        self._wake(document.first_waiters, document, result)
        self.on_result(document, result, refreshed, False)

    @staticmethod
    def _wake(waiters: list[asyncio.Future[Any]], document: Document, result: Any) -> None:
        pending = list(waiters)
        waiters.clear()
        for waiter in pending:
            if not waiter.done():
                waiter.set_result(result)

    def _executor_for(self, document: Document) -> Executor:
        if self.heavy_factory is None or document.size < self.quick_size:
            return self.executor
        if self.heavy is None:
            self.heavy = self.heavy_factory()
        return self.heavy

    def _stop_heavy(self, why: str = "its document has a newer version") -> None:
        """Stop the worker process (and what it computes); the next run makes a new one."""
        pool, self.heavy = self.heavy, None
        if pool is None:
            return
        self._stopped.add(pool)
        log.info("stopping the analysis process: %s", why)
        processes = getattr(pool, "_processes", None) or {}  # pid -> multiprocessing.Process
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        self.cancel_all()
        for executor in (self.executor, self.quick_executor, self.heavy):
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)

    async def _await_run(self, document: Document, future: asyncio.Future[R]) -> Any:
        """The run's result; work-done progress when it takes long or the document is big
        (the user may cancel: the result is then dropped)."""
        # asyncio.wait never cancels what it waits for: a cancelled run keeps its thread's
        # future, so the next run can wait for it.
        wait = 0.0 if document.size >= self.big else self.slow_after
        done, _ = await asyncio.wait([future], timeout=wait)
        if done or self.slow_work is None:
            await asyncio.wait([future])
            return future.result()
        handle = await self.slow_work.start(document)
        try:
            while True:
                done, _ = await asyncio.wait([future], timeout=0.1)
                if done:
                    return future.result()
                if handle is not None:
                    self.slow_work.report(handle, document)
                if handle is not None and self.slow_work.cancelled(handle):
                    log.info("analysis of %s cancelled from the client", document.uri)
                    return _CANCELLED
        finally:
            if handle is not None:
                self.slow_work.end(handle)


_CANCELLED: Any = object()
