"""The passlint language server: state, and one small handler per LSP feature.

Handlers read like a table of contents: each converts the request, calls a pure helper
(``convert``, ``actions``, ``hover``, ``inlay``, ``symbols``, ``navigation``) and converts the
answer back. Analysis runs in the ``scheduler``; nothing here analyses anything itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import threading
import uuid
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from passlint import __version__, roots
from passlint import pipeline as engine  # (server.py is being split: renamed after)
from passlint.analysis.source import SourceText
from passlint.analysis.text_change import TextChange
from passlint.filesystem import Boundary
from passlint.quick import QuickMemo
from passlint.server import (
    actions,
    completion,
    folding,
    framing,
    hover,
    inlay,
    locations,
    navigation,
    pl_assist,
    rename,
    suppress,
    symbols,
)
from passlint.server.analysis_process import analysis_process
from passlint.server.convert import ClientFeatures, JsonData, SnapshotFiles, range_json
from passlint.server.jobs import PL_MEMO, Job, Result, run_job, run_quick_job
from passlint.server.lsp_objects import char_offset, span_range, workspace_edit
from passlint.server.models import ModelCache, PlModel, workspace_for
from passlint.server.protocol import PasslintProtocol
from passlint.server.quoting import shown
from passlint.server.scheduler import Document, Scheduler
from passlint.server.settings import SettingsStore
from passlint.server.text_sync import TextSync
from passlint.server.uris import document_path, folder_path, on_disk
from passlint.server.views import EditLog, MlirView, Shift, source_with_lines

if TYPE_CHECKING:
    from typing import BinaryIO

    from pygls.server import ServerErrors

log = logging.getLogger(__name__)

SECTION = "passlint"
LEGALIZED_MODULE = "passlint.legalizedModule"
FIX_ALL = "passlint.fixAll"
WATCHED = ("**/*.py", "**/pyproject.toml", "**/passlint.toml")
CONFIG_FILES = ("pyproject.toml", "passlint.toml")


class ProgressWork:
    """Server-initiated work-done progress for analyses the user waits on."""

    def __init__(self, server: PasslintServer) -> None:
        self.server = server

    async def start(self, document: Document) -> Any:
        window = self.server.client_capabilities.window
        if window is None or not window.work_done_progress:
            return None
        token = f"passlint-{uuid.uuid4().hex}"
        progress = self.server.work_done_progress
        try:
            await progress.create_async(token)
        except Exception:
            log.debug("the client refused a progress token", exc_info=True)
            return None
        name = os.path.basename(document.path)
        progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title="passlint", message=f"Analysing {name}", cancellable=True
            ),
        )
        return token

    def cancelled(self, handle: Any) -> bool:
        future = self.server.work_done_progress.tokens.get(handle)
        return future is not None and future.cancelled()

    def end(self, handle: Any) -> None:
        self.server.work_done_progress.end(handle, types.WorkDoneProgressEnd())
        self.server.work_done_progress.tokens.pop(handle, None)


class PasslintServer(LanguageServer):
    def __init__(self, debounce: float = 0.15, processes: bool = True) -> None:
        super().__init__(
            "passlint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=PasslintProtocol,
        )
        self.settings = SettingsStore()
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="passlint")
        self.quick_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quick")
        self.scheduler: Scheduler[Job, Result] = Scheduler(
            self.executor,
            self.make_job,
            run_job,
            self.on_result,
            ProgressWork(self),
            debounce=debounce,
            quick=run_quick_job,
            quick_executor=self.quick_executor,
            heavy_executor=analysis_process if processes else None,
            quick_memo=QuickMemo,
        )
        self.owe_refresh: set[str] = set()  # pull documents answered with a quick result
        self.text_sync = TextSync()
        self.edits = EditLog()  # each document's changes by version, for ``mlir_view``
        self._sources: dict[str, tuple[int, SourceText]] = {}  # current text with its lines
        self.models = ModelCache(self.executor)
        self.pull = False
        self.features = ClientFeatures()
        self.folders: dict[str, str] = {}  # the editor's workspace folders: URI -> real path
        self._projects: dict[str, str | None] = {}  # the project of each folder (``roots_for``)
        self._refresh_requested = False
        self.watching = False  # the client reports file changes: analyses share the disk side
        self.disk_generation = 0  # file changes reported

    # -- transport: pygls' loops, reading through ``framing`` ---------------------------------

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

    # -- client capabilities -----------------------------------------------------------------

    def learn_client(self, params: types.InitializeParams) -> None:
        caps = params.capabilities
        text = caps.text_document
        self.pull = text is not None and text.diagnostic is not None
        publish = text.publish_diagnostics if text is not None else None
        tag_support = publish.tag_support if publish is not None else None
        edit = caps.workspace.workspace_edit if caps.workspace is not None else None
        # codeDescription and relatedInformation are optional fields that clients without
        # support ignore, so every client gets them; tags are limited to what it knows.
        hover_caps = text.hover if text is not None else None
        formats = list(hover_caps.content_format or []) if hover_caps is not None else []
        markdown = next(
            (f == types.MarkupKind.Markdown for f in formats if f in _MARKUP_KINDS), False
        )
        self.features = ClientFeatures(
            tags=frozenset(int(t) for t in tag_support.value_set) if tag_support else frozenset(),
            document_changes=bool(edit and edit.document_changes),
            markdown=markdown,
        )
        folders = [f.uri for f in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [params.root_uri]
        elif not folders and params.root_path:
            folders = [from_fs_path(params.root_path) or ""]
        self.change_folders(added=folders, removed=[])
        options = params.initialization_options
        if isinstance(options, Mapping):
            section = options.get(SECTION, options.get("settings", options))
            self.settings.set_client_section(section)
        log.info(
            "client %s: %s diagnostics, roots %s",
            params.client_info.name if params.client_info else "?",
            "pull" if self.pull else "push",
            ", ".join(self.roots) or "none",
        )

    def supports(self, path: str) -> bool:
        """Whether the client capabilities hold a truthy value at the dotted ``path``."""
        value: Any = self.client_capabilities
        for part in path.split("."):
            value = getattr(value, part, None)
            if value is None:
                return False
        return bool(value)

    # -- documents ---------------------------------------------------------------------------

    def path_of(self, uri: str) -> str:
        """The document's file (``uris.document_path``: its URI when it is no file)."""
        return document_path(uri)

    def files(self, reader: str | None = None) -> SnapshotFiles:
        """The open documents; with ``reader`` (the path of the document whose analysis
        reads them), only those that are files of this machine (``uris``) and itself: a
        document that lives in the editor only is no file of its workspace."""
        docs = [
            d
            for d in self.scheduler.documents.values()
            if reader is None or on_disk(d.path) or d.path == reader
        ]
        return SnapshotFiles(
            {d.path: d.text for d in docs},
            {d.path: d.uri for d in docs},
            {d.path: d.version for d in docs},
        )

    def version_of_uri(self, uri: str) -> int | None:
        document = self.scheduler.documents.get(uri)
        return None if document is None else document.version

    def document_changed(self, uri: str, changes: list[TextChange] | None = None) -> None:
        """Analyse the document's new text; ``changes`` made it from the last one."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None or not uri_tracked(uri):
            return  # (pygls' get_text_document would read a document not open from disk)
        path = self.path_of(uri)
        version = document.version if document.version is not None else 0
        self._sources.pop(uri, None)  # (the text it holds is not the document's any more)
        self.scheduler.update(uri, path, version, document.source, changes)
        if path.endswith(".py"):
            self.refresh_python(exclude=uri)

    def refresh_python(self, exclude: str | None = None) -> None:
        """Re-analyse open Python documents: cross-file pl findings may have changed."""
        self.scheduler.refresh(
            [
                u
                for u, d in self.scheduler.documents.items()
                if d.path.endswith(".py") and u != exclude
            ]
        )

    def make_job(self, document: Document) -> Job:
        settings = self.settings.settings_for(document.path)
        for error in self.settings.take_errors():
            self.show_error(f"passlint configuration error: {error}")
        files = self.files(reader=document.path)
        if document.path.endswith(".mlir"):
            # A module's analysis reads no other document: its job (pickled whole for the
            # worker process) carries no other open document's text.
            files = SnapshotFiles(
                {document.path: document.text},
                {document.path: document.uri},
                {document.path: document.version},
            )
        return Job(
            document.uri,
            document.path,
            document.version,
            document.text,
            settings,
            self.roots_for(document.path),
            dict(files.texts),
            dict(files.uris),
            dict(files.versions),
            self.features,
            self.disk_generation if self.watching else None,
        )

    def on_result(
        self, document: Document, result: Result, refreshed: bool, provisional: bool = False
    ) -> None:
        if not provisional and isinstance(document.memo, QuickMemo):
            document.memo.full(result.version, result.findings)  # carried into quick answers
        if not self.pull:
            assert isinstance(self.protocol, PasslintProtocol)
            self.protocol.notify_json(
                types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                f'{{"uri":{json.dumps(document.uri)},"version":{document.version},'
                f'"diagnostics":{result.diagnostics_text}}}',
            )
        elif provisional:
            return
        elif (refreshed or document.uri in self.owe_refresh) and self.can_refresh():
            self.owe_refresh.discard(document.uri)
            self.request_refresh()

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

    async def load_client_settings(self) -> None:
        if self.supports("workspace.configuration"):
            try:
                answer = await self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
                )
                self.settings.set_client_section(answer[0] if answer else None)
            except Exception:
                log.warning("workspace/configuration failed", exc_info=True)

    async def pl_model(self, uri: str) -> PlModel | None:
        document = self.scheduler.documents.get(uri)
        if document is None or not document.path.endswith(".py"):
            return None
        settings = self.settings.settings_for(document.path)
        if engine.oversize(document.text, settings.max_file_size) is not None:
            return None  # above max-file-size: not analysed (PL001 says so)
        workspace = workspace_for(
            document.path,
            self.roots_for(document.path),
            self.files(reader=document.path).texts,
            self.disk_generation if self.watching else None,
        )
        return await self.models.get(uri, document.path, document.version, document.text, workspace)

    # -- the analysis of a version, for the features ---------------------------------------

    async def mlir_view(self, uri: str, exact: bool = False) -> MlirView | None:
        """The latest analysis of a .mlir document seen from its current text: at once when
        the edits since leave it usable (``views``), else (or with ``exact``) once the
        current version is analysed. None for other documents and unanalysed ones."""
        document = self.scheduler.documents.get(uri)
        if document is None or not document.path.endswith(".mlir"):
            return None
        result: Result | None = document.result
        shift = None
        if result is not None and result.index is not None:
            shift = self.edits.shift(uri, result.version, document.version)
        if result is None or shift is None or (exact and not shift.identity):
            result = await self.scheduler.result(uri)
            document = self.scheduler.documents.get(uri)
            if result is None or document is None or result.version != document.version:
                return None
            shift = Shift()
        if result.index is None:
            return None
        return MlirView(result.index, shift, self.current_source(document))

    def current_source(self, document: Document) -> SourceText:
        """The document's text as a SourceText, its line index taken from ``text_sync``."""
        kept = self._sources.get(document.uri)
        if kept is not None and kept[0] == document.version and kept[1].text is document.text:
            return kept[1]
        source = source_with_lines(
            document.text, self.text_sync.line_starts(document.uri, document.text)
        )
        self._sources[document.uri] = (document.version, source)
        return source

    @property
    def roots(self) -> tuple[str, ...]:
        """The editor's workspace folders, as real paths."""
        return tuple(dict.fromkeys(self.folders.values()))

    def change_folders(self, added: list[str], removed: list[str]) -> None:
        """Workspace folders (URIs) were added or removed: the workspace every analysis and
        loc() reads is drawn from the folders now open (the models read in the old one are
        forgotten)."""
        for uri in removed:
            real = folder_path(uri)
            gone = [u for u, path in self.folders.items() if u == uri or path == real]
            for known in gone:
                del self.folders[known]
        for uri in added:
            real = folder_path(uri)
            if real is not None:
                self.folders[uri] = real
        self.models.clear()

    def roots_for(self, path: str) -> tuple[str, ...]:
        """The workspace a document belongs to: the editor's folders; without any, the
        document's project, else the document alone (``passlint.roots``); a document that
        is no file (``uris``) has no project, and without folders no workspace."""
        if not on_disk(path):
            return self.roots
        try:
            return roots.roots_for(self.roots, path, self._projects)
        except OSError as error:  # a folder that cannot be looked into: no project
            log.warning("no project looked for around %s: %s", path, error)
            return (path,)

    def forget_projects(self) -> None:
        """Configuration files changed: projects are looked for again."""
        self._projects.clear()

    def location_targets(self, uri: str, view: MlirView, offset: int) -> list[types.Location]:
        """The workspace files and lines the source location at ``offset`` names."""
        found = locations.frames_at(view, offset)
        if found is None:
            return []
        path = self.path_of(uri)
        boundary = Boundary(self.roots_for(path))
        out = []
        for frame, target in locations.resolved(found[0], boundary, _folder(path)):
            position = types.Position(
                line=max(frame.line - 1, 0), character=max(frame.column - 1, 0)
            )
            out.append(
                types.Location(
                    uri=from_fs_path(target) or target,
                    range=types.Range(start=position, end=position),
                )
            )
        return out

    def location_hover(
        self, uri: str, view: MlirView, offset: int
    ) -> tuple[str, tuple[int, int]] | None:
        found = locations.frames_at(view, offset)
        if found is None:
            return None
        path = self.path_of(uri)
        boundary = Boundary(self.roots_for(path))
        limit = self.settings.settings_for(path).max_file_size
        text = locations.hover_text(found[0], boundary, _folder(path), limit)
        return None if text is None else (text, found[1])

    def shift_since(self, uri: str, version: int) -> Shift | None:
        current = self.version_of_uri(uri)
        return None if current is None else self.edits.shift(uri, version, current)

    def latest_results(self) -> list[tuple[str, Result]]:
        return [
            (uri, document.result)
            for uri, document in self.scheduler.documents.items()
            if document.result is not None
        ]

    def fix_all_now(self, uri: str) -> list[dict[str, Any]]:
        """Fix-all for the current version without waiting: from its analysis, or from the
        last one when the edits since left every fix's lines alone."""
        document = self.scheduler.documents.get(uri)
        result: Result | None = document.result if document is not None else None
        if document is None or result is None:
            return []
        files = actions.fix_all_files(result.findings, self.files())
        if result.version == document.version:
            return files
        for entry in files:
            entry["version"] = result.version if entry["uri"] == uri else entry["version"]
        moved = actions.current_files(files, self.version_of_uri, self.shift_since)
        return moved or []


