"""pl completion and rename, kept apart from the rest of the server: they read a pl document
through the pass's public analysis (``analyze_module`` -> ``ModuleAnalysis``, in ``PlModel``)
and the server's navigation, so a rework of the pl front end touches this module only.

- Completion: inside ``valid_shape=[...]``, the ``pl.dynamic`` symbols in scope (module
  level and the enclosing functions' own); at a call site, device kernels: ``self.`` in a
  ``@pl.program`` method gives the program's kernels, a bare name the module's standalone ones.
- Rename of a valid_shape symbol: its ``pl.dynamic`` declaration, every use that resolves to
  it (annotations, imports, other workspace files) and the name string when it is the same.
"""

from __future__ import annotations

import keyword
import re
from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.analysis.pl.model import Dynamic, Function, Module
from passlint.server import completion as mlir_completion
from passlint.server import rename
from passlint.server.completion import Item
from passlint.server.convert import range_json
from passlint.server.lsp_objects import JsonRpcRequestFailed, char_offset, workspace_edit
from passlint.server.models import PlModel
from passlint.server.names import NAME, normal, word_at
from passlint.server.navigation import Target, pl_references

if TYPE_CHECKING:
    from passlint.server.session import Session

Span = tuple[int, int]

_VALID_SHAPE = re.compile(r"valid_shape\s*=\s*\[")
_WORD_BEFORE = re.compile(f"{NAME}$")
_SELF_CALL = re.compile(f"self\\.({NAME})?$")
_CALL_POSITION = re.compile(r"(?:^|[=(,:]|\breturn|\bsubmit\()\s*$")


# -- the features ---------------------------------------------------------------------------------


async def completion_answer(
    session: Session, params: types.CompletionParams
) -> types.CompletionList:
    """pl completion from the current model, or the last one that parsed (moved through the
    edits since) while the text does not."""
    uri, position = params.text_document.uri, params.position
    empty = types.CompletionList(is_incomplete=False, items=[])
    document = session.documents.get(uri)
    model = await session.pl_model(uri)
    if document is None or model is None:
        return empty
    source = session.documents.current_source(document)
    offset = char_offset(source, position)
    at = offset
    if model.module is None:
        parsed = session.models.last_parsed(uri)
        shift = session.documents.edits.shift(uri, parsed[0], document.version) if parsed else None
        if parsed is None or shift is None:
            return empty
        model, at = parsed[1], shift.backward_before(offset)
    line_start = source.line_starts[min(position.line, source.line_count - 1)]
    word = word_before(source.text[line_start:offset])
    found = completion(model, at, source.text[max(0, offset - 4000) : offset])
    if any(item.label == word for item in found) and mlir_completion.typed_only_here(
        source.text, word, offset - len(word)
    ):
        found = [item for item in found if item.label != word]
    return mlir_completion.to_lsp(source, offset, word, found, False)


