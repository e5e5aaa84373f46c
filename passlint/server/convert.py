"""Findings to LSP types: diagnostics with UTF-16 ranges, fix payloads and workspace edits.

Everything here is pure: it takes Findings plus a ``Files`` view (how to see a file's text,
URI and open version) and returns lsprotocol objects or plain JSON data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from lsprotocol import types
from pygls.uris import from_fs_path

from passlint.analysis.findings import Finding, Fix, Position, Range, Severity, TextEdit
from passlint.analysis.rules import RULES
from passlint.analysis.source import SourceText

SOURCE = "passlint"
INTERNAL_ERROR_CODE = "PL002"  # internal-error, in the rule catalog
_TAGS = {
    "unnecessary": types.DiagnosticTag.Unnecessary,
    "deprecated": types.DiagnosticTag.Deprecated,
}


class Files(Protocol):
    """How the converters see files: text (open document or disk), URI, open version."""

    def source(self, path: str) -> SourceText | None: ...

    def uri(self, path: str) -> str: ...

    def version(self, path: str) -> int | None: ...


@dataclass
class SnapshotFiles:
    """A ``Files`` view frozen at one moment: open documents by path, disk for the rest."""

    texts: Mapping[str, str]
    uris: Mapping[str, str]
    versions: Mapping[str, int]
    _sources: dict[str, SourceText | None] = field(default_factory=dict)

    def source(self, path: str) -> SourceText | None:
        if path not in self._sources:
            text = self.texts.get(path)
            if text is None:
                try:
                    with open(path, encoding="utf-8", newline="") as handle:
                        text = handle.read()
                except (OSError, UnicodeDecodeError):
                    text = None
            self._sources[path] = None if text is None else SourceText(text)
        return self._sources[path]

    def uri(self, path: str) -> str:
        return self.uris.get(path) or from_fs_path(path) or path

    def version(self, path: str) -> int | None:
        return self.versions.get(path)


# -- positions ---------------------------------------------------------------------------------


def lsp_position(source: SourceText | None, position: Position) -> types.Position:
    if source is not None:
        position = source.to_utf16(position)
    return types.Position(line=position.line, character=position.column)


def lsp_range(source: SourceText | None, rng: Range) -> types.Range:
    return types.Range(start=lsp_position(source, rng.start), end=lsp_position(source, rng.end))


def char_position(source: SourceText, position: types.Position) -> Position:
    """A client (UTF-16) position as a character position of ``source``."""
    return source.from_utf16(Position(position.line, position.character))


def char_offset(source: SourceText, position: types.Position) -> int:
    return source.offset(char_position(source, position))


def span_range(source: SourceText, span: tuple[int, int]) -> types.Range:
    """An LSP range for a ``(start, end)`` character-offset span."""
    return lsp_range(source, source.range(*span))


# -- diagnostics -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClientFeatures:
    """What the client can take in a diagnostic or an edit."""

    related_information: bool = True
    code_description: bool = True
    tags: frozenset[int] = frozenset({1, 2})
    data: bool = True
    document_changes: bool = True


def to_diagnostic(
    finding: Finding, files: Files, features: ClientFeatures, version: int | None
) -> types.Diagnostic:
    source = files.source(finding.path)
    rule = RULES.get(finding.code)
    related = None
    if features.related_information and finding.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=files.uri(location.path),
                    range=lsp_range(files.source(location.path), location.range),
                ),
                message=location.message,
            )
            for location in finding.related
        ]
    tags = [
        _TAGS[tag] for tag in finding.tags if tag in _TAGS and _TAGS[tag].value in features.tags
    ]
    data = None
    if finding.fix is not None and features.data:
        data = {"version": version, "fix": fix_payload(finding.fix, files)}
    return types.Diagnostic(
        range=lsp_range(source, finding.range),
        severity=types.DiagnosticSeverity(int(finding.severity)),
        code=finding.code,
        code_description=(
            types.CodeDescription(href=rule.url)
            if rule is not None and features.code_description
            else None
        ),
        source=SOURCE,
        message=finding.message,
        related_information=related,
        tags=tags or None,
        data=data,
    )


def internal_error_diagnostic(error: BaseException) -> types.Diagnostic:
    """The one diagnostic a crashed analysis leaves on its document (no traceback)."""
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
        ),
        severity=types.DiagnosticSeverity(int(Severity.ERROR)),
        code=INTERNAL_ERROR_CODE,
        code_description=types.CodeDescription(href=RULES[INTERNAL_ERROR_CODE].url),
        source=SOURCE,
        message=(
            f"passlint could not analyse this document ({type(error).__name__}); this is a "
            "bug in passlint, the server log has the details"
        ),
    )


# -- fixes -------------------------------------------------------------------------------------


def fix_payload(fix: Fix, files: Files) -> dict[str, Any]:
    """A fix as JSON data in client units: its title and, per file, version and edits."""
    return {"title": fix.title, "files": file_edits(_group(fix.edits), files)}


def file_edits(edits: Mapping[str, Sequence[TextEdit]], files: Files) -> list[dict[str, Any]]:
    out = []
    for path, path_edits in edits.items():
        source = files.source(path)
        out.append(
            {
                "uri": files.uri(path),
                "version": files.version(path),
                "edits": [
                    {
                        "range": _range_json(lsp_range(source, edit.range)),
                        "newText": edit.new_text,
                    }
                    for edit in path_edits
                ],
            }
        )
    return out


def _group(edits: Iterable[TextEdit]) -> dict[str, list[TextEdit]]:
    grouped: dict[str, list[TextEdit]] = {}
    for edit in edits:
        grouped.setdefault(edit.path, []).append(edit)
    return grouped


def _range_json(rng: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


def _range_from_json(data: Mapping[str, Any]) -> types.Range:
    start, end = data["start"], data["end"]
    return types.Range(
        start=types.Position(line=int(start["line"]), character=int(start["character"])),
        end=types.Position(line=int(end["line"]), character=int(end["character"])),
    )


def workspace_edit(
    file_list: Sequence[Mapping[str, Any]], document_changes: bool
) -> types.WorkspaceEdit:
    """A WorkspaceEdit from per-file payloads: versioned ``documentChanges`` when the client
    takes them, plain ``changes`` otherwise."""
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=str(entry["uri"]), version=entry.get("version")
                    ),
                    edits=[_text_edit(edit) for edit in entry["edits"]],
                )
                for entry in file_list
            ]
        )
    return types.WorkspaceEdit(
        changes={
            str(entry["uri"]): [_text_edit(edit) for edit in entry["edits"]] for entry in file_list
        }
    )


def _text_edit(edit: Mapping[str, Any]) -> types.TextEdit:
    return types.TextEdit(range=_range_from_json(edit["range"]), new_text=str(edit["newText"]))