_MARKUP_KINDS = (types.MarkupKind.Markdown, types.MarkupKind.PlainText)


class JsonRpcRequestFailed(JsonRpcException):
    """A request the server cannot answer (LSP's RequestFailed), with a message for the user."""

    CODE = -32803


def _folder(path: str) -> str | None:
    """The folder of a document's file (None: it is no file)."""
    return os.path.dirname(path) if on_disk(path) else None


def uri_tracked(uri: str) -> bool:
    return uri.endswith((".mlir", ".py"))


def command_uri(args: tuple[Any, ...]) -> str:
    """The document a command is about: ``"file:///..."`` or ``{"uri": "file:///..."}``."""
    first = args[0] if args else None
    if isinstance(first, Mapping):
        first = first.get("uri")
    if not isinstance(first, str):
        raise JsonRpcInvalidParams(message="expected the document URI as the first argument")
    return first


server = PasslintServer()


# -- lifecycle ---------------------------------------------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: PasslintServer, params: types.InitializeParams) -> None:
    ls.learn_client(params)


@server.feature(types.INITIALIZED)
async def initialized(ls: PasslintServer, params: types.InitializedParams) -> None:
    await ls.load_client_settings()
    if ls.supports("workspace.did_change_watched_files.dynamic_registration"):
        ls.watching = True
        watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]
        await ls.client_register_capability_async(
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
    ls.scheduler.refresh()


@server.feature(types.SHUTDOWN)
def shutdown(ls: PasslintServer, params: None) -> None:
    ls.scheduler.shutdown()


# -- documents ---------------------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: PasslintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.edits.opened(params.text_document.uri, params.text_document.version)
    ls.document_changed(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: PasslintServer, params: types.DidChangeTextDocumentParams) -> None:
    uri, version = params.text_document.uri, params.text_document.version
    document = ls.workspace.text_documents.get(unquote(uri))
    if document is None:
        log.warning("didChange for %s, which is not open", uri)
        return
    text, changes = ls.text_sync.apply(uri, document.source, params.content_changes)
    item = types.TextDocumentItem(uri, document.language_id or "", version, text)
    ls.workspace.put_text_document(item)
    ls.edits.record(uri, version, changes)
    ls.document_changed(uri, changes)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PasslintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    document = ls.scheduler.documents.get(uri)
    ls.scheduler.close(uri)
    ls.models.forget(uri)
    ls.edits.closed(uri)
    ls.text_sync.forget(uri)
    ls._sources.pop(uri, None)
    if document is not None and not ls.pull:
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )
    if document is not None and document.path.endswith(".py"):
        ls.refresh_python()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_workspace_folders(
    ls: PasslintServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    ls.change_folders(
        added=[f.uri for f in params.event.added], removed=[f.uri for f in params.event.removed]
    )
    log.info("workspace folders: %s", ", ".join(ls.roots) or "none")
    ls.scheduler.refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(
    ls: PasslintServer, params: types.DidChangeConfigurationParams
) -> None:
    if ls.supports("workspace.configuration"):
        await ls.load_client_settings()
    elif isinstance(params.settings, Mapping) and SECTION in params.settings:
        ls.settings.set_client_section(params.settings[SECTION])
    ls.settings.invalidate()
    ls.scheduler.refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: PasslintServer, params: types.DidChangeWatchedFilesParams) -> None:
    paths = [ls.path_of(change.uri) for change in params.changes]
    python = [path for path in paths if path.endswith(".py")]
    if python:  # what the analyses share of the disk forgets these files
        ls.disk_generation += 1
        PL_MEMO.files.changed(python, ls.disk_generation)
    if any(os.path.basename(path) in CONFIG_FILES for path in paths):
        ls.settings.invalidate()
        ls.forget_projects()
        ls.scheduler.refresh()
    elif python:
        ls.refresh_python()