async def prepare_rename_answer(
    session: Session, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | types.Range | None:
    """The valid_shape symbol a rename at the request's position would rename."""
    model = await session.pl_model(params.text_document.uri)
    if model is None:
        return None
    symbol = symbol_at(model, char_offset(model.source, params.position))
    if symbol is None:
        return None
    _, span = symbol
    return rename.placeholder(model.source, span, model.source.text[span[0] : span[1]])


async def rename_answer(session: Session, params: types.RenameParams) -> types.WorkspaceEdit | None:
    """The edits of every file that renaming the symbol at the request's position makes."""
    model = await session.pl_model(params.text_document.uri)
    if model is None:
        return None
    try:
        found = rename_edits(model, char_offset(model.source, params.position), params.new_name)
    except RenameError as error:
        raise JsonRpcRequestFailed(str(error)) from None
    files = session.documents.files()
    entries = []
    for path, spans in found.items():
        source = files.source(path)
        if source is None:
            continue
        edits = [
            {"range": range_json(source, source.range(*span)), "newText": text}
            for span, text in spans
        ]
        entries.append({"uri": files.uri(path), "version": files.version(path), "edits": edits})
    return workspace_edit(entries, session.features.document_changes)


# -- completion ---------------------------------------------------------------------------------


def word_before(line: str) -> str:
    """The name being typed at the end of ``line`` (its tail only: see ``completion``)."""
    match = _WORD_BEFORE.search(line[-512:])
    return match.group() if match else ""


def completion(model: PlModel, offset: int, before: str) -> list[Item]:
    """What to offer at ``offset`` of the model's text; ``before``: the current text before
    the cursor (it may not parse: the model may be of an earlier version)."""
    module = model.module
    if module is None:
        return []
    prefix = word_before(before)
    head = before[: len(before) - len(prefix)]
    if _inside_valid_shape(head):
        found = [
            Item(name, "dynamic", f'pl.dynamic("{dynamic.symbol}")')
            for name, dynamic in _dynamics_in_scope(module, offset).items()
        ]
    elif (self_call := _SELF_CALL.search(head + prefix)) is not None:
        program = _enclosing_program(module, offset)
        found = [
            Item(f.name, "kernel", f"{f.func_type} kernel")
            for f in module.kernels
            if program is not None and f.program == program
        ]
        prefix = self_call.group(1) or ""
    elif _CALL_POSITION.search(head):
        found = [
            Item(f.name, "kernel", f"{f.func_type} kernel")
            for f in module.kernels
            if f.program is None and f.parent is None
        ]
    else:
        return []
    typed = normal(prefix)
    return sorted((i for i in found if i.label.startswith(typed)), key=lambda i: i.label)


def _inside_valid_shape(head: str) -> bool:
    """Whether the text ends inside the brackets of ``valid_shape=[``."""
    window = head[-4000:]
    opened = None
    for match in _VALID_SHAPE.finditer(window):
        opened = match.end()
    if opened is None:
        return False
    depth = 1
    for char in window[opened:]:
        depth += char == "["
        depth -= char == "]"
        if depth == 0:
            return False
    return True


def _enclosing(module: Module, offset: int) -> list[Function]:
    """The functions whose text holds ``offset``, outermost first."""
    positions = module.positions
    found = []
    for function in module.functions:
        start, end = positions.span(function.node)
        if start <= offset <= end:
            found.append(function)
    return found


def _enclosing_program(module: Module, offset: int) -> str | None:
    for function in reversed(_enclosing(module, offset)):
        if function.program is not None:
            return function.program
    return None


def _dynamics_in_scope(module: Module, offset: int) -> dict[str, Dynamic]:
    found = dict(module.scope.dynamics)
    for function in _enclosing(module, offset):  # inner functions' names shadow outer ones
        found.update(function.scope.dynamics)
    return found


# -- rename ----------------------------------------------------------------------------------------


class RenameError(ValueError):
    """A rename that cannot be made (the message says why)."""


def symbol_at(model: PlModel, offset: int) -> tuple[Dynamic, Span] | None:
    """The ``pl.dynamic`` symbol named at ``offset`` (its declaration or a use), and the span
    of the name there."""
    module, analysis = model.module, model.analysis
    found = word_at(model.source.text, offset)
    if module is None or analysis is None or found is None:
        return None
    word, span = found
    for _, symbol in analysis.symbols_at(offset):
        if symbol.dynamic is not None and symbol.name == word:
            return symbol.dynamic, span
    candidates = _dynamics_in_scope(module, offset)
    dynamic = candidates.get(word)
    if dynamic is not None and dynamic.span[0] <= span[0] <= dynamic.span[1]:
        return dynamic, span  # the declaration itself
    return None


def rename_edits(model: PlModel, offset: int, new_name: str) -> dict[str, list[tuple[Span, str]]]:
    """Per file, the spans to replace to rename the symbol at ``offset`` to ``new_name``."""
    found = symbol_at(model, offset)
    if found is None:
        raise RenameError("only a pl.dynamic valid_shape symbol can be renamed here")
    dynamic, _ = found
    if not new_name.isidentifier() or keyword.iskeyword(new_name):
        raise RenameError(f"{new_name!r} is not a Python name")
    module = model.module
    assert module is not None
    if normal(new_name) != dynamic.name and normal(new_name) in module.scope.names:
        raise RenameError(f"{new_name} is already defined in this module")
    targets: list[Target] = pl_references(model, offset, include_declaration=True)
    edits: dict[str, list[tuple[Span, str]]] = {}
    for path, span in targets:
        edits.setdefault(path, []).append((span, new_name))
    string = _symbol_string(model, dynamic)
    if string is not None:
        edits.setdefault(dynamic.path, []).append((string, new_name))
    return {path: sorted(set(spans)) for path, spans in edits.items()}


def _symbol_string(model: PlModel, dynamic: Dynamic) -> Span | None:
    """The span of the name inside ``pl.dynamic("NAME")`` when it is the Python name."""
    if dynamic.symbol != dynamic.name or dynamic.path != model.path:
        return None
    text = model.source.text
    pattern = re.compile(r"""dynamic\(\s*(["'])""" + re.escape(dynamic.symbol) + r"\1")
    match = pattern.search(text, dynamic.span[0], dynamic.span[1] + 1)
    if match is None:
        return None
    start = match.end() - 1 - len(dynamic.symbol)
    return start, start + len(dynamic.symbol)
