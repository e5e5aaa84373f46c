"""Code actions: the quick fix carried by each diagnostic, and fix-all for a document.

A quick fix travels in ``Diagnostic.data`` (the document version it was computed for and
its edits per file in client units), so answering ``textDocument/codeAction`` needs no new
analysis; a payload for an older version of any open file it edits is not offered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from lsprotocol import types

from passlint.analysis.edits import edits_by_path
from passlint.analysis.findings import Finding
from passlint.server.convert import SOURCE, Files, file_edits, workspace_edit

FIX_ALL_KIND = "source.fixAll.passlint"
FIX_ALL_TITLE = "Fix all passlint findings"


def wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a request's ``only`` filter admits ``kind`` (a prefix match, as LSP says)."""
    if not only:
        return True
    return any(kind == wanted or kind.startswith(wanted + ".") for wanted in only)


def quick_fixes(
    diagnostics: Iterable[types.Diagnostic],
    version: int | None,
    current_version: Callable[[str], int | None],
    document_changes: bool,
) -> list[types.CodeAction]:
    """One quick fix per passlint diagnostic whose payload is still current (preferred
    unless its payload says it leaves work by hand)."""
    actions = []
    for diagnostic in diagnostics:
        fix = _payload(diagnostic, version)
        if fix is None:
            continue
        files = fix["files"]
        if any(_stale(entry, current_version) for entry in files):
            continue
        actions.append(
            types.CodeAction(
                title=str(fix["title"]),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.get("preferred", True) is not False,
                edit=workspace_edit(files, document_changes),
            )
        )
    return actions


def _payload(diagnostic: types.Diagnostic, version: int | None) -> Mapping[str, Any] | None:
    data = diagnostic.data
    if diagnostic.source != SOURCE or not isinstance(data, Mapping):
        return None
    fix = data.get("fix")
    if not isinstance(fix, Mapping) or not isinstance(fix.get("files"), list):
        return None
    if version is not None and data.get("version") not in (None, version):
        return None
    return fix


def _stale(entry: Mapping[str, Any], current_version: Callable[[str], int | None]) -> bool:
    recorded = entry.get("version")
    return recorded is not None and current_version(str(entry["uri"])) not in (None, recorded)


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
