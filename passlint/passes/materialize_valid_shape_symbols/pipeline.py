"""What pypto's default pipeline does to the parameter views MaterializeValidShapeSymbols
reads, before it runs.

``python/pypto/ir/pass_manager.py`` (``PassManager._get_pass_factories``, strategy
``Default``, the pipeline ``pl.compile`` runs) schedules the pass dead last. Of the passes
before it, the outlining passes (``OutlineIncoreScopes``: ``outlined.py``) make the kernels
of ``pl.at`` scopes, and ``OptimizeOrchTensors`` (``optimize_orch_tensors_pass.cpp``,
pattern 4 ``SliceInputStridesOptimizer``) changes the views: an ``In`` parameter of an
InCore kernel that some call in a non-InCore function feeds a ``tensor.slice`` result
gets the row-major strides of the slice's parent, as a view of its own
(``TensorView(strides, ND)``), which drops the valid_shape: the pass then finds no symbol
there. It does so only when every such slice's parent has the same static shape (all int
dimensions), and not when the parameter already has strides. (The passes between read and
keep valid_shapes: ``Simplify`` folds them, ``MaterializeTensorStrides`` keeps them beside
the strides it fills in.)

An outlined kernel exists only in the pipeline, so its fate decides what is reported. A
kernel written in the DSL is reported as the pass sees the program as parsed (as pypto's
own tests run it), and VS001 adds what changes under ``pl.compile`` (``direct_input``).

The fate of a view is decided from the syntax where it can be; where it cannot (a
dimension of the parent that is neither an int constant nor a symbol), the fate says
under which condition the view is replaced.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.pl.extents import ExtentReader
from passlint.analysis.pl.frontend import pl_name
from passlint.analysis.pl.model import Assignment, CallSite, Function, Module
from passlint.analysis.pl.resolve import RDynamic, Resolver, RInt
from passlint.analysis.pl.walk import flat_statements

if TYPE_CHECKING:
    from passlint.passes.materialize_valid_shape_symbols.model import Symbol

_SLICES = frozenset({"slice", "tensor.slice"})
_STORES = frozenset({"store", "tile.store"})  # (tile, offsets, output_tensor)
_ASSEMBLES = frozenset({"assemble", "tensor.assemble"})  # (target, source, offset)
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


@dataclass(frozen=True)
class Strided:
    """OptimizeOrchTensors replaces the view by the strides of a parent of shape
    ``parent`` (the text of the slice's source, e.g. ``x``)."""

    parent: str


@dataclass(frozen=True)
class Depends:
    """The view is replaced only if ``condition`` holds (a sentence fragment: "`R` is an
    int constant")."""

    parent: str
    condition: str


Fate = Strided | Depends | None  # None: the pass sees the view as written


@dataclass(frozen=True)
class _Parent:
    """A slice's source as the pipeline sees it: its text and its shape's dimensions,
    each an int, ``"dynamic"`` or the text of a dimension not known statically (None: the
    shape is not known)."""

    text: str
    dims: tuple[int | str, ...] | None


class Pipeline:
    """The fates of views (the functions' assignments looked up by name, once each)."""

    def __init__(self, resolver: Resolver, reader: ExtentReader) -> None:
        self.resolver = resolver
        self.reader = reader
        self._latest: dict[int, dict[str, list[Assignment]]] = {}
        self._alone: dict[int, set[int]] = {}  # per function: its calls that are statements
        # per expression and function (``Resolver.remembered``)
        self._parents: dict[tuple[int, int], tuple[_Parent | None, bool]] = {}

    def outlined_input(
        self, captured: ast.Name, written: set[str], function: Function, module: Module
    ) -> Fate:
        """The fate of the view of the outlined kernel's parameter that captures
        ``captured``: an input (not in ``written``, the scope's ``written_names``) fed the
        value ``captured`` holds at the scope."""
        if captured.id in written:
            return None
        parent = self._slice_parent(captured, function, module)
        return _fate([parent]) if parent is not None else None

    def direct_input(
        self, kernel: Function, index: int, calls: list[tuple[CallSite, Module]]
    ) -> Fate:
        """The fate of the view of parameter ``index`` of ``kernel`` (an InCore kernel's
        input without strides of its own), fed at ``calls`` (each in its module)."""
        param = kernel.params[index]
        view = param.tensor.view if param.tensor is not None else None
        if kernel.func_type != "InCore" or param.direction != "in":
            return None
        if view is None or view.stride is not None:
            return None  # (a view in a variable: pypto reads its strides; not modelled)
        parents = []
        for site, module in calls:
            if site.caller.func_type == "InCore" or site.form != "call":
                continue  # the pattern reads the calls of non-InCore functions only
            if not self._value_used(site.node, site.caller) or index >= len(site.args):
                continue  # (pattern 4 reads assignments: a call alone is not one)
            parent = self._slice_parent(site.args[index], site.caller, module)
            if parent is not None:
                parents.append(parent)
        return _fate(parents) if parents else None

    # -- slices ----------------------------------------------------------------------------

    def _slice_parent(self, node: ast.expr, function: Function, module: Module) -> _Parent | None:
        """The source of the slice ``node`` is (inline, or held by the name ``node``)."""
        if isinstance(node, ast.Name):
            assignment = self._assignment(node, function, module)
            if assignment is None or assignment.value is None:
                return None
            node = assignment.value
        # (every call passing one slice asks about it: found once)
        key = (id(node), id(function))
        return self.resolver.remembered(
            self._parents, key, lambda: self._parent_of(node, function, module)
        )

    def _parent_of(self, node: ast.expr, function: Function, module: Module) -> _Parent | None:
        """As ``_slice_parent``, of the expression itself."""
        source = _slice_source(node, module)
        if source is None:
            return None
        text = module.positions.segment(source)
        extents = self.reader.of_argument(source, function, module)
        if extents is None or extents.shape is None:
            return _Parent(text, None)
        point = (source.lineno, source.col_offset)
        dims = tuple(
            self._dimension(d.text, function, module, point) if d is not None else "unknown"
            for d in extents.shape
        )
        return _Parent(text, dims)

    def _assignment(self, name: ast.Name, function: Function, module: Module) -> Assignment | None:
        """The last simple assignment of ``name`` that ends before it in ``function``."""
        by_name = self._latest.get(id(function))
        if by_name is None:
            by_name = {}
            for assignment in sorted(function.assignments, key=lambda a: a.end):
                by_name.setdefault(assignment.name, []).append(assignment)
            self._latest[id(function)] = by_name
        found = by_name.get(name.id, [])
        before = bisect.bisect_right(found, module.positions.start(name), key=_end)
        return found[before - 1] if before else None

    def _value_used(self, call: ast.Call, function: Function) -> bool:
        """Is ``call``'s value used (anything but a statement of its own)? The pipeline's
        NormalizeStmtStructure and FlattenCallExpr give every such call an assignment of its
        own (``return k(...)``, ``f(k(...))``), which is what pattern 4 reads; a call
        standing alone stays an evaluation."""
        found = self._alone.get(id(function))
        if found is None:
            found = {
                id(stmt.value)
                for stmt in flat_statements(function.node.body)
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            }
            self._alone[id(function)] = found
        return id(call) not in found

    def _dimension(
        self, text: str, function: Function, module: Module, point: tuple[int, int]
    ) -> int | str:
        """An int, ``"dynamic"`` (a symbol or scalar reaches it), or ``text`` (unknown)."""
        try:
            node = ast.parse(text, mode="eval").body
        except SyntaxError:
            return text
        return self._value(node, function, module, point) or text

    def _value(
        self, node: ast.expr, function: Function, module: Module, point: tuple[int, int]
    ) -> int | str:
        """As ``_dimension``; "" when unknown."""
        if isinstance(node, ast.Constant):
            return node.value if type(node.value) is int else ""
        if isinstance(node, ast.Name):
            if function.param(node.id) is not None:
                return "dynamic"
            resolved = self.resolver.resolve(node.id, module, function, point)
            if isinstance(resolved, RInt):
                return resolved.value
            return "dynamic" if isinstance(resolved, RDynamic) else ""
        if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
            left = self._value(node.left, function, module, point)
            right = self._value(node.right, function, module, point)
            if "dynamic" in (left, right):
                return "dynamic"
            if isinstance(left, int) and isinstance(right, int):
                return _fold(node.op, left, right)
        return ""


def dropped(symbols: list[Symbol], views: Mapping[str, Strided | Depends]) -> list[Symbol]:
    """The ``symbols`` whose every entry sits in a view ``views`` replaces (their kernel's
    parameters by name): the pass finds none of them after the pipeline."""
    return [s for s in symbols if all(slot.param.name in views for slot in (*s.slots, *s.compound))]


def _fate(parents: list[_Parent]) -> Fate:
    """Pattern 4's decision over the slices fed to one parameter: strides when all have
    one static shape; kept when any is dynamic or two differ; else it depends."""
    if any(p.dims is not None and "dynamic" in p.dims for p in parents):
        return None
    shapes = {p.dims for p in parents}
    if len(shapes) == 1 and all(isinstance(d, int) for p in parents for d in p.dims or ("",)):
        return Strided(parents[0].text)
    if len(parents) > 1:
        return None  # (two slices, not all of static shapes known to agree: not modelled)
    [parent] = parents
    if parent.dims is None:
        return Depends(parent.text, f"`{parent.text}` has a static shape")
    unknown = list(dict.fromkeys(f"`{d}`" for d in parent.dims if isinstance(d, str)))
    verb = "is an int constant" if len(unknown) == 1 else "are int constants"
    return Depends(parent.text, f"{' and '.join(unknown)} {verb}")


def _slice_source(node: ast.expr, module: Module) -> ast.expr | None:
    """``t`` of ``pl.slice(t, ...)`` or of a subscript slice ``t[a:b, ...]`` (both are
    ``tensor.slice`` in pypto's parser)."""
    if isinstance(node, ast.Call) and pl_name(node.func, module.aliases) in _SLICES:
        return node.args[0] if node.args else None
    if isinstance(node, ast.Subscript):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(item, ast.Slice) for item in items):
            return node.value
    return None


def written_names(scope: ast.With, module: Module) -> set[str]:
    """The names the scope stores into or assembles into (their outlined parameters are
    outputs, not inputs)."""
    found: set[str] = set()
    for node in ast.walk(scope):
        if not isinstance(node, ast.Call):
            continue
        called = pl_name(node.func, module.aliases)
        if called in _STORES:
            target = node.args[2] if len(node.args) > 2 else None
            target = target or next(
                (k.value for k in node.keywords if k.arg == "output_tensor"), None
            )
        elif called in _ASSEMBLES:
            target = node.args[0] if node.args else None
        else:
            continue
        if isinstance(target, ast.Name):
            found.add(target.id)
    return found


def _end(assignment: Assignment) -> int:
    return assignment.end


def _fold(op: ast.operator, left: int, right: int) -> int | str:
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if right == 0:
        return ""
    return left // right if isinstance(op, ast.FloorDiv) else left % right
