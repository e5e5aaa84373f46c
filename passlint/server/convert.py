"""Findings to LSP data: diagnostics with UTF-16 ranges and fix payloads, as JSON data.

Everything here is pure: it takes Findings plus a ``Files`` view (how to see a file's text,
URI and open version) and returns plain JSON data. Diagnostics are JSON data, and JSON text
for publishing: a large module has hundreds, and building lsprotocol objects only for
pygls' converter to take them apart again, then serialising them, costs as much as the
analysis of an edit. The analysis process converts with this module alone: lsprotocol's
types (``lsp_objects``, for the server's features) would add 14 MB to its memory.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pygls.uris import from_fs_path

from passlint.analysis import codes
from passlint.analysis.findings import Finding, Position, Range, Severity, TextEdit
from passlint.analysis.source import SourceText
from passlint.catalog import RULES
from passlint.filesystem import default_size_limit, read_regular

SOURCE = "passlint"
INTERNAL_ERROR_CODE = codes.PL002  # internal-error, in the rule catalog
Json = dict[str, Any]  # JSON data, as lsprotocol's converter writes an LSP type
_ENCODER = json.JSONEncoder(separators=(",", ":"))
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_TAGS = {"unnecessary": 1, "deprecated": 2}  # LSP's DiagnosticTag


class Files(Protocol):
    """How the converters see files: text (open document or disk), URI, open version."""

    def source(self, path: str) -> SourceText | None: ...

    def uri(self, path: str) -> str: ...

    def version(self, path: str) -> int | None: ...


@dataclass
class SnapshotFiles:
    """A ``Files`` view frozen at one moment: open documents by path, disk for the rest
    (regular files only, at most ``limit`` bytes of each, by default as ``max-file-size``
    has it: ``filesystem``). A file of ``bmp`` has no source: it holds no character beyond
    U+FFFF, so its columns are UTF-16 columns already (a large module read from its file,
    never held here)."""

    texts: Mapping[str, str]
    uris: Mapping[str, str]
    versions: Mapping[str, int]
    limit: int | None = None
    bmp: frozenset[str] = frozenset()
    _sources: dict[str, SourceText | None] = field(default_factory=dict)

    def source(self, path: str) -> SourceText | None:
        if path in self.bmp:
            return None
        if path not in self._sources:
            text = self.texts.get(path)
            if text is None:
                try:
                    limit = self.limit or default_size_limit(path)
                    text = read_regular(path, limit).decode("utf-8")
                except (OSError, UnicodeDecodeError):
                    text = None
            self._sources[path] = None if text is None else SourceText(text)
        return self._sources[path]

    def uri(self, path: str) -> str:
        return self.uris.get(path) or from_fs_path(path) or path

    def version(self, path: str) -> int | None:
        return self.versions.get(path)


# -- positions ---------------------------------------------------------------------------------


def range_json(source: SourceText | None, rng: Range) -> Json:
    """``lsp_range`` as JSON data."""
    return {"start": _position_json(source, rng.start), "end": _position_json(source, rng.end)}


def _position_json(source: SourceText | None, position: Position) -> Json:
    if source is not None:
        position = source.to_utf16(position)
    return {"line": position.line, "character": position.column}


# -- diagnostics -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClientFeatures:
    """What the client can take in a diagnostic or an edit."""

    related_information: bool = True
    code_description: bool = True
    tags: frozenset[int] = frozenset({1, 2})
    data: bool = True
    document_changes: bool = True
    markdown: bool = True  # hover in Markdown (else plain text)


@dataclass(frozen=True)
class JsonData:
    """A message part that is JSON data already (dicts, lists, strings, numbers, None): the
    server's converter hands it to ``json.dumps`` as it is, without walking it."""

    value: Any


def json_value(data: JsonData) -> Any:
    """The converter's unstructure hook for ``JsonData``."""
    return data.value


def to_diagnostic(
    finding: Finding, files: Files, features: ClientFeatures, version: int | None
) -> Json:
    """The LSP diagnostic of ``finding`` as JSON data, with a fix payload for ``version``."""
    return diagnostic_parts(finding, files, features).diagnostic(files, version)


@dataclass(frozen=True)
class DiagnosticParts:
    """A finding's diagnostic as JSON data and as JSON text, less the document versions its
    fix payload records: ``diagnostic`` and ``text`` add them. The JSON is what lsprotocol's
    converter would write for the same ``types.Diagnostic`` (none is built: a large module
    has hundreds), and it is shared between versions, so read-only.

    ``files`` says what the parts were computed from: per file, its URI and the lines its
    positions are on (their UTF-16 columns depend on the text of those lines)."""

    finding: Finding
    files: tuple[tuple[str, str, frozenset[int]], ...]  # path, URI, lines
    body: Json
    fix: tuple[str, tuple[tuple[str, str, list[Json]], ...]] | None  # title, (path, uri, edits)
    preferred: bool = True
    body_text: str = field(init=False)
    fix_text: tuple[str, tuple[tuple[str, str, str], ...]] | None = field(init=False)

    def __post_init__(self) -> None:
        # The text of the diagnostic with its fix, cut where the versions go: ``body_text``
        # (less its closing brace) + version + ``fix_text[0]`` + per file: before +
        # version + after (``fix_text[1]``) + the closing brackets.
        object.__setattr__(self, "body_text", json_text(self.body))
        fix_text = None
        if self.fix is not None:
            title, parts = self.fix
            preferred = "" if self.preferred else '"preferred":false,'
            fix_text = (
                f',"fix":{{"title":{json_text(title)},{preferred}"files":[',
                tuple(
                    (path, f'{{"uri":{json_text(uri)},"version":', f',"edits":{json_text(e)}}}')
                    for path, uri, e in parts
                ),
            )
        object.__setattr__(self, "fix_text", fix_text)

    def diagnostic(self, files: Files, version: int | None) -> Json:
        if self.fix is None:
            return self.body
        title, parts = self.fix
        payload: Json = {"title": title}
        if not self.preferred:
            payload["preferred"] = False
        payload["files"] = [
            {"uri": uri, "version": files.version(path), "edits": edits}
            for path, uri, edits in parts
        ]
        return {**self.body, "data": {"version": version, "fix": payload}}

    def text(self, files: Files, version: int | None) -> str:
        """``diagnostic`` as JSON text."""
        if self.fix_text is None:
            return self.body_text
        fix, parts = self.fix_text
        per_file = ",".join(
            before + _version_text(files.version(path)) + after for path, before, after in parts
        )
        head = self.body_text[:-1] + ',"data":{"version":' + _version_text(version)
        return head + fix + per_file + "]}}}"