# -- diagnostics (pull) ------------------------------------------------------------------------


@server.feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(
        identifier=SECTION, inter_file_dependencies=True, workspace_diagnostics=False
    ),
)
async def diagnostic(ls: PasslintServer, params: types.DocumentDiagnosticParams) -> JsonData:
    """A ``DocumentDiagnosticReport``, as JSON data."""
    uri = params.text_document.uri
    result = await ls.scheduler.result(uri, provisional_ok=ls.can_refresh())
    if result is None:
        return JsonData({"kind": "full", "items": []})
    if result is ls.scheduler.provisional(uri):
        ls.owe_refresh.add(uri)  # the full result will ask the client to pull again
    if params.previous_result_id == result.result_id:
        return JsonData({"kind": "unchanged", "resultId": result.result_id})
    return JsonData(
        {"kind": "full", "items": list(result.diagnostics), "resultId": result.result_id}
    )


# -- code actions and commands -----------------------------------------------------------------


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND],
        resolve_provider=False,
    ),
)
async def code_action(
    ls: PasslintServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    """Quick fixes (moved to the current version when an edit left them alone), suppression
    and explanation actions, and fix-all: none of them waits for an analysis."""
    uri, only = params.text_document.uri, params.context.only
    out: list[types.CodeAction] = []
    if actions.wants(only, types.CodeActionKind.QuickFix):
        out += actions.quick_fixes(
            params.context.diagnostics,
            ls.version_of_uri,
            ls.shift_since,
            ls.features.document_changes,
        )
        document = ls.scheduler.documents.get(uri)
        if document is not None:
            source = ls.current_source(document)
            for diagnostic in params.context.diagnostics:
                out += suppress.actions(
                    diagnostic,
                    source,
                    document.path,
                    uri,
                    ls.features.document_changes,
                    document.version,
                )
    if actions.wants(only, actions.FIX_ALL_KIND) and (files := ls.fix_all_now(uri)):
        out.append(actions.fix_all_action(files, ls.features.document_changes))
    return out or None


async def fix_all_files(ls: PasslintServer, uri: str) -> list[dict[str, Any]]:
    result = await ls.scheduler.result(uri)
    return actions.fix_all_files(result.findings, ls.files()) if result is not None else []


@server.command(FIX_ALL)
async def fix_all_command(ls: PasslintServer, *args: Any) -> bool:
    files = await fix_all_files(ls, command_uri(args))
    if not files:
        return False
    edit = actions.fix_all_action(files, ls.features.document_changes).edit
    assert edit is not None
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=actions.FIX_ALL_TITLE)
    )
    return bool(answer.applied)


