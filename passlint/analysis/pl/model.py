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
from passlint.analysis.pl.python_text import spells_names_alike
from passlint.analysis.pl.spellings import Spellings
from passlint.analysis.pl.walk import names_below
from passlint.analysis.source import SourceText

Span = tuple[int, int]
ParamKind = Literal["tensor", "scalar", "other"]
Direction = Literal["in", "out", "inout"]
CallForm = Literal["call", "submit", "spmd_submit"]
TargetKind = Literal["self", "name", "module"]

DEVICE_KERNEL_TYPES = frozenset({"InCore", "AIC", "AIV", "Spmd"})
# Who made a symbol: ``pl.dynamic`` at its binding, a workspace helper the binding calls
# (``(ROWS,) = dims("ROWS")``), or pypto's parser for a valid_shape name nothing defines when
# the program is built (``provenance``).
DynamicOrigin = Literal["dynamic", "helper", "parser"]


@dataclass(frozen=True)
class Dynamic:
    """``NAME = pl.dynamic("SYMBOL")``: a symbolic dimension, by Python name and string;
    ``span`` is the binding statement (for a symbol the parser makes: the name's first
    occurrence in the kernel's annotations)."""

    path: str
    name: str
    symbol: str
    span: Span
    origin: DynamicOrigin = "dynamic"

    def moved(self, delta: int) -> Dynamic:
        return Dynamic(self.path, self.name, self.symbol, _moved(self.span, delta), self.origin)


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


@dataclass(frozen=True)
class CallBinding:
    """``NAME = f(...)`` or ``A, B = f(...)`` (``index``: the element a name takes of the
    returned tuple, None for the whole value): what it binds is known only from the callee,
    a workspace helper that may return ``pl.dynamic`` symbols (``provenance``). ``span`` is
    the statement's."""

    call: ast.Call
    index: int | None
    span: Span

    def moved(self, delta: int) -> CallBinding:
        return CallBinding(self.call, self.index, _moved(self.span, delta))


BoundKind = Literal["dynamic", "int", "view", "function", "import", "module", "call", "other"]
Where = tuple[int, int]  # (1-based line, UTF-8 column) of a statement: its place in a scope


@dataclass(frozen=True)
class Bound:
    """One binding of a name in a scope: what it holds and where its statement starts.

    ``value`` is a ``Dynamic`` (``pl.dynamic``), an ``int``, the ``pl.TensorView(...)``
    call, a ``Function``, an ``ImportRef`` / ``ModuleRef``, a ``CallBinding``, or None
    (anything else)."""

    where: Where
    kind: BoundKind
    value: object = None

    def moved(self, delta: int) -> Bound:
        if isinstance(self.value, Dynamic | ImportRef | CallBinding):
            return Bound(self.where, self.kind, self.value.moved(delta))
        return self


@dataclass
class Scope:
    """The names a module or a function body binds, each with its bindings in source order
    (re-assignment and shadowing are kept: a lookup names the point it looks from)."""

    names: dict[str, list[Bound]] = field(default_factory=dict)
    star_import: bool = False

    def bind(self, name: str, bound: Bound) -> None:
        found = self.names.get(name)
        if found is None:
            self.names[name] = [bound]
        else:
            found.append(bound)

    def lookup(self, name: str, before: Where | None = None) -> Bound | None:
        """The binding of ``name`` in force just before ``before`` (None: the last one);
        None when there is none there (a name bound only later is not yet bound)."""
        found = self.names.get(name)
        if not found:
            return None
        if before is None:
            return found[-1]
        for bound in reversed(found):
            if bound.where < before:
                return bound
        return None

    def _final(self, kind: BoundKind) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, found in self.names.items():
            if found[-1].kind == kind:
                out[name] = found[-1].value
        return out

    @property
    def dynamics(self) -> dict[str, Dynamic]:
        """The names whose last binding is a ``pl.dynamic`` symbol."""
        return self._final("dynamic")  # type: ignore[return-value]

    @property
    def ints(self) -> dict[str, int]:
        return self._final("int")  # type: ignore[return-value]

    @property
    def views(self) -> dict[str, ast.Call]:
        """The names whose last binding is a ``pl.TensorView(...)`` call."""
        return self._final("view")  # type: ignore[return-value]

    @property
    def imports(self) -> dict[str, ImportRef]:
        return self._final("import")  # type: ignore[return-value]

    @property
    def functions(self) -> dict[str, Function]:
        return self._final("function")  # type: ignore[return-value]

    def moved(self, delta: int) -> Scope:
        """A copy, offsets moved by ``delta`` (bound functions: the same objects)."""
        if not self.names and not self.star_import:
            return Scope()
        names = {name: [b.moved(delta) for b in found] for name, found in self.names.items()}
        return Scope(names, self.star_import)


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
    """``name = value`` in a function body (value None when it is not a simple binding);
    ``annotation``: the tensor type of ``name: pl.Tensor[...] = value``, if it has one."""

    name: str
    value: ast.expr | None
    start: int
    end: int
    annotation: TensorAnnotation | None = None


