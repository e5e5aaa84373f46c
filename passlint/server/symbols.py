"""Document symbols: modules, functions (``@main`` with its outputs) and other symbol ops of
each `// -----` chunk; programs, kernels, functions and ``pl.dynamic`` symbols of pl sources."""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types

from passlint.analysis.mlir.ir import Operation, function_name
from passlint.analysis.pl.model import Function
from passlint.analysis.pl.positions import Positions
from passlint.analysis.source import SourceText
from passlint.server.convert import span_range
from passlint.server.models import ChunkIndex, MlirModel, PlModel
from passlint.server.navigation import function_name_span

Span = tuple[int, int]
Kind = types.SymbolKind


@dataclass
class Symbol:
    name: str
    kind: types.SymbolKind
    span: Span
    selection: Span
    detail: str | None = None
    children: list[Symbol] = field(default_factory=list)


def to_lsp(source: SourceText, symbols: list[Symbol]) -> list[types.DocumentSymbol]:
    return [
        types.DocumentSymbol(
            name=symbol.name,
            kind=symbol.kind,
            range=span_range(source, symbol.span),
            selection_range=span_range(source, symbol.selection),
            detail=symbol.detail,
            children=to_lsp(source, symbol.children) or None,
        )
        for symbol in symbols
    ]


# -- MLIR ---------------------------------------------------------------------------------------


def mlir_symbols(model: MlirModel) -> list[Symbol]:
    if len(model.chunks) == 1:
        return _chunk_symbols(model.chunks[0])
    out = []
    for number, index in enumerate(model.chunks, start=1):
        children = _chunk_symbols(index)
        if not children:
            continue
        span = (children[0].span[0], children[-1].span[1])
        out.append(
            Symbol(
                f"chunk {number}", Kind.Namespace, span, children[0].selection, "// -----", children
            )
        )
    return out


def _chunk_symbols(index: ChunkIndex) -> list[Symbol]:
    out = []
    for op in index.chunk.operations:
        if op.name in ("module", "builtin.module"):
            name = f"@{op.symbols[0]}" if op.symbols else "module"
            children = [s for inner in _region_ops(op) if (s := _op_symbol(inner, index))]
            out.append(Symbol(name, Kind.Module, op.span, _selection(op), None, children))
        elif (symbol := _op_symbol(op, index)) is not None:
            out.append(symbol)
    return out


def _region_ops(op: Operation) -> list[Operation]:
    return op.regions[0].operations if op.regions else []


def _op_symbol(op: Operation, index: ChunkIndex) -> Symbol | None:
    if op.name == "func.func":
        name = function_name(op)
        if name is None:
            return None
        detail = None
        analysis = index.analysis
        if name == "main" and analysis.main is op:
            count = len(analysis.outputs)
            names = ", ".join(output.name for output in analysis.outputs)
            detail = (
                f"{count} output{'s' if count != 1 else ''}: {names}" if count else "no outputs"
            )
        return Symbol(f"@{name}", Kind.Function, op.span, _selection(op), detail)
    selection = _selection(op)
    if op.symbols and selection != op.name_span:
        return Symbol(f"@{op.symbols[0]}", Kind.Variable, op.span, selection, op.name)
    return None


def _selection(op: Operation) -> Span:
    """The defining ``@name`` token of an op, else its name token."""
    for i in op.template.symbols[:1]:
        return op.tok_span(i)
    return op.name_span


# -- pl -----------------------------------------------------------------------------------------


def pl_symbols(model: PlModel) -> list[Symbol]:
    module = model.module
    if module is None:
        return []
    positions = Positions(model.source)
    out: list[Symbol] = []
    for dynamic in module.scope.dynamics.values():
        start = dynamic.span[0]
        out.append(
            Symbol(
                dynamic.name,
                Kind.Constant,
                dynamic.span,
                (start, start + len(dynamic.name)),
                f'pl.dynamic("{dynamic.symbol}")',
            )
        )
    # Programs and functions at any depth, each under the function that defines it.
    placed = {id(f): _function_symbol(positions, f) for f in module.functions}
    top: list[Symbol] = []

    def home(parent: Function | None) -> list[Symbol]:
        return placed[id(parent)].children if parent is not None else top

    for program in module.programs:
        methods = [placed[id(f)] for f in program.methods.values()]
        span = positions.span(program.node)
        name_at = model.source.text.find(program.name, span[0])
        selection = (name_at, name_at + len(program.name)) if name_at >= 0 else span
        home(program.parent).append(
            Symbol(program.name, Kind.Class, span, selection, "pl.program", methods)
        )
    for function in module.functions:
        if function.owner is None:
            home(function.parent).append(placed[id(function)])
    for symbol in placed.values():
        symbol.children.sort(key=lambda s: s.span)
    out.extend(top)
    out.sort(key=lambda s: s.span)
    return out


def _function_symbol(positions: Positions, function: Function) -> Symbol:
    kind = Kind.Method if function.program else Kind.Function
    if function.is_device_kernel:
        detail = f"{function.func_type} kernel"
    elif function.decorated:
        detail = f"pl.function ({function.func_type})"
    else:
        detail = None
    return Symbol(
        function.name,
        kind,
        positions.span(function.node),
        function_name_span(positions, function),
        detail,
    )
