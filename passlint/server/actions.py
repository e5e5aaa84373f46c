"""Code actions: the quick fix carried by each diagnostic, and fix-all for a document.

A quick fix travels in ``Diagnostic.data`` (the document version it was computed for and
its edits per file in client units), so answering ``textDocument/codeAction`` needs no new
analysis. A payload for an older version of the document is moved through the edits made
since (``views.Shift``) when none of them touched its lines, as the analysis of the new
version would find the same fix there; otherwise, or when another file it edits changed, it
is not offered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from passlint.analysis.edits import edits_by_path
from passlint.analysis.findings import Finding
from passlint.server import suppress
from passlint.server.convert import SOURCE, Files, file_edits
from passlint.server.lsp_objects import workspace_edit
from passlint.server.views import Shift

if TYPE_CHECKING:
    from passlint.server.session import Session

log = logging.getLogger(__name__)

FIX_ALL_KIND = "source.fixAll.passlint"
FIX_ALL_TITLE = "Fix all passlint findings"


def answer(session: Session, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    """Quick fixes (moved to the current version when an edit left them alone), suppression
    and explanation actions, and fix-all: none of them waits for an analysis."""
    uri, only = params.text_document.uri, params.context.only
    documents, document_changes = session.documents, session.features.document_changes
    out: list[types.CodeAction] = []
    if wants(only, types.CodeActionKind.QuickFix):
        out += quick_fixes(
            params.context.diagnostics,
            documents.version_of_uri,
            documents.shift_since,
            document_changes,
        )
        document = documents.get(uri)
        if document is not None:
            source = documents.current_source(document)
            out += suppress.actions(
                params.context.diagnostics,
                source,
                document.path,
                uri,
                document_changes,
                document.version,
            )
    if wants(only, FIX_ALL_KIND) and (files := fix_all_now(session, uri)):
        out.append(fix_all_action(files, document_changes))
    return out or None


def fix_all_now(session: Session, uri: str) -> list[dict[str, Any]]:
    """Fix-all for the current version without waiting: from its analysis, or from the
    last one when the edits since left every fix's lines alone."""
    documents = session.documents
    document = documents.get(uri)
    result = document.result if document is not None else None
    if document is None or result is None:
        return []
    files = fix_all_files(result.findings, documents.files())
    if result.version == document.version:
        return files
    for entry in files:
        entry["version"] = result.version if entry["uri"] == uri else entry["version"]
    moved = current_files(files, documents.version_of_uri, documents.shift_since)
    return moved or []


async def fix_all(session: Session, uri: str) -> types.WorkspaceEdit | None:
    """The fix-all edit of the document's current version, once it is analysed (None:
    nothing to fix)."""
    result = await session.scheduler.result(uri)
    files = fix_all_files(result.findings, session.documents.files()) if result is not None else []
    if not files:
        return None
    return fix_all_action(files, session.features.document_changes).edit


def wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a request's ``only`` filter admits ``kind`` (a prefix match, as LSP says)."""
    if not only:
        return True
    return any(kind == wanted or kind.startswith(wanted + ".") for wanted in only)


ShiftFor = Callable[[str, int], Shift | None]  # (uri, since version) -> shift to now


def quick_fixes(
    diagnostics: Iterable[types.Diagnostic],
    current_version: Callable[[str], int | None],
    shift_for: ShiftFor,
    document_changes: bool,
) -> list[types.CodeAction]:
    """One quick fix per passlint diagnostic whose payload is current, or can be moved to the
    current version (preferred unless its payload says it leaves work by hand)."""
    actions = []
    for diagnostic in diagnostics:
        fix = _payload(diagnostic)
        if fix is None:
            continue
        try:
            files = current_files(fix["files"], current_version, shift_for)
            edit = workspace_edit(files, document_changes) if files is not None else None
        except (KeyError, TypeError, ValueError, AttributeError):  # not a payload of ours
            log.debug("a diagnostic's fix payload that does not read: %.200r", fix)
            continue
        if edit is None:
            continue
        actions.append(
            types.CodeAction(
                title=str(fix.get("title", "")),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.get("preferred", True) is not False,
                edit=edit,
            )
        )
    return actions


def _payload(diagnostic: types.Diagnostic) -> Mapping[str, Any] | None:
    data = diagnostic.data
    if diagnostic.source != SOURCE or not isinstance(data, Mapping):
        return None
    fix = data.get("fix")
    if not isinstance(fix, Mapping) or not isinstance(fix.get("files"), list):
        return None
    return fix


def current_files(
    files: Sequence[Mapping[str, Any]],
    current_version: Callable[[str], int | None],
    shift_for: ShiftFor,
) -> list[dict[str, Any]] | None:
    """Per-file edits for the current versions of the open files: moved through the edits
    made since they were computed, or None when an edit touched their lines."""
    out = []
    for entry in files:
        uri, recorded = str(entry["uri"]), entry.get("version")
        now = current_version(uri)
        if recorded is None or now is None or now == recorded:
            out.append(dict(entry))
            continue
        shift = shift_for(uri, int(recorded))
        edits = moved_edits(entry["edits"], shift) if shift is not None else None
        if edits is None:
            return None
        out.append({**entry, "version": now, "edits": edits})
    return out


def moved_edits(edits: Sequence[Mapping[str, Any]], shift: Shift) -> list[dict[str, Any]] | None:
    """JSON text edits moved by the lines ``shift`` added or removed before them (columns stay:
    changes replace whole lines); None when one lies on, or spans, a changed line."""
    out = []
    for edit in edits:
        start, end = edit["range"]["start"], edit["range"]["end"]
        lines = shift.lines(int(start["line"]), int(end["line"]))
        if lines is None:
            return None
        out.append(
            {
                "range": {
                    "start": {"line": lines[0], "character": start["character"]},
                    "end": {"line": lines[1], "character": end["character"]},
                },
                "newText": edit["newText"],
            }
        )
    return out


def fix_all_files(findings: Iterable[Finding], files: Files) -> list[dict[str, Any]]:
    """The edits of every fix of a document, per file, without overlapping fixes."""
    fixes = [f.fix for f in findings if f.fix is not None and f.fix.preferred]
    return file_edits(edits_by_path(fixes), files) if fixes else []


def fix_all_action(file_list: list[dict[str, Any]], document_changes: bool) -> types.CodeAction:
    return types.CodeAction(
        title=FIX_ALL_TITLE,
        kind=FIX_ALL_KIND,
        edit=workspace_edit(file_list, document_changes),
    )
