"""What MaterializeValidShapeSymbols knows about a pl source, as data: per kernel its
valid_shape symbols (bound or not, and by what), their slots, and what every call passes for
them. Built by the binding analysis (``binding``) and the call-site resolution (``sites``);
read by the findings and fixes (``findings``) and the language server's hover and navigation.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Literal

from passlint.analysis.pl.model import (
    CallSite,
    Dynamic,
    Function,
    Module,
    OutlinedScope,
    Param,
    SyntaxProblem,
)
from passlint.passes.materialize_valid_shape_symbols.pipeline import Depends


@dataclass(frozen=True)
class Slot:
    """A valid_shape entry of parameter ``param`` at ``dim`` (bare: exactly one symbol).
    ``view_module`` declares the TensorView (``via``: the variable holding it, if any)."""

    param: Param
    dim: int
    entry: ast.expr
    view_module: Module
    via: str | None


@dataclass(frozen=True)
class Binding:
    """What binds a valid_shape symbol.

    ``shape``: entry ``dim`` of parameter ``param``'s physical shape reads it (the pass takes
    its value from that dimension); ``parameter``: the name is the parameter ``param`` itself
    (a scalar parameter such as ``VALID: pl.Scalar[pl.INDEX]``), so ``dim`` is None.
    """

    kind: Literal["shape", "parameter"]
    param: Param
    dim: int | None = None


@dataclass
class Symbol:
    """A name that some valid_shape entry of a kernel reads and that is a ``pl.dynamic``
    symbol or a parameter.

    ``binding`` is None for an unbound symbol: then ``slots`` are its bare entries (in slot
    order) and ``compound`` the entries that use it inside an expression (``VALID * 2``);
    a symbol with compound entries only is VS002. ``dynamic`` is None when the name is a
    parameter and no ``pl.dynamic`` of that name is visible.
    """

    name: str
    dynamic: Dynamic | None
    binding: Binding | None = None
    slots: list[Slot] = field(default_factory=list)
    compound: list[Slot] = field(default_factory=list)
    occurrences: list[tuple[Module, ast.Name]] = field(default_factory=list)

    @property
    def bound(self) -> bool:
        return self.binding is not None

    @property
    def declared(self) -> Dynamic:
        """The ``pl.dynamic`` of a symbol that has one (every unbound symbol does)."""
        assert self.dynamic is not None, self.name
        return self.dynamic

    @property
    def symbol(self) -> str:
        """The symbol's string (``pl.dynamic("...")``), else its Python name."""
        return self.dynamic.symbol if self.dynamic is not None else self.name


@dataclass(frozen=True)
class LateParam:
    """VS005: scalar parameter ``param`` shadows a symbol the annotation of the earlier
    parameter ``reader`` already read (``dynamic``: that symbol, when one is visible;
    ``via``: the TensorView variable it read it through, if any)."""

    param: Param
    reader: Param
    dynamic: Dynamic | None
    via: str | None = None


@dataclass(frozen=True)
class UndefinedName:
    """VS006: a valid_shape entry of ``param`` reads ``name``, which nothing defines.
    ``node`` is where to point (the name, or the view variable holding it)."""

    param: Param
    name: str
    node: ast.AST


@dataclass(frozen=True)
class UnknownShapeName:
    """VS008: a physical shape entry of ``param`` reads ``node``, a name that neither the
    frame pypto's parser reads nor an earlier parameter holds. ``raised_by``: who rejects
    the kernel (the parser, or Python evaluating the annotation first); ``class_body``:
    Python found the name in the program's class body, which the parser never reads."""

    param: Param
    node: ast.Name
    raised_by: Literal["parser", "python"]
    class_body: bool = False


@dataclass
class KernelAnalysis:
    """What the pass knows about one device kernel (one source of truth for its findings).

    ``symbols``: the unbound symbols with at least one slot, in slot order (the leading
    parameters VS001 adds); ``all_symbols``: every valid_shape symbol, bound or not, in order
    of first appearance; ``compound_only``: unbound symbols read only inside compound entries
    (VS002); ``clashes``: unbound symbols whose Python name is already a parameter's or
    another symbol's (the leading parameter cannot be added under it); ``fixed_views``:
    unbound symbols read through a TensorView variable (a parameter cannot take them over).
    """

    kernel: Function
    module: Module
    symbols: list[Symbol] = field(default_factory=list)
    all_symbols: list[Symbol] = field(default_factory=list)
    compound_only: list[Symbol] = field(default_factory=list)
    late: list[LateParam] = field(default_factory=list)
    undefined: list[UndefinedName] = field(default_factory=list)
    unknown_shapes: list[UnknownShapeName] = field(default_factory=list)
    clashes: list[Symbol] = field(default_factory=list)
    fixed_views: list[Symbol] = field(default_factory=list)


