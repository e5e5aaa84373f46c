"""The data model of a pl source: programs, functions, params, symbols, scopes, call sites.

Everything refers back to ``ast`` nodes of the analysed text and to character offsets in it
(``Span`` = (start, end)); nothing here is executed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from passlint.analysis.pl.positions import Positions
from passlint.analysis.pl.walk import names_below
from passlint.analysis.source import SourceText

Span = tuple[int, int]
ParamKind = Literal["tensor", "scalar", "other"]
Direction = Literal["in", "out", "inout"]
CallForm = Literal["call", "submit", "spmd_submit"]
TargetKind = Literal["self", "name", "module"]

DEVICE_KERNEL_TYPES = frozenset({"InCore", "AIC", "AIV", "Spmd"})


@dataclass(frozen=True)
class Dynamic:
    """``NAME = pl.dynamic("SYMBOL")``: a symbolic dimension, by Python name and string."""

    path: str
    name: str
    symbol: str
    span: Span

    def moved(self, delta: int) -> Dynamic:
        return Dynamic(self.path, self.name, self.symbol, _moved(self.span, delta))


@dataclass(frozen=True)
class ImportRef:
    """``from MODULE import NAME as local`` (``level`` counts leading dots)."""

    module: str
    name: str
    level: int
    span: Span

    def moved(self, delta: int) -> ImportRef:
        return ImportRef(self.module, self.name, self.level, _moved(self.span, delta))


@dataclass(frozen=True)
class ModuleRef:
    """``import MODULE as local`` of a (possibly workspace) module."""

    module: str
    level: int


@dataclass
class Scope:
    """Names a module or a function body defines, as far as the pass cares about them."""

    dynamics: dict[str, Dynamic] = field(default_factory=dict)
    ints: dict[str, int] = field(default_factory=dict)
    views: dict[str, ast.Call] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    imports: dict[str, ImportRef] = field(default_factory=dict)
    modules: dict[str, ModuleRef] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)
    star_import: bool = False

    def moved(self, delta: int) -> Scope:
        """A copy, offsets moved by ``delta`` (nested functions: the same objects)."""
        if not self.defined and not self.star_import:
            return Scope()  # every name bound here is in ``defined``: nothing to copy
        return Scope(
            {name: dynamic.moved(delta) for name, dynamic in self.dynamics.items()},
            dict(self.ints),
            dict(self.views),
            dict(self.functions),
            {name: ref.moved(delta) for name, ref in self.imports.items()},
            dict(self.modules),
            set(self.defined),
            self.star_import,
        )


@dataclass(frozen=True)
class TensorView:
    """A ``pl.TensorView(...)`` call: its valid_shape entries (None when absent)."""

    node: ast.Call
    valid_shape: tuple[ast.expr, ...] | None
    stride: tuple[ast.expr, ...] | None
    layout: ast.expr | None


@dataclass(frozen=True)
class TensorAnnotation:
    """``pl.Tensor[[shape], dtype, view?]`` (or ``pld.DistributedTensor[...]``)."""

    node: ast.expr
    shape: tuple[ast.expr, ...] | None
    dtype: ast.expr | None
    view: TensorView | None
    view_ref: ast.expr | None


@dataclass(frozen=True)
class Param:
    name: str
    index: int
    node: ast.arg
    span: Span
    kind: ParamKind
    direction: Direction
    tensor: TensorAnnotation | None
    dtype: ast.expr | None

    def moved(self, delta: int) -> Param:
        return Param(
            self.name,
            self.index,
            self.node,
            _moved(self.span, delta),
            self.kind,
            self.direction,
            self.tensor,
            self.dtype,
        )

    @cached_property
    def reads(self) -> frozenset[str]:
        """The names the parameter's annotation reads."""
        annotation = self.node.annotation
        return frozenset(n.id for n in names_below(annotation)) if annotation else frozenset()


@dataclass
class Assignment:
    """``name = value`` in a function body (value None when it is not a simple binding)."""

    name: str
    value: ast.expr | None
    start: int
    end: int


@dataclass
class CallSite:
    """A call that may launch a kernel: ``self.k(...)``, ``k(...)``, ``pl.submit(self.k, ...)``."""

    node: ast.Call
    span: Span
    form: CallForm
    target_kind: TargetKind
    target_name: str
    module_alias: str | None
    args: tuple[ast.expr, ...]
    keywords: dict[str, ast.expr]
    starred: bool
    insert_at: int
    caller: Function

    def moved(self, delta: int, caller: Function) -> CallSite:
        """A copy in ``caller``, offsets moved by ``delta``."""
        return CallSite(
            self.node,
            _moved(self.span, delta),
            self.form,
            self.target_kind,
            self.target_name,
            self.module_alias,
            self.args,
            self.keywords,
            self.starred,
            self.insert_at + delta if self.insert_at >= 0 else self.insert_at,
            caller,
        )


@dataclass
class Function:
    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    func_type: str
    is_jit: bool
    program: str | None
    parent: Function | None
    params: list[Param] = field(default_factory=list)
    has_self: bool = False
    calls: list[CallSite] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    scope: Scope = field(default_factory=Scope)
    decorated: bool = False

    @property
    def is_device_kernel(self) -> bool:
        return self.decorated and not self.is_jit and self.func_type in DEVICE_KERNEL_TYPES

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass
class Program:
    name: str
    node: ast.ClassDef
    methods: dict[str, Function] = field(default_factory=dict)


@dataclass
class Module:
    """One analysed pl source."""

    path: str
    text: str
    tree: ast.Module
    aliases: dict[str, str]
    scope: Scope
    programs: list[Program] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    built_positions: Positions | None = None  # those the front end used, if any

    @property
    def positions(self) -> Positions:
        """Character offsets of this text's nodes (one line index per module)."""
        if self.built_positions is None:
            self.built_positions = Positions(SourceText(self.text))
        return self.built_positions

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions if f.is_device_kernel]


@dataclass(frozen=True)
class SyntaxProblem:
    """Why a text is not valid Python: message and the character span to underline."""

    message: str
    span: Span


def _moved(span: Span, delta: int) -> Span:
    return span[0] + delta, span[1] + delta
