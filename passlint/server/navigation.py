"""Go-to-definition and references: SSA values (``%0#1`` too), block arguments, ``@symbols``
in .mlir files, and kernels / ``pl.dynamic`` symbols in pl sources. Offsets in, spans out."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.analysis.pl.index import workspace_index
from passlint.analysis.pl.model import CallSite, Function, Module, Where
from passlint.analysis.pl.positions import Positions
from passlint.analysis.pl.python_text import bom_length
from passlint.analysis.pl.resolve import RDynamic, Resolved, Resolver, RFunction, RParam
from passlint.server import locations
from passlint.server.convert import Files
from passlint.server.lsp_objects import char_offset, span_range
from passlint.server.models import PlModel
from passlint.server.names import defined_name_span, last_name_span, name_span, word_at
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

Span = tuple[int, int]
Target = tuple[str, Span]  # (path, span)


async def definition(session: Session, params: types.DefinitionParams) -> list[types.Location]:
    """Where the name at the request's position is defined: in a .mlir document the lines
    a source location names, else the value, label or symbol's definition."""
    uri = params.text_document.uri
    view = await session.mlir_view(uri)
    if view is not None:
        offset = char_offset(view.source, params.position)
        frames = locations.targets(session, uri, view, offset)
        if frames:
            return frames
        spans = mlir_definition(view, offset)
        return [types.Location(uri=uri, range=span_range(view.source, span)) for span in spans]
    model = await session.pl_model(uri)
    if model is None:
        return []
    offset = char_offset(model.source, params.position)
    return to_locations(session.documents.files(), pl_definition(model, offset))


async def references(session: Session, params: types.ReferenceParams) -> list[types.Location]:
    """Every use of the name at the request's position (its definition too when asked)."""
    uri = params.text_document.uri
    include = params.context.include_declaration
    view = await session.mlir_view(uri)
    if view is not None:
        offset = char_offset(view.source, params.position)
        spans = mlir_references(view, offset, include)
        return [types.Location(uri=uri, range=span_range(view.source, span)) for span in spans]
    model = await session.pl_model(uri)
    if model is None:
        return []
    offset = char_offset(model.source, params.position)
    targets = pl_references(model, offset, include)
    return to_locations(session.documents.files(), targets)


# -- MLIR ---------------------------------------------------------------------------------------


def mlir_entity(view: MlirView, offset: int) -> int | None:
    """The value, label or symbol named at ``offset`` (a current offset)."""
    at = view.to_index(offset)
    occurrence = view.index.occurrence_at(at) if at is not None else None
    return None if occurrence is None else view.index.entities[occurrence]


def mlir_definition(view: MlirView, offset: int) -> list[Span]:
    entity = mlir_entity(view, offset)
    definition = view.index.definition(entity) if entity is not None else None
    moved = view.to_current(definition) if definition is not None else None
    return [moved] if moved is not None else []


def mlir_references(view: MlirView, offset: int, include_declaration: bool) -> list[Span]:
    entity = mlir_entity(view, offset)
    if entity is None:
        return []
    spans = {
        moved
        for span, is_definition in view.index.occurrences_of(entity)
        if (include_declaration or not is_definition)
        and (moved := view.to_current(span)) is not None
    }
    return sorted(spans)


# -- pl -----------------------------------------------------------------------------------------


def function_name_span(positions: Positions, function: Function) -> Span:
    """The span of the name after ``def`` (the ast gives only the statement)."""
    return defined_span(positions, function.node, "def", function.name)


def defined_span(positions: Positions, node: ast.AST, keyword: str, name: str) -> Span:
    """The span of the name after ``def`` or ``class`` (``keyword``) in ``node``'s
    statement, else the statement's."""
    start, end = positions.span(node)
    found = defined_name_span(positions.source.text, start, end, keyword, name)
    return found if found is not None else (start, end)


def _positions(module: Module) -> Positions:
    return module.positions


def _name_in(module: Module, span: Span, name: str) -> Span:
    """The first ``name`` inside ``span`` (e.g. the target of ``X = pl.dynamic(...)``)."""
    found = name_span(module.text, span[0], span[1], name)
    return found if found is not None else span


def _where(positions: Positions, offset: int) -> Where:
    """The ast's place of ``offset``: its 1-based line and 1-based UTF-8 column."""
    source = positions.source
    line = source.position(offset).line
    start = source.line_starts[line] + (bom_length(source.text) if line == 0 else 0)
    return line + 1, len(source.text[start:offset].encode("utf-8", "surrogatepass")) + 1


def _enclosing(module: Module, positions: Positions, offset: int) -> Function | None:
    """The innermost function whose statement holds ``offset``."""
    inner = None
    for function in module.functions:
        start, end = positions.span(function.node)
        if start <= offset <= end:
            inner = function  # functions come parents first
    return inner


def _scope_at(
    function: Function | None, positions: Positions, offset: int, point: Where
) -> tuple[Function | None, Where]:
    """Where a name at ``offset`` inside ``function``'s statement is looked up: its body at
    ``point``, or (its decorators and signature) where the definition runs."""
    body = function.node.body if function is not None else []
    if function is not None and body and offset < positions.start(body[0]):
        return function.parent, function.defined_at
    return function, point


