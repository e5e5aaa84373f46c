"""Go-to-definition and references: SSA values (``%0#1`` too), block arguments, ``@symbols``
in .mlir files, and kernels / ``pl.dynamic`` symbols in pl sources. Offsets in, spans out."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from passlint.analysis.mlir.ir import Value
from passlint.analysis.pl.model import Function, Module
from passlint.analysis.pl.positions import Positions
from passlint.server.models import ChunkIndex, MlirModel, PlModel

Span = tuple[int, int]
Target = tuple[str, Span]  # (path, span)


# -- MLIR ---------------------------------------------------------------------------------------


def mlir_definition(model: MlirModel, offset: int) -> list[Span]:
    index = model.chunk_at(offset)
    occurrence = index.at(offset) if index is not None else None
    if index is None or occurrence is None:
        return []
    if occurrence.value is not None:
        return [occurrence.value.span]
    if occurrence.symbol is not None and occurrence.symbol in index.symbol_definitions:
        return [index.symbol_definitions[occurrence.symbol]]
    return []


def mlir_references(model: MlirModel, offset: int, include_declaration: bool) -> list[Span]:
    index = model.chunk_at(offset)
    occurrence = index.at(offset) if index is not None else None
    if index is None or occurrence is None:
        return []
    if occurrence.value is not None:
        return _value_references(index, occurrence.value, include_declaration)
    if occurrence.symbol is not None:
        return _symbol_references(index, occurrence.symbol, include_declaration)
    return []


def _value_references(index: ChunkIndex, value: Value, include_declaration: bool) -> list[Span]:
    spans = {
        (o.start, o.end)
        for o in index.occurrences
        if o.value is value and (include_declaration or not o.is_definition)
    }
    return sorted(spans)


def _symbol_references(index: ChunkIndex, name: str, include_declaration: bool) -> list[Span]:
    return sorted(
        {
            (o.start, o.end)
            for o in index.occurrences
            if o.symbol == name and (include_declaration or not o.is_definition)
        }
    )


# -- pl -----------------------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def word_at(text: str, offset: int) -> tuple[str, Span] | None:
    """The identifier holding ``offset`` (its end counts as inside)."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    for match in _WORD.finditer(text, line_start, line_end):
        if match.start() <= offset <= match.end():
            return match.group(), (match.start(), match.end())
    return None


def function_name_span(positions: Positions, function: Function) -> Span:
    """The span of the name after ``def`` (the ast gives only the statement)."""
    start = positions.start(function.node)
    pattern = re.compile(r"\bdef\s+(" + re.escape(function.name) + r")\b")
    found = pattern.search(positions.source.text, start)
    return (found.start(1), found.end(1)) if found else positions.span(function.node)


def all_functions(module: Module) -> Iterator[Function]:
    yield from module.functions


def pl_definition(model: PlModel, offset: int) -> list[Span]:
    module = model.module
    found = word_at(model.source.text, offset)
    if module is None or found is None:
        return []
    word = found[0]
    dynamic = module.scope.dynamics.get(word)
    if dynamic is not None:
        start = dynamic.span[0]
        named = model.source.text.startswith(word, start)
        return [(start, start + len(word)) if named else dynamic.span]
    positions = Positions(model.source)
    for function in all_functions(module):
        if function.name == word:
            return [function_name_span(positions, function)]
    return []


def pl_references(model: PlModel, offset: int, include_declaration: bool) -> list[Span]:
    """Uses of a kernel or ``pl.dynamic`` name in this file (names and ``self.name``)."""
    module = model.module
    found = word_at(model.source.text, offset)
    if module is None or found is None:
        return []
    word = found[0]
    definitions = pl_definition(model, offset)
    if not definitions:
        return []
    positions = Positions(model.source)
    spans: set[Span] = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Name) and node.id == word:
            spans.add(positions.span(node))
        elif isinstance(node, ast.Attribute) and node.attr == word:
            end = positions.end(node)
            spans.add((end - len(word), end))
    if include_declaration:
        spans.update(definitions)
    else:
        spans.difference_update(definitions)
    return sorted(spans)