@dataclass(frozen=True)
class SymbolExtent:
    """What one call passes for one unbound symbol: the extent's text, or why there is none
    (``problem``). ``text`` may be known while ``problem`` says another slot failed."""

    symbol: Symbol
    text: str | None
    problem: str | None = None


@dataclass(frozen=True)
class Omitted:
    """VS004: the call does not supply the argument of ``slot`` (of ``symbol``)."""

    symbol: Symbol
    slot: Slot


@dataclass(frozen=True)
class Conflict:
    """VS003: the call's arguments give ``symbol`` two different extents."""

    symbol: Symbol
    first: tuple[str, Slot]
    second: tuple[str, Slot]


@dataclass
class SiteResult:
    """One call of a kernel: per unbound symbol what it passes; ``texts`` are the extents the
    VS001 fix prepends, None when any of them cannot be resolved statically."""

    site: CallSite
    module: Module
    texts: list[str] | None
    extents: list[SymbolExtent] = field(default_factory=list)
    omitted: list[Omitted] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def problem(self) -> str | None:
        """Why the fix cannot pass this call its extents (None: it can)."""
        if self.texts is not None:
            return None
        return next((e.problem for e in self.extents if e.problem), "no statically known extent")


@dataclass(frozen=True)
class ValueUse:
    """A use of a kernel as a value (``run(kernel)``, ``k = kernel``): the calls made
    through it cannot be found, so a fix cannot pass them the extents."""

    node: ast.Name
    module: Module


@dataclass(frozen=True)
class UnreadFile:
    """A workspace file the pass could not read (a link out of the workspace, a FIFO, a file
    above max-file-size): calls of a kernel there, if any, cannot be seen, so no fix can be
    known to pass them the extents."""

    path: str
    reason: str


@dataclass(frozen=True)
class KernelSummary:
    """One device kernel as the pass sees it: every valid_shape symbol (bound or not, and
    by what), the unbound ones in slot order, those of them the pass still adds after
    ``pl.compile``'s pipeline (``pipeline``; None: that depends on a condition), every call
    with what it passes, and its uses as a value (for a kernel with unbound symbols)."""

    kernel: Function
    module: Module
    symbols: tuple[Symbol, ...]
    unbound: tuple[Symbol, ...]
    compiled: tuple[Symbol, ...] | None
    calls: tuple[SiteResult, ...]
    value_uses: tuple[ValueUse, ...] = ()

    def symbol(self, name: str) -> Symbol | None:
        """The valid_shape symbol held by Python name ``name`` (or with that string)."""
        found = [s for s in self.symbols if s.name == name]
        found = found or [s for s in self.symbols if s.symbol == name]
        return found[0] if found else None


@dataclass(frozen=True)
class OutlinedSymbol:
    """A symbol the pass adds to an outlined kernel: its Python name and string (the same
    for a scalar variable), the captured tensor whose valid_shape reads it, the extent the
    outlined call passes; ``unless``: the condition under which the pipeline replaces that
    tensor's view by strides first (``pipeline``), so that nothing is added (None: it
    holds)."""

    name: str
    symbol: str
    tensor: str
    extent: str
    unless: Depends | None = None


@dataclass(frozen=True)
class OutlinedKernel:
    """A ``with pl.at(level=pl.Level.CORE_GROUP, ...)`` scope that pypto's default pipeline
    outlines into the InCore kernel ``name``, and the valid_shape symbols of the tensors it
    captures that the pass will add to it, with the extents the outlined call passes."""

    scope: OutlinedScope
    name: str
    symbols: tuple[OutlinedSymbol, ...]


@dataclass(frozen=True)
class ModuleAnalysis:
    """The pass's analysis of one pl source: its model (None when the text is not a pl
    source or does not parse: then ``problem`` says why, if it is a syntax error), a
    summary per device kernel at any depth, in source order, and the kernels outlined from
    ``pl.at`` scopes that the pass adds parameters to."""

    path: str
    module: Module | None
    kernels: tuple[KernelSummary, ...] = ()
    problem: SyntaxProblem | None = None
    outlined: tuple[OutlinedKernel, ...] = ()

    def kernel(self, name: str) -> KernelSummary | None:
        return next((k for k in self.kernels if k.kernel.name == name), None)

    def symbols_at(self, offset: int) -> list[tuple[KernelSummary, Symbol]]:
        """The valid_shape symbols whose occurrence in this file holds character ``offset``
        (its end counts as inside), with their kernels."""
        if self.module is None:
            return []
        pos = self.module.positions
        found = []
        for summary in self.kernels:
            for symbol in summary.symbols:
                for where, name in symbol.occurrences:
                    if where.path != self.module.path:
                        continue
                    start, end = pos.span(name)
                    if start <= offset <= end:
                        found.append((summary, symbol))
                        break
        return found
