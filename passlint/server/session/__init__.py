"""The client's state in the server: its open documents, settings, workspace roots and
features, and the analyses of its documents as the features read them (``mlir_view``,
``pl_model``). Nothing here talks to the client; ``language_server`` does."""

from __future__ import annotations

import logging
import os
from concurrent.futures import Executor
from dataclasses import replace
from functools import partial
from urllib.parse import unquote

from lsprotocol import types
from pygls.workspace import Workspace

from passlint import pipeline
from passlint.analysis.text_change import TextChange
from passlint.memo import Memo
from passlint.server.convert import ClientFeatures, SnapshotFiles
from passlint.server.disk_copy import DiskCopy
from passlint.server.jobs import ConvertedFindings, Job, Result
from passlint.server.models import ModelCache, PlModel, workspace_for
from passlint.server.scheduler import Document, Scheduler
from passlint.server.session.client import Client
from passlint.server.session.disk_copies import DiskCopies
from passlint.server.session.documents import OpenDocuments
from passlint.server.session.roots import WorkspaceRoots
from passlint.server.settings import SettingsStore
from passlint.server.uris import document_path, is_bytecode_view
from passlint.server.views import MlirView, Shift

log = logging.getLogger(__name__)

CONFIG_FILES = ("pyproject.toml", "passlint.toml")