def _target_at(resolver: Resolver, module: Module, offset: int) -> Resolved | None:
    """What the identifier at ``offset`` names: a kernel (function), a ``pl.dynamic``."""
    found = word_at(module.text, offset)
    if found is None:
        return None
    word, (start, _) = found
    positions = _positions(module)
    enclosing = _enclosing(module, positions, offset)
    if _after_dot(module.text, start):  # self.k / alias.k: a call target
        for site in enclosing.calls if enclosing is not None else []:
            if site.target_name == word and _target_span(positions, site) == found[1]:
                return resolver.callee(site, module)
        return None
    for function in module.functions:  # the name of a def
        if function.name == word and function_name_span(positions, function) == found[1]:
            return RFunction(function, module)
    # just after the word's start: a name on its own binding line is that binding
    scope, point = _scope_at(enclosing, positions, offset, _where(positions, start))
    return resolver.resolve(word, module, scope, point)


def _after_dot(text: str, start: int) -> bool:
    """Is the name at ``start`` an attribute (a ``.`` before it, past blanks, line ends
    and backslash continuations)?"""
    at = start
    while at > 0 and text[at - 1] in _BETWEEN_ATTRIBUTE:
        at -= 1
    return at > 0 and text[at - 1] == "."


_BETWEEN_ATTRIBUTE = frozenset(" \t\f\r\n\\")


def _target_span(positions: Positions, site: CallSite) -> Span:
    """The span of the called name in ``self.k(...)``, ``k(...)``, ``pl.submit(self.k, ...)``."""
    target = site.node.func if site.form == "call" else site.node.args[0]
    start, end = positions.span(target)
    found = last_name_span(positions.source.text, start, end)
    return found if found is not None else (start, end)


def _definition_of(resolved: Resolved | None, resolver: Resolver) -> Target | None:
    if isinstance(resolved, RDynamic):
        dynamic = resolved.dynamic
        module = resolver.module_at(dynamic.path)
        span = _name_in(module, dynamic.span, dynamic.name) if module else dynamic.span
        return dynamic.path, span
    if isinstance(resolved, RFunction):
        module = resolved.module
        return module.path, function_name_span(_positions(module), resolved.function)
    if isinstance(resolved, RParam):
        return None
    return None


def _resolver(model: PlModel) -> Resolver | None:
    if model.module is None:
        return None
    return Resolver(model.module, model.workspace, None, model.memo)


def pl_definition(model: PlModel, offset: int) -> list[Target]:
    """Where the kernel or ``pl.dynamic`` symbol at ``offset`` is defined (also in another
    workspace module it is imported from)."""
    resolver = _resolver(model)
    if resolver is None or model.module is None:
        return []
    found = _definition_of(_target_at(resolver, model.module, offset), resolver)
    return [found] if found is not None else []


def pl_references(model: PlModel, offset: int, include_declaration: bool) -> list[Target]:
    """Uses of a kernel or ``pl.dynamic`` symbol in this file and in every workspace file
    that reaches it: names, imports, ``self.k``/``pl.submit(self.k, ...)`` call targets."""
    resolver = _resolver(model)
    module = model.module
    if resolver is None or module is None:
        return []
    target = _target_at(resolver, module, offset)
    definition = _definition_of(target, resolver)
    if definition is None:
        return []
    word = target.function.name if isinstance(target, RFunction) else ""
    if isinstance(target, RDynamic):
        word = target.dynamic.name
    key = _key(target)
    found: set[Target] = set()
    for other in _candidate_modules(model, resolver, word):
        found.update(_uses_in(resolver, other, word, key))
    if include_declaration:
        found.add(definition)
    else:
        found.discard(definition)
    return sorted(found)


def _key(resolved: Resolved | None) -> tuple[str, ...] | None:
    if isinstance(resolved, RDynamic):
        return ("dynamic", resolved.dynamic.path, str(resolved.dynamic.span))
    if isinstance(resolved, RFunction):
        node = resolved.function.node
        return ("function", resolved.module.path, f"{node.lineno}:{node.col_offset}")
    return None


def _candidate_modules(model: PlModel, resolver: Resolver, word: str) -> list[Module]:
    assert model.module is not None
    modules = [model.module]
    workspace = model.workspace
    if workspace is None:
        return modules
    for path in workspace_index(workspace).files_naming(word):
        if resolver.same_file(path, model.module.path):
            continue
        other = resolver.module_at(path)
        if other is not None:
            modules.append(other)
    return modules


def _uses_in(
    resolver: Resolver, module: Module, word: str, key: tuple[str, ...] | None
) -> set[Target]:
    positions = _positions(module)
    found: set[Target] = set()
    owners: dict[int, Function] = {}
    for function in module.functions:  # parents first: inner functions overwrite
        for node in ast.walk(function.node):
            if isinstance(node, ast.Name) and node.id == word:
                owners[id(node)] = function
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Name) and node.id == word:
            start = positions.start(node)
            point = (node.lineno, node.col_offset + 1)
            scope, point = _scope_at(owners.get(id(node)), positions, start, point)
            resolved = resolver.resolve(word, module, scope, point)
            if _key(resolved) == key:
                found.add((module.path, positions.span(node)))
    for function in module.functions:
        for site in function.calls:
            if site.target_name != word or site.target_kind == "name":
                continue
            if _key(resolver.callee(site, module)) == key:
                found.add((module.path, _target_span(positions, site)))
    importers: list[Function | None] = [None, *module.functions]
    for importer in importers:
        bindings = importer.scope if importer is not None else module.scope
        for local, ref in bindings.imports.items():
            if ref.name == word and _key(resolver.resolve(local, module, importer)) == key:
                found.add((module.path, _name_in(module, ref.span, word)))
    return found


def to_locations(files: Files, targets: list[Target]) -> list[types.Location]:
    """LSP locations of (path, span) targets, in UTF-16, with the open documents' texts."""
    out = []
    for path, span in targets:
        source = files.source(path)
        if source is not None:
            out.append(types.Location(uri=files.uri(path), range=span_range(source, span)))
    return out