@server.command(LEGALIZED_MODULE)
async def legalized_module(ls: PasslintServer, *args: Any) -> str:
    from passlint.passes.tensorizer_legalization import legalize, unsure_placement

    uri = command_uri(args)
    document = ls.scheduler.documents.get(uri)
    if document is None or not document.path.endswith(".mlir"):
        raise JsonRpcInvalidParams(message=f"{shown(uri)} is not an open .mlir document")
    settings = ls.settings.settings_for(document.path)
    if (size := engine.oversize(document.text, settings.max_file_size)) is not None:
        raise JsonRpcRequestFailed(f"not legalized: {size} bytes is more than max-file-size")
    pipeline = settings.pipeline
    loop = asyncio.get_running_loop()
    legalized = await loop.run_in_executor(ls.executor, legalize, document.text, pipeline)
    if legalized.unsure:
        offset, name = legalized.unsure[0]
        line = document.text.count("\n", 0, offset) + 1
        more = len(legalized.unsure) - 1
        also = f" (and {more} more op{'s' * (more != 1)})" if more else ""
        message = f"Legalized module, line {line}{also}: {unsure_placement(name)}."
        ls.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=message)
        )
    return legalized.text


@server.command(suppress.EXPLAIN)
def explain_rule(ls: PasslintServer, *args: Any) -> str:
    """``passlint rule CODE``'s text, returned and shown as a message; with a second argument
    ``{"show": false}`` only returned (the VS Code extension opens it as a read-only
    document)."""
    code = args[0] if args and isinstance(args[0], str) else ""
    try:
        text = suppress.explanation(code)
    except ValueError as error:
        raise JsonRpcInvalidParams(message=str(error)) from None
    options = args[1] if len(args) > 1 and isinstance(args[1], Mapping) else {}
    if options.get("show", True):
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info, message=text))
    return text


