"""Document symbols: modules, functions (``@main`` with its outputs) and other symbol ops of
each `// -----` chunk; programs, kernels, functions and ``pl.dynamic`` symbols of pl sources."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.analysis.pl.excerpt import excerpt
from passlint.analysis.pl.model import Function
from passlint.analysis.pl.positions import Positions
from passlint.analysis.source import SourceText
from passlint.server.lsp_objects import span_range
from passlint.server.mlir_index import Symbol as IndexSymbol
from passlint.server.models import PlModel
from passlint.server.names import name_span
from passlint.server.navigation import defined_span, function_name_span
from passlint.server.quoting import shown
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

Span = tuple[int, int]
Kind = types.SymbolKind
DETAIL = 200  # characters of a symbol's detail shown, at most


async def answer(
    session: Session, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    """The document's symbols, from its current analysis."""
    uri = params.text_document.uri
    view = await session.mlir_view(uri)
    if view is not None:
        return to_lsp(view.source, mlir_symbols(view))
    model = await session.pl_model(uri)
    if model is None:
        return []
    return to_lsp(model.source, pl_symbols(model))


@dataclass
class Symbol:
    name: str
    kind: types.SymbolKind
    span: Span
    selection: Span
    detail: str | None = None
    children: list[Symbol] = field(default_factory=list)


def to_lsp(source: SourceText, symbols: list[Symbol]) -> list[types.DocumentSymbol]:
    """LSP's symbols, names and details quoted (``quoting``: a long name is cut, a control
    character escaped)."""
    return [
        types.DocumentSymbol(
            name=shown(symbol.name),
            kind=symbol.kind,
            range=span_range(source, symbol.span),
            selection_range=span_range(source, symbol.selection),
            detail=shown(symbol.detail, DETAIL) if symbol.detail is not None else None,
            children=to_lsp(source, symbol.children) or None,
        )
        for symbol in symbols
    ]


# -- MLIR ---------------------------------------------------------------------------------------


def mlir_symbols(view: MlirView) -> list[Symbol]:
    """The analysis' symbols, moved to the current text (those on changed lines dropped)."""
    return [s for s in (_moved(view, symbol) for symbol in view.index.symbols) if s is not None]


def _moved(view: MlirView, symbol: IndexSymbol) -> Symbol | None:
    span, selection = view.to_current(symbol.span), view.to_current(symbol.selection)
    if span is None or selection is None:
        return None
    children = [s for s in (_moved(view, child) for child in symbol.children) if s is not None]
    return Symbol(symbol.name, Kind(symbol.kind), span, selection, symbol.detail, children)


# -- pl -----------------------------------------------------------------------------------------


def pl_symbols(model: PlModel) -> list[Symbol]:
    module = model.module
    if module is None:
        return []
    positions = Positions(model.source)
    out: list[Symbol] = []
    text = model.source.text
    for dynamic in module.scope.dynamics.values():
        selection = name_span(text, *dynamic.span, dynamic.name) or dynamic.span
        out.append(
            Symbol(
                dynamic.name,
                Kind.Constant,
                dynamic.span,
                selection,
                f'pl.dynamic("{excerpt(dynamic.symbol)}")',
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
        selection = defined_span(positions, program.node, "class", program.name)
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