class Session:
    """One client's state (see the module's docstring)."""

    def __init__(self, scheduler: Scheduler[Job, Result], executor: Executor) -> None:
        self.scheduler = scheduler
        self.memo = Memo()  # what this session's analyses keep (the analysis process: its own)
        self.converted = ConvertedFindings()  # the diagnostics of their last runs, likewise
        self.roots = WorkspaceRoots()
        self.settings = SettingsStore(self.roots.for_path)
        self.documents = OpenDocuments(scheduler.documents)
        self.disk_copies = DiskCopies()  # large modules the analysis process reads from disk
        self.models = ModelCache(executor, self.memo)
        self.features = ClientFeatures()
        self.pull = False
        self.owe_refresh: set[str] = set()  # pull documents answered with a quick result
        self.watching = False  # the client reports file changes: analyses share the disk side
        self.disk_generation = 0  # file changes reported

    def start(self, client: Client) -> None:
        """The client has said what it is (``initialize``)."""
        self.pull = client.pull
        self.features = client.features
        self.change_folders(added=client.folders, removed=[])
        if client.has_section:
            self.settings.set_client_section(client.section)
        log.info(
            "client %s: %s diagnostics, roots %s",
            client.name,
            "pull" if self.pull else "push",
            ", ".join(self.roots.roots) or "none",
        )

    @property
    def disk(self) -> int | None:
        """What the analyses share of the disk is valid for (None: nothing is shared)."""
        return self.disk_generation if self.watching else None

    # -- documents ---------------------------------------------------------------------------

    def opened(self, workspace: Workspace, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        self.documents.edits.opened(item.uri, item.version)
        self.document_changed(workspace, item.uri)
        if uri_tracked(item.uri):
            self.disk_copies.opened(item.uri, document_path(item.uri), item.text)
        # A large document's line index, for its first change, made once its first answer
        # is out.
        prepare = partial(self.documents.text_sync.prepare, item.uri, item.text)
        self.scheduler.after_quick_run(item.uri, prepare)

    def saved(self, workspace: Workspace, uri: str) -> None:
        """The document was saved: its file is its text again."""
        document = workspace.text_documents.get(unquote(uri))
        if document is not None and uri_tracked(uri):
            self.disk_copies.opened(uri, document_path(uri), document.source)

    def changed(self, workspace: Workspace, params: types.DidChangeTextDocumentParams) -> None:
        """Apply the changes to the document's text (``text_sync``) and analyse it."""
        uri, version = params.text_document.uri, params.text_document.version
        document = workspace.text_documents.get(unquote(uri))
        if document is None:
            log.warning("didChange for %s, which is not open", uri)
            return
        documents = self.documents
        text, changes = documents.text_sync.apply(uri, document.source, params.content_changes)
        item = types.TextDocumentItem(uri, document.language_id or "", version, text)
        workspace.put_text_document(item)
        documents.edits.record(uri, version, changes)
        self.disk_copies.changed(uri, changes)
        self.document_changed(workspace, uri, changes)

    def document_changed(
        self, workspace: Workspace, uri: str, changes: list[TextChange] | None = None
    ) -> None:
        """Analyse the document's new text; ``changes`` made it from the last one."""
        document = workspace.text_documents.get(unquote(uri))
        if document is None or not uri_tracked(uri):
            return  # (pygls' get_text_document would read a document not open from disk)
        path = document_path(uri)
        version = document.version if document.version is not None else 0
        self.documents.text_changed(uri)
        self.scheduler.update(uri, path, version, document.source, changes)
        if path.endswith(".py"):
            self.refresh_python(exclude=uri)

    def closed(self, uri: str) -> Document | None:
        """Forget the document; the one that was open, if any."""
        document = self.scheduler.documents.get(uri)
        self.scheduler.close(uri)
        self.models.forget(uri)
        self.documents.forget(uri)
        self.disk_copies.closed(uri)
        return document

    def refresh_python(self, exclude: str | None = None) -> None:
        """Re-analyse open Python documents: cross-file pl findings may have changed."""
        self.scheduler.refresh(self.documents.python_uris(exclude))

    def change_folders(self, added: list[str], removed: list[str]) -> None:
        """Workspace folders (URIs) were added or removed: the workspace every analysis and
        loc() reads is drawn from the folders now open (the models read in the old one are
        forgotten)."""
        self.roots.change(added, removed)
        self.settings.invalidate()  # (where a linked project file may lead has changed)
        self.models.clear()

    def folders_changed(self, added: list[str], removed: list[str]) -> None:
        """The editor's workspace folders changed: every document is analysed again."""
        self.change_folders(added, removed)
        log.info("workspace folders: %s", ", ".join(self.roots.roots) or "none")
        self.scheduler.refresh()

    def files_changed(self, uris: list[str]) -> None:
        """The client reports changes to files on disk (``WATCHED``)."""
        paths = [document_path(uri) for uri in uris]
        python = [path for path in paths if path.endswith(".py")]
        if python:  # what the analyses share of the disk forgets these files
            self.disk_generation += 1
            self.memo.pl.files.changed(python, self.disk_generation)
        if any(os.path.basename(path) in CONFIG_FILES for path in paths):
            self.settings.invalidate()
            self.roots.forget_projects()
            self.scheduler.refresh()
        elif python:
            self.refresh_python()

    # -- the analysis of a version -----------------------------------------------------------

    def job(self, document: Document) -> Job:
        """What the analysis of the document's version reads."""
        settings = self.settings.settings_for(document.path)
        files = self.documents.files(reader=document.path)
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
            self.roots.for_path(document.path),
            dict(files.texts),
            dict(files.uris),
            dict(files.versions),
            self.features,
            self.disk,
            # (a file read where it is: as it is now)
            None if document.on_disk is None else DiskCopy.of_file(document.path),
        )

    async def analyze_file(self, uri: str) -> Result | None:
        """The analysis of the file at ``uri`` as it is on disk now, read there (a file the
        editor does not hand over: VS Code's above 50 MB), or of the document open at
        ``uri``; None when it is neither."""
        document = self.scheduler.documents.get(uri)
        if document is None or document.on_disk is not None:
            path = document_path(uri)
            copy = DiskCopy.of_file(path) if uri_tracked(uri) else None
            if copy is None:
                return None
            version = 0 if document is None else document.version + 1
            self.scheduler.update(uri, path, version, "", on_disk=copy.stamp.size)
        return await self.scheduler.result(uri)

    def forget_file(self, uri: str) -> bool:
        """The file at ``uri`` is not shown any more (``analyze_file``): whether it was one."""
        document = self.scheduler.documents.get(uri)
        if document is None or document.on_disk is None:
            return False
        self.closed(uri)
        return True

    def job_for_process(self, job: Job) -> Job:
        """``job`` as it is sent to the analysis process: a large module that is its file on
        disk with edits goes without its text (``disk_copies``; read from the file there)."""
        if job.disk_copy is not None:
            return job
        copy = self.disk_copies.copy_of(job.uri, job.text)
        return job if copy is None else replace(job, text="", texts={}, disk_copy=copy)

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
            shift = self.documents.edits.shift(uri, result.version, document.version)
        if result is None or shift is None or (exact and not shift.identity):
            result = await self.scheduler.result(uri)
            document = self.scheduler.documents.get(uri)
            if result is None or document is None or result.version != document.version:
                return None
            shift = Shift()
        if result.index is None:
            return None
        return MlirView(result.index, shift, self.documents.current_source(document))

    async def pl_model(self, uri: str) -> PlModel | None:
        """The model of a pl document's current version (None for other documents)."""
        document = self.scheduler.documents.get(uri)
        if document is None or not document.path.endswith(".py"):
            return None
        settings = self.settings.settings_for(document.path)
        if pipeline.oversize(document.text, settings.size_limit(document.path)) is not None:
            return None  # above max-file-size: not analysed (PL001 says so)
        workspace = workspace_for(
            document.path,
            self.roots.for_path(document.path),
            self.documents.files(reader=document.path).texts,
            self.disk,
            self.memo,
        )
        return await self.models.get(uri, document.path, document.version, document.text, workspace)


def uri_tracked(uri: str) -> bool:
    return uri.endswith((".mlir", ".hlo", ".txt", ".py")) or is_bytecode_view(uri)