# -- hover, hints, symbols, navigation ---------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def on_hover(ls: PasslintServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    view = await ls.mlir_view(uri)
    found: tuple[str, tuple[int, int]] | None = None
    if view is not None:
        offset = char_offset(view.source, params.position)
        source = view.source
        found = hover.mlir_hover(view, offset) or ls.location_hover(uri, view, offset)
    else:
        model = await ls.pl_model(uri)
        if model is None:
            return None
        source = model.source
        found = hover.pl_hover(model, char_offset(source, params.position))
    if found is None:
        return None
    text, span = found
    kind = types.MarkupKind.Markdown if ls.features.markdown else types.MarkupKind.PlainText
    if not ls.features.markdown:
        text = hover.plaintext(text)
    return types.Hover(
        contents=types.MarkupContent(kind=kind, value=text), range=span_range(source, span)
    )


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
async def inlay_hints(ls: PasslintServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    view = await ls.mlir_view(params.text_document.uri)
    if view is None:
        return []
    source = view.source
    start, end = char_offset(source, params.range.start), char_offset(source, params.range.end)
    return [
        types.InlayHint(
            position=span_range(source, (offset, offset)).start,
            label=hint.label,
            padding_left=True,
            tooltip=hint.tooltip,
        )
        for offset, hint in inlay.mlir_hints(view, start, end)
    ]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbols(
    ls: PasslintServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    uri = params.text_document.uri
    view = await ls.mlir_view(uri)
    if view is not None:
        return symbols.to_lsp(view.source, symbols.mlir_symbols(view))
    model = await ls.pl_model(uri)
    if model is None:
        return []
    return symbols.to_lsp(model.source, symbols.pl_symbols(model))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: PasslintServer, params: types.DefinitionParams) -> list[types.Location]:
    uri = params.text_document.uri
    view = await ls.mlir_view(uri)
    if view is not None:
        offset = char_offset(view.source, params.position)
        frames = ls.location_targets(uri, view, offset)
        if frames:
            return frames
        spans = navigation.mlir_definition(view, offset)
        return [types.Location(uri=uri, range=span_range(view.source, span)) for span in spans]
    model = await ls.pl_model(uri)
    if model is None:
        return []
    offset = char_offset(model.source, params.position)
    return navigation.to_locations(ls.files(), navigation.pl_definition(model, offset))


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
async def references(ls: PasslintServer, params: types.ReferenceParams) -> list[types.Location]:
    uri = params.text_document.uri
    include = params.context.include_declaration
    view = await ls.mlir_view(uri)
    if view is not None:
        offset = char_offset(view.source, params.position)
        spans = navigation.mlir_references(view, offset, include)
        return [types.Location(uri=uri, range=span_range(view.source, span)) for span in spans]
    model = await ls.pl_model(uri)
    if model is None:
        return []
    offset = char_offset(model.source, params.position)
    targets = navigation.pl_references(model, offset, include)
    return navigation.to_locations(ls.files(), targets)


# -- folding, completion, rename ---------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
async def folding_ranges(
    ls: PasslintServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange]:
    view = await ls.mlir_view(params.text_document.uri)
    return folding.ranges(view) if view is not None else []


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=[*completion.TRIGGERS, "["], resolve_provider=False),
)
async def complete(ls: PasslintServer, params: types.CompletionParams) -> types.CompletionList:
    uri = params.text_document.uri
    view = await ls.mlir_view(uri)
    if view is not None:
        return completion_items(ls, uri, view, params.position)
    return await pl_completion_items(ls, uri, params.position)


