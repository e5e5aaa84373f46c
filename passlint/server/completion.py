"""MLIR completion from the analysis' index: SSA values and block arguments in scope after
``%`` (defined before the cursor in its block or an enclosing one, up to the function), block
labels of the region after ``^``, the module's ``@symbols``, ``#``/``!`` aliases, op names of
known dialects and of ops seen in the open documents, and types seen in the file."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.analysis.source import SourceText
from passlint.server.lsp_objects import char_offset, lsp_range
from passlint.server.mlir_index import MlirIndex
from passlint.server.op_names import KNOWN_OPS
from passlint.server.pending_names import PendingNames, changed_spans, pending_names
from passlint.server.quoting import shown
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

LIMIT = 500  # items per answer; the client asks again as the word grows
_TAIL = 512  # longer names are not completed
TRIGGERS = ["%", "^", "@", "#", "!", "."]
_WORD = re.compile(r"[%^@#!]?[\w$.\-]*$")
_OP_POSITION = re.compile(r"^\s*(?:(?:%[\w$.\-#:]+\s*,?\s*)+=\s*)?\"?$")
_TYPE_POSITION = re.compile(r"(?::|->|\(|,|<)\s*$")


@dataclass(frozen=True)
class Item:
    label: str
    kind: str  # a key of KINDS
    detail: str | None = None


KINDS = {
    "value": types.CompletionItemKind.Variable,
    "label": types.CompletionItemKind.Reference,
    "symbol": types.CompletionItemKind.Function,
    "alias": types.CompletionItemKind.Constant,
    "op": types.CompletionItemKind.Operator,
    "type": types.CompletionItemKind.TypeParameter,
    "dynamic": types.CompletionItemKind.Constant,  # pl
    "kernel": types.CompletionItemKind.Function,  # pl
}


def answer(
    session: Session, view: MlirView, params: types.CompletionParams
) -> types.CompletionList:
    """Completion at the request's position of a .mlir document (its view ``view``), op
    names seen in the other open documents among the items."""
    uri, position = params.text_document.uri, params.position
    source = view.source
    offset = char_offset(source, position)
    line_start = source.line_starts[min(position.line, source.line_count - 1)]
    before = source.text[line_start:offset]
    others = [
        name
        for other, result in session.documents.latest_results()
        if other != uri and result.index is not None
        for name in result.index.seen_ops
    ]
    found, cut = items(view, offset, before, others)
    return to_lsp(source, offset, word_before(before), found, cut)


def typed_only_here(text: str, word: str, start: int) -> bool:
    """Is the name ``word``, typed at ``start``, written nowhere else in ``text``? Then an
    item of that very name comes from the typing itself (the analysed version already
    held the half-typed word), and is not offered."""
    pattern = re.compile(rf"(?<![\w$.\-]){re.escape(word)}(?![\w$.\-])")
    return all(match.start() == start for match in pattern.finditer(text))


def to_lsp(
    source: SourceText, offset: int, word: str, found: list[Item], cut: bool
) -> types.CompletionList:
    """The items, each replacing ``word`` (what is typed before ``offset``); a name longer
    than ``_TAIL`` is not offered (its label is the text it inserts: it cannot be cut)."""
    replaced = lsp_range(source, source.range(offset - len(word), offset))
    return types.CompletionList(
        is_incomplete=cut,
        items=[
            types.CompletionItem(
                label=item.label,
                kind=KINDS[item.kind],
                detail=shown(item.detail) if item.detail is not None else None,
                text_edit=types.TextEdit(range=replaced, new_text=item.label),
            )
            for item in found
            if len(item.label) <= _TAIL
        ],
    )


def word_before(line: str) -> str:
    """The word being typed at the end of ``line`` (the text before the cursor). Only the
    line's tail is searched: a regex anchored at the end tries every start, and a dump's
    lines hold megabyte-long hex words."""
    match = _WORD.search(line[-_TAIL:])
    return match.group() if match else ""


def items(
    view: MlirView, offset: int, before: str, other_ops: Iterable[str] = ()
) -> tuple[list[Item], bool]:
    """What to offer at ``offset`` with ``before`` the line's text before the cursor; and
    whether the list is cut at ``LIMIT``."""
    index = view.index
    before = before[-_TAIL:]
    word = word_before(before)
    head = before[: len(before) - len(word)]
    at = view.nearest_index_offset(offset - len(word))
    pending = _pending(view, offset - len(before))
    found: list[Item] = []
    independent: set[str] = set()  # names known whatever the document holds
    if word.startswith("%"):
        found = [Item(name, "value") for name, _ in reversed(pending.values)]
        found += _named(index, index.visible_values(at), "value", word)
    elif word.startswith("^"):
        found = _named(index, index.labels_in_scope(at), "label", word)
        found += [Item(name, "label") for name in pending.labels]
    elif word.startswith("@"):
        chunk = index.chunk_at(at)
        found = [Item(f"@{index.names[e]}", "symbol") for e in index.symbols_of_chunk(chunk)]
        found += [Item(name, "symbol") for name in pending.symbols]
    elif word.startswith(("#", "!")):
        found = [
            Item(name, "alias")
            for name in sorted(index.aliases)
            if name.startswith(word[0]) and not re.fullmatch(r"#loc\d*", name)
        ]
    elif _OP_POSITION.match(head):
        independent = {*KNOWN_OPS, *other_ops}
        found = [Item(name, "op") for name in sorted({*independent, *index.seen_ops})]
    elif _TYPE_POSITION.search(head):
        found = [Item(name, "type") for name in sorted(index.seen_types)]
    seen: set[str] = set()
    matching = []
    for item in found:
        if item.label.startswith(word) and item.label not in seen:
            seen.add(item.label)
            matching.append(item)
    start = offset - len(word)
    if word in seen and word not in independent and typed_only_here(view.source.text, word, start):
        matching = [item for item in matching if item.label != word]
    return matching[:LIMIT], len(matching) > LIMIT


def _pending(view: MlirView, line_start: int) -> PendingNames:
    """What the lines changed since the index define (values: those above the cursor's
    line, nearest first once reversed)."""
    if view.shift.identity:
        return PendingNames()
    found = pending_names(view.source.text, changed_spans(view.shift))
    found.values = [(name, at) for name, at in found.values if at < line_start]
    return found


def _named(index: MlirIndex, entities: list[int], kind: str, prefix: str) -> list[Item]:
    """The names of ``entities`` starting with ``prefix``: the ``LIMIT + 1`` defined nearest
    before the cursor (a model's @main defines tens of thousands), in natural order."""
    seen: dict[str, Item] = {}
    names = index.names
    for entity in sorted(entities, key=index.visible_from.__getitem__, reverse=True):
        name = names[entity]
        if name not in seen and name.startswith(prefix):
            seen[name] = Item(name, kind)
            if len(seen) > LIMIT:
                break
    return sorted(seen.values(), key=lambda item: _natural(item.label))


def _natural(name: str) -> tuple[str, int, str]:
    match = re.fullmatch(r"(\D*)(\d+)(.*)", name)
    return (match.group(1), int(match.group(2)), match.group(3)) if match else (name, -1, "")
