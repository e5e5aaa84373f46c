"""The pygls server passlint runs: its transport (pygls' loops, reading through
``framing``), the scheduler it analyses with, what it sends the client unasked (published
diagnostics, refresh requests, messages, watcher registration) and what it asks of it
(settings). The client's state is the ``session``; the handlers are in ``server``."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import FeatureRequestError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from passlint import __version__, pipeline
from passlint.quick import QuickMemo
from passlint.server import framing
from passlint.server.analysis_process import AnalysisPool, analysis_process, run_in_worker
from passlint.server.jobs import Job, Result, run_job, run_quick_job
from passlint.server.progress import ProgressWork
from passlint.server.protocol import PasslintProtocol
from passlint.server.scheduler import Document, Scheduler
from passlint.server.session import Session
from passlint.server.session.client import SECTION, supports

if TYPE_CHECKING:
    from typing import BinaryIO

    from pygls.server import ServerErrors

    from passlint.server.client_log import ClientLog

log = logging.getLogger(__name__)

WATCHED = ("**/*.py", "**/pyproject.toml", "**/passlint.toml")


class PasslintServer(LanguageServer):
    def __init__(self, debounce: float = 0.15, processes: bool = True) -> None:
        super().__init__(
            "passlint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=PasslintProtocol,
        )
        # The log records sent to the client (``passlint serve`` installs it; see client_log).
        self.client_log: ClientLog | None = None
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="passlint")
        self.quick_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quick")
        self.scheduler: Scheduler[Job, Result] = Scheduler(
            self.executor,
            self.make_job,
            self.run_job,
            self.on_result,
            ProgressWork(self, self.reading),
            debounce=debounce,
            quick=self.run_quick_job,
            quick_executor=self.quick_executor,
            heavy_executor=analysis_process if processes else None,
            quick_memo=QuickMemo,
            heavy_run=run_in_worker,
            heavy_job=self.job_for_process,
            release_after=pipeline.STREAM_MIN,
        )
        self.session = Session(self.scheduler, self.executor)
        self._refresh_requested = False

    # -- transport ---------------------------------------------------------------------------

    @property
    def passlint_protocol(self) -> PasslintProtocol:
        assert isinstance(self.protocol, PasslintProtocol)
        return self.protocol

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve the client on standard input and output until it leaves."""
        self._stop_event = stop = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        read = framing.stdin_reader(stdin or sys.stdin.buffer, self.thread_pool)
        try:
            asyncio.run(framing.read_messages(read, self.passlint_protocol.receive, stop))
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]

    def start_tcp(self, host: str, port: int) -> None:
        """Serve one client at a time on a TCP port."""
        self._stop_event = stop = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            reading = framing.stream_reader(reader)
            await framing.read_messages(reading, self.passlint_protocol.receive, stop)
            self.shutdown()  # type: ignore[no-untyped-call]

        async def serve() -> None:
            self._server = listening = await asyncio.start_server(connection, host, port)
            async with listening:
                await listening.serve_forever()

        try:
            asyncio.run(serve())
        except asyncio.CancelledError:
            log.debug("the TCP server was cancelled")

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
        """pygls shows an error it caught outside a request in a window ("Error in server");
        passlint logs it, once, and shows nothing (a request's error is its answer, logged
        where pygls caught it)."""
        if source is FeatureRequestError:
            return
        data = getattr(error, "data", None)
        frames = data.get("traceback") if isinstance(data, dict) else None
        trace = "\nTraceback (most recent call last):\n" + "".join(frames) if frames else ""
        log.error("%s%s", error, trace)

    def supports(self, path: str) -> bool:
        """Whether the client capabilities hold a truthy value at the dotted ``path``."""
        return supports(self.client_capabilities, path)

    # -- the scheduler's callbacks -----------------------------------------------------------

    def run_job(self, job: Job) -> Result:
        """The analysis of a version in a thread of this process, with the session's memo
        and converted diagnostics (in the analysis process: ``run_in_worker``, with that
        process's)."""
        return run_job(job, self.session.memo, self.session.converted)

    def run_quick_job(self, job: Job, memo: QuickMemo | None) -> Result | None:
        """The quick analysis of a version, with the document's ``memo`` and the session's."""
        return run_quick_job(job, memo, self.session.memo)

    def reading(self, document: Document) -> tuple[int, int] | None:
        """What the analysis process has read of ``document`` (for its progress)."""
        pool = self.scheduler.heavy
        if not document.running_heavy or not isinstance(pool, AnalysisPool):
            return None
        return pool.read()

    def job_for_process(self, job: Job) -> Job:
        return self.session.job_for_process(job)

    def make_job(self, document: Document) -> Job:
        job = self.session.job(document)
        for error in self.session.settings.take_errors():
            self.show_error(f"passlint configuration error: {error}")
        return job

    def on_result(
        self, document: Document, result: Result, refreshed: bool, provisional: bool = False
    ) -> None:
        session = self.session
        if not provisional and isinstance(document.memo, QuickMemo):
            document.memo.full(result.version, result.findings)  # carried into quick answers
        if not session.pull:
            self.passlint_protocol.notify_json(
                types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                f'{{"uri":{json.dumps(document.uri)},"version":{document.version},'
                f'"diagnostics":{result.diagnostics_text}}}',
            )
        elif provisional:
            return
        elif (refreshed or document.uri in session.owe_refresh) and self.can_refresh():
            session.owe_refresh.discard(document.uri)
            self.request_refresh()

    # -- to the client -----------------------------------------------------------------------

    def can_refresh(self) -> bool:
        """Can we ask a pull client to pull again (so a quick answer may come first)?"""
        return self.supports("workspace.diagnostics.refresh_support")

    def request_refresh(self) -> None:
        """Ask a pull client to pull again (coalesced: one request per loop turn)."""
        if self._refresh_requested:
            return
        self._refresh_requested = True

        def send() -> None:
            self._refresh_requested = False
            self.workspace_diagnostic_refresh(None)

        asyncio.get_running_loop().call_later(0.05, send)

    def show_error(self, message: str) -> None:
        log.error("%s", message)
        self.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Error, message=message)
        )

    def show(self, kind: types.MessageType, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def clear_diagnostics(self, uri: str) -> None:
        """A push client's diagnostics of a closed document go."""
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    async def load_client_settings(self) -> None:
        if self.supports("workspace.configuration"):
            try:
                answer = await self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
                )
                self.session.settings.set_client_section(answer[0] if answer else None)
            except Exception:
                log.warning("workspace/configuration failed", exc_info=True)

    async def watch_files(self) -> None:
        """Ask the client to report changes to the files analyses read (``WATCHED``), when
        it can."""
        if not self.supports("workspace.did_change_watched_files.dynamic_registration"):
            return
        self.session.watching = True
        watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]
        await self.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="passlint-watched-files",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=watchers
                        ),
                    )
                ]
            )
        )
