"""What runs off the event loop: one document's analysis, turned into diagnostics.

A ``Job`` is a frozen snapshot (text, settings, the open documents the analysis may read)
so the worker thread shares nothing mutable with the loop. A crash of the analysis becomes
one internal-error diagnostic; the traceback goes to the log (stderr), never to the client.

Diagnostics are JSON data (``convert``). An edit leaves most findings of a document as they
were, and the passes hand back the very same Finding objects for them (from the session's
memo), so the session keeps, per document, the converted parts of its last run's findings
(``ConvertedFindings``; the analysis process keeps its own) and converts only the findings
it has not seen.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from passlint import pipeline
from passlint.analysis.findings import Finding
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.config import Settings
from passlint.memo import Memo
from passlint.quick import QuickMemo, quick_analyze
from passlint.server.convert import (
    ClientFeatures,
    DiagnosticParts,
    Files,
    Json,
    SnapshotFiles,
    astral_lines,
    diagnostic_parts,
    internal_error_diagnostic,
    json_text,
    to_diagnostic,
)
from passlint.server.disk_copy import DiskCopy, has_astral
from passlint.server.mlir_index import MlirIndex, build_index

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    uri: str
    path: str
    version: int
    text: str
    settings: Settings
    roots: tuple[str, ...]
    texts: Mapping[str, str]  # open documents by path (the overlay)
    uris: Mapping[str, str]
    versions: Mapping[str, int]
    features: ClientFeatures
    # The disk side shared by the session's analyses, at this change generation (the
    # client reports file changes); None: read the disk afresh for each analysis.
    disk: int | None = None
    # The document as its file on disk and the edits since (a large module), which the
    # analysis process reads instead of ``text`` (left empty: ``Session.job_for_process``).
    disk_copy: DiskCopy | None = None


@dataclass(frozen=True)
class Result:
    uri: str
    version: int
    findings: tuple[Finding, ...]
    diagnostics: tuple[Json, ...]  # read-only: shared with later results
    diagnostics_text: str  # the same, as JSON text (an array)
    failed: bool = False
    index: MlirIndex | None = None  # what the editor features read (.mlir)

    @property
    def result_id(self) -> str:
        return f"{self.version}:{id(self):x}"


def snapshot_workspace(
    roots: tuple[str, ...],
    texts: Mapping[str, str],
    disk: int | None = None,
    memo: Memo | None = None,
) -> Workspace:
    """The roots over the open documents ``texts``; ``disk``: the generation of the disk
    side shared in the session's ``memo`` (None, or no memo: a disk side of its own)."""
    files = memo.pl.files.of(roots, disk) if disk is not None and memo is not None else None
    workspace = Workspace(roots, files)
    for path, text in texts.items():
        workspace.set_overlay(path, text)
    return workspace


def warm_up(memo: Memo | None = None) -> None:
    """Import and exercise the analysis once (in a fresh worker process, with its ``memo``)."""
    pipeline.analyze("warm_up.mlir", "func.func @main() {\n  return\n}\n", None, None, memo)


class ConvertedFindings:
    """Per document (the last ``documents`` analysed), the ``DiagnosticParts`` of the
    findings of its last run, by Finding identity.

    Parts are reused for the same Finding object when every file they were computed from
    still has the same URI, and no character outside the BMP on the lines their positions
    are on (so UTF-16 columns are character columns, now as when they were computed): then
    they are what converting the finding again would give, whatever else changed.
    """

    def __init__(self, documents: int = 32) -> None:
        self.documents = documents
        self._lock = threading.Lock()  # runs of different documents convert concurrently
        self._runs: OrderedDict[str, tuple[ClientFeatures, dict[int, DiagnosticParts]]] = (
            OrderedDict()
        )

    def diagnostics(
        self,
        uri: str,
        findings: Iterable[Finding],
        files: Files,
        features: ClientFeatures,
        version: int,
    ) -> tuple[tuple[Json, ...], str]:
        """The diagnostics of ``findings``, a run of document ``uri``, for ``version``: as
        JSON data, and as the JSON text of their array."""
        with self._lock:
            last_features, last = self._runs.get(uri, (features, {}))
        if last_features != features:
            last = {}
        valid = _Validity(files)
        kept: dict[int, DiagnosticParts] = {}
        out, texts = [], []
        for finding in findings:
            parts = last.get(id(finding))
            if parts is None or parts.finding is not finding or not valid(parts):
                parts = diagnostic_parts(finding, files, features)
            if valid(parts):
                kept[id(finding)] = parts
            out.append(parts.diagnostic(files, version))
            texts.append(parts.text(files, version))
        with self._lock:
            self._runs[uri] = (features, kept)
            self._runs.move_to_end(uri)
            while len(self._runs) > self.documents:
                self._runs.popitem(last=False)
        return tuple(out), "[" + ",".join(texts) + "]"