async def pl_completion_items(
    ls: PasslintServer, uri: str, position: types.Position
) -> types.CompletionList:
    """pl completion from the current model, or the last one that parsed (moved through the
    edits since) while the text does not."""
    empty = types.CompletionList(is_incomplete=False, items=[])
    document = ls.scheduler.documents.get(uri)
    model = await ls.pl_model(uri)
    if document is None or model is None:
        return empty
    source = ls.current_source(document)
    offset = char_offset(source, position)
    at = offset
    if model.module is None:
        parsed = ls.models.last_parsed(uri)
        shift = ls.edits.shift(uri, parsed[0], document.version) if parsed else None
        if parsed is None or shift is None:
            return empty
        model, at = parsed[1], shift.backward_before(offset)
    line_start = source.line_starts[min(position.line, source.line_count - 1)]
    word = pl_assist.word_before(source.text[line_start:offset])
    found = pl_assist.completion(model, at, source.text[max(0, offset - 4000) : offset])
    return completion.to_lsp(source, offset, word, found, False)


def completion_items(
    ls: PasslintServer, uri: str, view: MlirView, position: types.Position
) -> types.CompletionList:
    source = view.source
    offset = char_offset(source, position)
    line_start = source.line_starts[min(position.line, source.line_count - 1)]
    before = source.text[line_start:offset]
    others = [
        name
        for other, result in ls.latest_results()
        if other != uri and result.index is not None
        for name in result.index.seen_ops
    ]
    found, cut = completion.items(view, offset, before, others)
    return completion.to_lsp(source, offset, completion.word_before(before), found, cut)


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
async def prepare_rename(
    ls: PasslintServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | types.Range | None:
    uri = params.text_document.uri
    view = await ls.mlir_view(uri)
    if view is None:
        model = await ls.pl_model(uri)
        if model is None:
            return None
        symbol = pl_assist.symbol_at(model, char_offset(model.source, params.position))
        if symbol is None:
            return None
        _, span = symbol
        return rename.placeholder(model.source, span, model.source.text[span[0] : span[1]])
    found = rename.target(view, char_offset(view.source, params.position))
    if found is None:
        return None
    _, span, name = found
    return rename.placeholder(view.source, span, name)


@server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
async def on_rename(ls: PasslintServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    uri = params.text_document.uri
    view = await ls.mlir_view(uri, exact=True)
    if view is None:
        return await pl_rename(ls, uri, params)
    try:
        found = rename.edits(view, char_offset(view.source, params.position), params.new_name)
    except rename.RenameError as error:
        raise JsonRpcRequestFailed(str(error)) from None
    source = view.source
    edits = [
        {"range": range_json(source, source.range(*span)), "newText": text} for span, text in found
    ]
    version = ls.version_of_uri(uri)
    return workspace_edit(
        [{"uri": uri, "version": version, "edits": edits}], ls.features.document_changes
    )


async def pl_rename(
    ls: PasslintServer, uri: str, params: types.RenameParams
) -> types.WorkspaceEdit | None:
    model = await ls.pl_model(uri)
    if model is None:
        return None
    try:
        found = pl_assist.rename_edits(
            model, char_offset(model.source, params.position), params.new_name
        )
    except pl_assist.RenameError as error:
        raise JsonRpcRequestFailed(str(error)) from None
    files = ls.files()
    entries = []
    for path, spans in found.items():
        source = files.source(path)
        if source is None:
            continue
        edits = [
            {"range": range_json(source, source.range(*span)), "newText": text}
            for span, text in spans
        ]
        entries.append({"uri": files.uri(path), "version": files.version(path), "edits": edits})
    return workspace_edit(entries, ls.features.document_changes)


__all__ = ["PasslintServer", "PlModel", "server"]
