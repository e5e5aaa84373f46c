"""What runs off the event loop: one document's analysis, turned into diagnostics.

A ``Job`` is a frozen snapshot (text, settings, the open documents the analysis may read)
so the worker thread shares nothing mutable with the loop. A crash of the analysis becomes
one internal-error diagnostic; the traceback goes to the log (stderr), never to the client.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from lsprotocol import types

from passlint.analysis import engine
from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.config import Settings
from passlint.server.convert import (
    ClientFeatures,
    SnapshotFiles,
    internal_error_diagnostic,
    to_diagnostic,
)

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


@dataclass(frozen=True)
class Result:
    uri: str
    version: int
    findings: tuple[Finding, ...]
    diagnostics: tuple[types.Diagnostic, ...]
    failed: bool = False

    @property
    def result_id(self) -> str:
        return f"{self.version}:{id(self):x}"


def snapshot_workspace(roots: tuple[str, ...], texts: Mapping[str, str]) -> Workspace:
    workspace = Workspace(roots)
    for path, text in texts.items():
        workspace.set_overlay(path, text)
    return workspace


def warm_up() -> None:
    """Import and exercise the analysis once (in a fresh worker process)."""
    engine.analyze("warm_up.mlir", "func.func @main() {\n  return\n}\n")


def run_quick_job(job: Job) -> Result | None:
    """The quick, partial analysis of a large document (None when there is none)."""
    try:
        findings = engine.quick_analyze(job.path, job.text, job.settings)
    except Exception:
        log.exception("internal error in the quick analysis of %s", job.path)
        return None
    if findings is None:
        return None
    files = SnapshotFiles(job.texts, job.uris, job.versions)
    diagnostics = tuple(
        to_diagnostic(finding, files, job.features, job.version) for finding in findings
    )
    return Result(job.uri, job.version, tuple(findings), diagnostics)


def run_job(job: Job) -> Result:
    """Analyse one document (in a worker thread)."""
    try:
        workspace = snapshot_workspace(job.roots, job.texts)
        findings = engine.analyze(job.path, job.text, job.settings, workspace)
        files = SnapshotFiles(job.texts, job.uris, job.versions)
        diagnostics = tuple(
            to_diagnostic(finding, files, job.features, job.version) for finding in findings
        )
        return Result(job.uri, job.version, tuple(findings), diagnostics)
    except Exception as error:
        log.exception("internal error while analysing %s (version %s)", job.path, job.version)
        return Result(job.uri, job.version, (), (internal_error_diagnostic(error),), failed=True)
