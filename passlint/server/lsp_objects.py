"""Positions, ranges and workspace edits as lsprotocol objects, for the server's features.

(Diagnostics and fix payloads are JSON data, made by ``convert``.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from passlint.analysis.findings import Position, Range
from passlint.analysis.source import SourceText


class JsonRpcRequestFailed(JsonRpcException):
    """A request the server cannot answer (LSP's RequestFailed), with a message for the user."""

    CODE = -32803


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