def diagnostic_parts(finding: Finding, files: Files, features: ClientFeatures) -> DiagnosticParts:
    """Convert ``finding`` for a client with ``features``, ``files`` as they are now."""
    uris: dict[str, str] = {}
    lines: dict[str, set[int]] = {}

    def uri(path: str) -> str:
        if path not in uris:
            uris[path] = files.uri(path)
        return uris[path]

    def json_range(path: str, rng: Range) -> Json:
        uri(path)
        lines.setdefault(path, set()).update((rng.start.line, rng.end.line))
        return range_json(files.source(path), rng)

    body: Json = {
        "range": json_range(finding.path, finding.range),
        "message": finding.message,
        "severity": int(finding.severity),
        "code": finding.code,
        "source": SOURCE,
    }
    href = rule_url(finding.code)
    if href and features.code_description:
        body["codeDescription"] = {"href": href}
    tags = [_TAGS[tag] for tag in finding.tags if tag in _TAGS and _TAGS[tag] in features.tags]
    if tags:
        body["tags"] = tags
    if features.related_information and finding.related:
        body["relatedInformation"] = [
            {
                "location": {
                    "uri": uri(location.path),
                    "range": json_range(location.path, location.range),
                },
                "message": location.message,
            }
            for location in finding.related
        ]
    fix = None
    if finding.fix is not None and features.data:
        parts = tuple(
            (
                path,
                uri(path),
                [{"range": json_range(path, e.range), "newText": e.new_text} for e in edits],
            )
            for path, edits in _group(finding.fix.edits).items()
        )
        fix = (finding.fix.title, parts)
    used = tuple((path, uris[path], frozenset(lines[path])) for path in uris)
    preferred = finding.fix is None or finding.fix.preferred
    return DiagnosticParts(finding, used, body, fix, preferred)


def json_text(value: Any) -> str:
    """JSON data as compact JSON text (ASCII)."""
    return _ENCODER.encode(value)


def _version_text(version: int | None) -> str:
    return "null" if version is None else str(version)


def astral_lines(source: SourceText | None) -> frozenset[int]:
    """The lines of ``source`` whose UTF-16 columns are not its character columns: those
    with a character outside the Basic Multilingual Plane (two UTF-16 code units)."""
    if source is None or source.text.isascii():
        return frozenset()
    return frozenset(source.position(m.start()).line for m in _ASTRAL.finditer(source.text))


def internal_error_diagnostic(error: BaseException) -> Json:
    """The one diagnostic a crashed analysis leaves on its document (no traceback)."""
    start = {"line": 0, "character": 0}
    diagnostic: Json = {
        "range": {"start": start, "end": dict(start)},
        "message": (
            f"Internal error ({type(error).__name__}) while analysing this document; please "
            "report this bug in passlint. The document was not analysed; the server's log has "
            "the details."
        ),
        "severity": int(Severity.ERROR),
        "code": INTERNAL_ERROR_CODE,
        "source": SOURCE,
    }
    if href := rule_url(INTERNAL_ERROR_CODE):
        diagnostic["codeDescription"] = {"href": href}
    return diagnostic


def rule_url(code: str) -> str | None:
    """The page documenting a rule, when there is one (``codeDescription`` is left out
    otherwise: a link must lead somewhere)."""
    rule = RULES.get(code)
    return rule.url if rule is not None else None


# -- fixes -------------------------------------------------------------------------------------


def file_edits(edits: Mapping[str, Sequence[TextEdit]], files: Files) -> list[Json]:
    """Edits as JSON data in client units, per file with its URI and open version."""
    return [
        {
            "uri": files.uri(path),
            "version": files.version(path),
            "edits": _edits_json(files.source(path), path_edits),
        }
        for path, path_edits in edits.items()
    ]


def _edits_json(source: SourceText | None, edits: Iterable[TextEdit]) -> list[Json]:
    return [{"range": range_json(source, edit.range), "newText": edit.new_text} for edit in edits]


def _group(edits: Iterable[TextEdit]) -> dict[str, list[TextEdit]]:
    grouped: dict[str, list[TextEdit]] = {}
    for edit in edits:
        grouped.setdefault(edit.path, []).append(edit)
    return grouped
