"""Rename in .mlir documents: an SSA value (all results of its group: ``%0`` of ``%0#1``),
a block label, or an ``@symbol`` of the module, with every use, from the index of the
document's current version."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.analysis.source import SourceText
from passlint.server.convert import range_json
from passlint.server.lsp_objects import (
    JsonRpcRequestFailed,
    char_offset,
    span_range,
    workspace_edit,
)
from passlint.server.mlir_index import LABEL, SYMBOL, VALUE, MlirIndex
from passlint.server.navigation import mlir_entity
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

Span = tuple[int, int]
PLACEHOLDER = 512  # characters of a name sent as the rename's placeholder, at most

_SIGIL = {VALUE: "%", LABEL: "^", SYMBOL: "@"}
_NAME = {
    VALUE: re.compile(r"%(?:\d+|[A-Za-z_$.\-][\w$.\-]*)"),
    LABEL: re.compile(r"\^[\w$.\-]+"),
    SYMBOL: re.compile(r'@(?:[A-Za-z_$.\-][\w$.\-]*|"[^"\\\n]*")'),
}


class RenameError(ValueError):
    """A rename that cannot be made (the message says why)."""


def prepare_answer(
    view: MlirView, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | types.Range | None:
    """What a rename at the request's position would rename in a .mlir document."""
    found = target(view, char_offset(view.source, params.position))
    if found is None:
        return None
    _, span, name = found
    return placeholder(view.source, span, name)


def answer(session: Session, view: MlirView, params: types.RenameParams) -> types.WorkspaceEdit:
    """The edits renaming the name at the request's position makes (``view``: of the
    document's current version)."""
    uri = params.text_document.uri
    try:
        found = edits(view, char_offset(view.source, params.position), params.new_name)
    except RenameError as error:
        raise JsonRpcRequestFailed(str(error)) from None
    source = view.source
    changes = [
        {"range": range_json(source, source.range(*span)), "newText": text} for span, text in found
    ]
    version = session.documents.version_of_uri(uri)
    return workspace_edit(
        [{"uri": uri, "version": version, "edits": changes}], session.features.document_changes
    )


def target(view: MlirView, offset: int) -> tuple[int, Span, str] | None:
    """The entity at ``offset``, the span of its name there (without ``#n``) and the name."""
    entity = mlir_entity(view, offset)
    if entity is None:
        return None
    index = view.index
    at = view.to_index(offset)
    assert at is not None
    occurrence = index.occurrence_at(at)
    assert occurrence is not None
    start = index.starts[occurrence]
    name = written(index, entity)
    span = view.to_current((start, start + len(name)))
    return None if span is None else (entity, span, name)


def placeholder(
    source: SourceText, span: Span, name: str
) -> types.PrepareRenamePlaceholder | types.Range:
    """prepareRename's answer: the range with the name to start from, or only the range
    for a longer name (the client reads it from the document itself)."""
    found = span_range(source, span)
    if len(name) > PLACEHOLDER:
        return found
    return types.PrepareRenamePlaceholder(range=found, placeholder=name)


def written(index: MlirIndex, entity: int) -> str:
    """The entity's name as the text writes it (``@main``, ``%0``, ``^bb1``)."""
    name = index.names[entity]
    return f"@{name}" if index.kinds[entity] == SYMBOL else name


def edits(view: MlirView, offset: int, new_name: str) -> list[tuple[Span, str]]:
    """Every span to replace, with the new name (sigil added when left out)."""
    found = target(view, offset)
    if found is None:
        raise RenameError("nothing to rename here")
    entity, _, old = found
    index = view.index
    kind = index.kinds[entity]
    sigil = _SIGIL[kind]
    new = new_name if new_name.startswith(sigil) else sigil + new_name
    if not _NAME[kind].fullmatch(new):
        raise RenameError(f"{new!r} is not a valid name here")
    if new != old and _taken(index, entity, new):
        raise RenameError(f"{new} is already defined in this scope")
    out = []
    for span, _ in index.occurrences_of(entity):
        moved = view.to_current((span[0], span[0] + len(old)))
        if moved is None:
            raise RenameError("the document changed since its last analysis; try again")
        out.append((moved, new))
    return sorted(set(out))


def _taken(index: MlirIndex, entity: int, name: str) -> bool:
    """Whether another entity of the same kind already has ``name`` where ``entity`` is
    defined (values: the same function; labels: the same region; symbols: the module)."""
    kind = index.kinds[entity]
    bare = name[1:] if kind == SYMBOL else name
    chunk = index.entity_chunks[entity]
    scope = _scope(index, entity)
    for other in range(len(index.names)):
        if other == entity or index.kinds[other] != kind or index.names[other] != bare:
            continue
        if index.entity_chunks[other] == chunk and _scope(index, other) == scope:
            return True
    return False


def _scope(index: MlirIndex, entity: int) -> int:
    kind = index.kinds[entity]
    if kind == SYMBOL:
        return -1
    block = index.scopes[entity]
    if kind == LABEL:
        return index.block_regions[block] if block >= 0 else -1
    while block >= 0 and not index.block_isolated[block]:
        block = index.block_parents[block]
    return index.block_regions[block] if block >= 0 else -1
