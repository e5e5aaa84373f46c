"""Kernels pypto's default pipeline outlines from ``with pl.at(level=pl.Level.CORE_GROUP)``
scopes (``OutlineIncoreScopes``, ``scope_outline_utils.cpp``): an InCore kernel named by
``name_hint`` (else ``<function>_incore_<n>``) whose parameters are the variables the body
reads before it defines them, in first-read order, each with its type. The pass then adds
the valid_shape symbols of those parameters that nothing in the outlined kernel binds (no
captured variable, no physical dimension of a captured tensor), and the outlined call passes
the captured tensor's own valid_shape entry. Before the pass, OptimizeOrchTensors replaces
the view of an input fed a slice of a tensor with a static shape by strides (``pipeline``):
such a tensor contributes no symbol, and one whose parent's shape is not known statically
contributes under that condition. The source has no signature to edit: these are
information findings without a fix.
"""

from __future__ import annotations

import ast
import re

from passlint.analysis.pl.extents import ExtentReader
from passlint.analysis.pl.model import Function, Module, OutlinedScope
from passlint.analysis.pl.resolve import RDynamic, Resolver, RInt
from passlint.analysis.pl.walk import nodes_below
from passlint.passes.materialize_valid_shape_symbols.model import OutlinedKernel, OutlinedSymbol
from passlint.passes.materialize_valid_shape_symbols.pipeline import (
    Depends,
    Pipeline,
    Strided,
    written_names,
)

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def outlined_kernels(
    function: Function, module: Module, resolver: Resolver, reader: ExtentReader
) -> list[OutlinedKernel]:
    """The outlined kernels of ``function``'s ``pl.at`` scopes that gain parameters."""
    out = []
    pipeline = Pipeline(resolver, reader)
    defined = _DefinedBefore(function)
    for number, scope in enumerate(function.outlined):  # pypto counts every scope it outlines
        if scope.level != "CORE_GROUP":
            continue
        name = scope.name_hint or f"{function.name}_incore_{number}"
        outside = defined.by(module.positions.start(scope.node))
        symbols = _added(scope, function, module, resolver, reader, pipeline, outside)
        if symbols:
            out.append(OutlinedKernel(scope, name, tuple(symbols)))
    return out


def _added(
    scope: OutlinedScope,
    function: Function,
    module: Module,
    resolver: Resolver,
    reader: ExtentReader,
    pipeline: Pipeline,
    outside: set[str],
) -> list[OutlinedSymbol]:
    captured = _captured(scope.node, outside)
    bound = set(captured)
    tensors: list[tuple[ast.Name, tuple[str | None, ...], Depends | None]] = []
    written = written_names(scope.node, module)
    for node in captured.values():
        extents = reader.of_argument(node, function, module)
        if extents is None or extents.effective is None:
            continue
        for dims in extents.shape or ():
            if dims is not None:
                bound.update(_IDENTIFIER.findall(dims.text))
        fate = pipeline.outlined_input(node, written, function, module)
        if isinstance(fate, Strided):
            continue  # (its view is strides when the pass runs: no valid_shape to read)
        valid = tuple(d.text if d is not None else None for d in extents.effective)
        tensors.append((node, valid, fate))
    found: dict[str, list[tuple[ast.Name, Depends | None]]] = {}
    for node, valid, fate in tensors:
        for text in valid:
            if text is None or not _IDENTIFIER.fullmatch(text) or text in bound:
                continue
            found.setdefault(text, []).append((node, fate))
    added: list[OutlinedSymbol] = []
    point = (scope.node.lineno, scope.node.col_offset)
    for text, holders in found.items():
        resolved = resolver.resolve(text, module, function, point)
        if isinstance(resolved, RInt):
            continue
        symbol = resolved.dynamic.symbol if isinstance(resolved, RDynamic) else text
        kept = [node for node, fate in holders if fate is None]
        unless = None if kept else holders[0][1]  # (it holds if a view that stays has it)
        tensor = kept[0] if kept else holders[0][0]
        added.append(OutlinedSymbol(text, symbol, tensor.id, text, unless))
    return added


class _DefinedBefore:
    """The names a function defines before an offset (its parameters, the assignments that
    end by then), for offsets asked in increasing order (its scopes, in source order): each
    assignment is looked at once."""

    def __init__(self, function: Function) -> None:
        self._function = function
        self._assignments = sorted(function.assignments, key=lambda a: a.end)
        self._start()

    def _start(self) -> None:
        self._names = {p.name for p in self._function.params}
        self._next = 0
        self._offset = -1

    def by(self, offset: int) -> set[str]:
        if offset < self._offset:
            self._start()  # (asked out of order: from the start again)
        self._offset = offset
        assignments = self._assignments
        while self._next < len(assignments) and assignments[self._next].end <= offset:
            self._names.add(assignments[self._next].name)
            self._next += 1
        return self._names


def _captured(node: ast.With, outside: set[str]) -> dict[str, ast.Name]:
    """The names the body reads before it defines them and that the function defines
    before the scope (``outside``: parameters, assignments), in first-read order."""
    defined: set[str] = set()
    captured: dict[str, ast.Name] = {}
    for stmt in node.body:
        names = [n for n in nodes_below([stmt]) if type(n) is ast.Name]
        names.sort(key=lambda n: (n.lineno, n.col_offset))
        stores = set()
        for name in names:
            if isinstance(name.ctx, ast.Store):
                stores.add(name.id)
            elif name.id not in defined and name.id in outside and name.id not in captured:
                captured[name.id] = name
        defined.update(stores)
    return captured