@dataclass
class CallSite:
    """A call that may launch a kernel, in the body of a DSL function: ``self.k(...)``,
    ``k(...)``, ``alias.k(...)``, ``pl.submit(self.k, ...)``, ``pl.spmd_submit(self.k, ...)``.

    ``args`` are the positional kernel arguments (the submitted kernel and ``pl.no_dep``
    wrappers taken off); ``keywords`` the call's keyword arguments (``deps=``, ``core_num=``:
    pypto's parser accepts no kernel argument by keyword); ``insert_at`` is where leading
    arguments go (-1: the call has no argument to put them before)."""

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
    """A ``def`` anywhere in a module (kernels, orchestrations, helpers, test functions).

    ``parent`` is the lexically enclosing function (class bodies do not enclose their
    methods, as in Python); ``owner`` the ``@pl.program`` class it is a method of;
    ``defined_at`` where its definition runs in ``parent`` (for a program's method: where
    the class statement is, since pypto reads the names the program's frame sees)."""

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
    owner: Program | None = None
    defined_at: Where = (0, 0)
    outlined: list[OutlinedScope] = field(default_factory=list)
    _by_name: tuple[int, dict[str, Param]] | None = field(default=None, repr=False, compare=False)

    def outermost(self) -> Function:
        """The module-level def around this one (itself, when it is one)."""
        function = self
        while function.parent is not None:
            function = function.parent
        return function

    @property
    def is_device_kernel(self) -> bool:
        return self.decorated and not self.is_jit and self.func_type in DEVICE_KERNEL_TYPES

    def param(self, name: str) -> Param | None:
        """The first parameter named ``name`` (looked up by name: a kernel may have
        thousands)."""
        if self._by_name is None or self._by_name[0] != len(self.params):
            by_name: dict[str, Param] = {}
            for param in self.params:
                by_name.setdefault(param.name, param)
            self._by_name = (len(self.params), by_name)
        return self._by_name[1].get(name)


@dataclass
class OutlinedScope:
    """``with pl.at(level=..., name_hint=...):`` in a function: a body pypto's default
    pipeline outlines into a kernel of its own. ``level`` is the ``pl.Level`` member name;
    ``name_hint`` the given name (None when absent)."""

    node: ast.With
    level: str | None
    name_hint: str | None
    function: Function


@dataclass
class Program:
    name: str
    node: ast.ClassDef
    methods: dict[str, Function] = field(default_factory=dict)
    parent: Function | None = None


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
    # ``from __future__ import annotations``: Python never evaluates the annotations, pypto's
    # parser alone resolves their names (``provenance``).
    postponed: bool = False

    @property
    def positions(self) -> Positions:
        """Character offsets of this text's nodes (one line index per module)."""
        if self.built_positions is None:
            self.built_positions = Positions(SourceText(self.text))
        return self.built_positions

    @property
    def kernels(self) -> list[Function]:
        """Every device kernel of the module, at any depth, in source order."""
        return [f for f in self.functions if f.is_device_kernel]

    @cached_property
    def spellings(self) -> Spellings:
        """Where the text spells each name (one index per module, shared by its analyses)."""
        return Spellings(self.text)

    @cached_property
    def names_as_written(self) -> bool:
        """Is every name of the text spelled as CPython reads it (``python_text``)?"""
        return spells_names_alike(self.text)


@dataclass(frozen=True)
class SyntaxProblem:
    """Why a text is not valid Python: message and the character span to underline (the pass
    reports it as E002)."""

    message: str
    span: Span


def _moved(span: Span, delta: int) -> Span:
    return span[0] + delta, span[1] + delta