class _Validity:
    """Whether parts hold for ``files``: each of their files has the URI they were computed
    with, and their lines have the same columns in characters and UTF-16."""

    def __init__(self, files: Files) -> None:
        self.files = files
        self._seen: dict[str, tuple[str, frozenset[int]]] = {}  # path -> URI, astral lines

    def __call__(self, parts: DiagnosticParts) -> bool:
        for path, uri, lines in parts.files:
            seen = self._seen.get(path)
            if seen is None:
                seen = self.files.uri(path), astral_lines(self.files.source(path))
                self._seen[path] = seen
            if seen[0] != uri or not seen[1].isdisjoint(lines):
                return False
        return True


def run_quick_job(
    job: Job, memo: QuickMemo | None = None, run_memo: Memo | None = None
) -> Result | None:
    """The quick, partial analysis of a large document (None when there is none), reusing
    the last one kept in the document's ``memo``; ``run_memo``: the session's."""
    try:
        findings = quick_analyze(job.path, job.text, job.settings, memo, run_memo)
        if findings is not None and memo is not None:
            findings = memo.with_carried(job.version, findings)
    except Exception:
        log.exception("internal error in the quick analysis of %s", job.path)
        return None
    if findings is None:
        return None
    files = SnapshotFiles(job.texts, job.uris, job.versions, job.settings.max_file_size)
    diagnostics = tuple(
        to_diagnostic(finding, files, job.features, job.version) for finding in findings
    )
    return Result(job.uri, job.version, tuple(findings), diagnostics, json_text(diagnostics))


def run_job(
    job: Job,
    memo: Memo | None = None,
    converted: ConvertedFindings | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Result:
    """Analyse one document (in a worker thread or process, with its ``memo``); ``converted``:
    the diagnostics kept from the last runs (None: every finding converted afresh). A job
    without its text reads the document from its file (``disk_copy``), ``progress`` told
    the bytes read of how many."""
    if converted is None:
        converted = ConvertedFindings()
    try:
        workspace = snapshot_workspace(job.roots, job.texts, job.disk, memo)
        bmp_paths: frozenset[str] = frozenset()
        texts = job.texts
        if job.disk_copy is not None and not job.text:
            with job.disk_copy.read() as document:
                size = len(document)
                if job.disk_copy.bmp or not has_astral(document):
                    read = None if progress is None else (lambda done: progress(done, size))
                    analysis = pipeline.analyze_bytes(
                        job.path, document, job.settings, workspace, memo, read
                    )
                    bmp_paths = frozenset((job.path,))  # (its columns are UTF-16 columns)
                else:  # (its UTF-16 columns are counted on its text, read whole)
                    text = document[0:size].decode("utf-8", "surrogateescape")
                    texts = {**texts, job.path: text}
                    analysis = pipeline.analyze_document(
                        job.path, text, job.settings, workspace, memo
                    )
        else:
            analysis = pipeline.analyze_document(job.path, job.text, job.settings, workspace, memo)
        findings = analysis.findings
        files = SnapshotFiles(texts, job.uris, job.versions, job.settings.max_file_size, bmp_paths)
        diagnostics, text = converted.diagnostics(
            job.uri, findings, files, job.features, job.version
        )
        index = None
        if analysis.parsed is not None:
            source = files.source(job.path) or SourceText(analysis.parsed.text)
            index = build_index(analysis.parsed, source, analysis.tensorizer, findings)
            # Nothing reads the IR again: freed at once by reference counting, before the
            # result is converted or sent (it is most of the analysis' memory).
            analysis.parsed.release()
        return Result(job.uri, job.version, tuple(findings), diagnostics, text, index=index)
    except Exception as error:
        log.exception("internal error while analysing %s (version %s)", job.path, job.version)
        diagnostics = (internal_error_diagnostic(error),)
        return Result(job.uri, job.version, (), diagnostics, json_text(diagnostics), failed=True)
