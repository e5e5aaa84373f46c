"""Where a call argument's valid_shape and shape come from, read statically.

Sources: ``pl.slice(t, shape, offset, valid_shape)`` (positional or keyword), subscript
slices ``t[a:b, ...]``, ``pl.tensor.view``, ``pl.set_validshape``, ``pl.create_tensor``,
the caller's parameter annotations (TensorView inline or through a variable), following
simple local assignments (``a = ...``) made before the call in the calling function; a local
annotated with a TensorView (``a: pl.Tensor[..., pl.TensorView(...)] = ...``) has the
annotation's extents, as pypto's parser types it.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Mapping
from dataclasses import dataclass

from passlint.analysis.pl.expressions import constant_text, int_text, unparse
from passlint.analysis.pl.frontend import pl_name
from passlint.analysis.pl.model import Assignment, Function, Module, TensorAnnotation
from passlint.analysis.pl.resolve import Resolver, RView

_MAX_DEPTH = 32


@dataclass(frozen=True)
class Extent:
    """One dimension's extent: source text to pass, and a structural key to compare."""

    text: str
    key: str


Dims = tuple[Extent | None, ...]


@dataclass(frozen=True)
class ArgExtents:
    """The valid_shape (None: not declared) and physical shape of an actual argument."""

    valid: Dims | None
    shape: Dims | None

    @property
    def effective(self) -> Dims | None:
        return self.valid if self.valid is not None else self.shape


class ExtentReader:
    """Reads argument extents inside the functions of pl modules."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._bindings: dict[int, _Bindings] = {}  # per caller: its assignments by name
        self._assigned: dict[tuple[int, int], ArgExtents | None] = {}  # by assignment, depth
        self._ints: dict[int, dict[str, int]] = {}  # per module: its int constants

    def _bindings_of(self, caller: Function) -> _Bindings:
        found = self._bindings.get(id(caller))
        if found is None:
            found = _Bindings(caller.assignments)
            self._bindings[id(caller)] = found
        return found

    def of_argument(self, node: ast.expr, caller: Function, module: Module) -> ArgExtents | None:
        """The extents of ``node`` (an argument of a call in ``caller``); None if unknown."""
        at = module.positions.start(node)
        return self._of(node, caller, module, at, 0)

    def _of(
        self, node: ast.expr, caller: Function, module: Module, at: int, depth: int
    ) -> ArgExtents | None:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Name):
            return self._of_name(node.id, caller, module, at, depth)
        if isinstance(node, ast.Call):
            return self._of_call(node, caller, module, at, depth)
        if isinstance(node, ast.Subscript):
            return self._of_subscript(node, caller, module, at, depth)
        return None

    def _of_name(
        self, name: str, caller: Function, module: Module, at: int, depth: int
    ) -> ArgExtents | None:
        latest = self._bindings_of(caller).latest(name, at)
        if latest is not None:
            if latest.value is None:
                return None
            key = (id(latest), depth)  # many calls pass the same variable
            if key not in self._assigned:
                tensor = latest.annotation
                if tensor is not None and (tensor.view is not None or tensor.view_ref is not None):
                    # ``x: pl.Tensor[..., pl.TensorView(...)] = value``: pypto's parser types
                    # the variable by the annotation (ast_parser.parse_annotated_assignment:
                    # a TensorType with a tensor_view overrides the value's type)
                    self._assigned[key] = self._of_annotation(tensor, caller, module)
                else:
                    self._assigned[key] = self._of(
                        latest.value, caller, module, latest.start, depth + 1
                    )
            return self._assigned[key]
        param = caller.param(name)
        if param is None or param.tensor is None:
            return None
        return self._of_annotation(param.tensor, caller, module)

    def _of_annotation(
        self, tensor: TensorAnnotation, caller: Function, module: Module
    ) -> ArgExtents:
        """The extents a ``pl.Tensor[shape, dtype, view?]`` annotation in ``caller`` gives."""
        shape = self._dims(tensor.shape, module, caller)
        view, view_module = tensor.view, module
        if view is None and tensor.view_ref is not None and isinstance(tensor.view_ref, ast.Name):
            resolved = self.resolver.resolve_in_definition(tensor.view_ref.id, module, caller)
            if isinstance(resolved, RView):
                view, view_module = resolved.view, resolved.module
        valid = None
        if view is not None and view.valid_shape is not None:
            valid = self._dims(view.valid_shape, view_module, caller)
        return ArgExtents(valid, shape)

    def _of_call(
        self, node: ast.Call, caller: Function, module: Module, at: int, depth: int
    ) -> ArgExtents | None:
        name = pl_name(node.func, module.aliases)
        args = node.args
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        if name == "no_dep" and len(args) == 1:
            return self._of(args[0], caller, module, at, depth + 1)
        if name in ("slice", "tensor.slice"):
            shape_node = args[1] if len(args) > 1 else keywords.get("shape")
            offset_node = args[2] if len(args) > 2 else keywords.get("offset")
            valid_node = args[3] if len(args) > 3 else keywords.get("valid_shape")
            clamp = keywords.get("clamp")
            window = self._list(shape_node, module, caller)
            requested = self._list(valid_node, module, caller)
            source = self._of(args[0], caller, module, at, depth + 1) if args else None
            offsets = self._list(offset_node, module, caller)
            clamped = not (clamp is None or (isinstance(clamp, ast.Constant) and not clamp.value))
            valid = self._window(source, window, offsets, requested, clamped, module, caller)
            return ArgExtents(valid, window)
        if name in ("tensor.view", "view"):
            shape_node = args[1] if len(args) > 1 else keywords.get("shape")
            if shape_node is None:
                return self._of(args[0], caller, module, at, depth + 1) if args else None
            valid_node = keywords.get("valid_shape")
            return ArgExtents(
                self._list(valid_node, module, caller), self._list(shape_node, module, caller)
            )
        if name in ("set_validshape", "tensor.set_validshape"):
            rows = args[1] if len(args) > 1 else keywords.get("valid_rows")
            cols = args[2] if len(args) > 2 else keywords.get("valid_cols")
            if rows is None or cols is None:
                return None
            source = self._of(args[0], caller, module, at, depth + 1) if args else None
            valid = (self._extent(rows, module, caller), self._extent(cols, module, caller))
            return ArgExtents(valid, source.shape if source is not None else None)
        if name in ("create_tensor", "tensor.create", "tensor.create_tensor"):
            shape_node = args[0] if args else keywords.get("shape")
            valid_node = keywords.get("valid_shape")
            return ArgExtents(
                self._list(valid_node, module, caller), self._list(shape_node, module, caller)
            )
        return None

    def _of_subscript(
        self, node: ast.Subscript, caller: Function, module: Module, at: int, depth: int
    ) -> ArgExtents | None:
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if not all(isinstance(item, ast.Slice) for item in items):
            return None
        source = self._of(node.value, caller, module, at, depth + 1)
        source_shape = source.shape if source is not None else None
        dims: list[Extent | None] = []
        for index, item in enumerate(items):
            assert isinstance(item, ast.Slice)
            base = None
            if source_shape is not None and index < len(source_shape):
                base = source_shape[index]
            dims.append(self._slice_length(item, base, module, caller))
        if source_shape is not None:
            dims.extend(source_shape[len(items) :])
        elif not dims:
            return None
        window = tuple(dims)
        zero = self._synthetic(ast.Constant(0), module, caller)
        offsets: list[Extent | None] = [
            zero if item.lower is None else self._extent(item.lower, module, caller)
            for item in items
            if isinstance(item, ast.Slice)
        ]
        offsets.extend(zero for _ in window[len(items) :])
        if source is None or source.valid is None:
            return ArgExtents(None, window)  # a fully valid source: the window is valid
        valid = self._window(source, window, tuple(offsets), None, False, module, caller)
        return ArgExtents(valid, window)

    def _slice_length(
        self, item: ast.Slice, base: Extent | None, module: Module, caller: Function
    ) -> Extent | None:
        if item.step is not None:
            return None
        lower = item.lower
        lower_is_zero = lower is None or (isinstance(lower, ast.Constant) and lower.value == 0)
        if item.upper is None:
            if base is None:
                return None
            if lower_is_zero:
                return base
            parsed = _expression(base.text)
            if parsed is None:
                return None
            upper: ast.expr = parsed
        else:
            upper = item.upper
            if lower_is_zero:
                return self._extent(upper, module, caller)
        assert lower is not None
        if (
            isinstance(upper, ast.Constant)
            and isinstance(lower, ast.Constant)
            and type(upper.value) is int
            and type(lower.value) is int
        ):
            return self._synthetic(ast.Constant(upper.value - lower.value), module, caller)
        return self._synthetic(ast.BinOp(upper, ast.Sub(), lower), module, caller)

    def _window(
        self,
        source: ArgExtents | None,
        window: Dims | None,
        offsets: Dims | None,
        requested: Dims | None,
        clamp: bool,
        module: Module,
        caller: Function,
    ) -> Dims | None:
        """The valid_shape of a slice window (pypto ``InferWindowReadValidShape``): where the
        source is fully valid and the read does not clamp, the requested extent (else the
        window); where the source is partly valid, ``min(source valid - offset, window)``
        narrowed by the request only when that is provable; unknown otherwise."""
        if window is None:
            return requested
        if source is None or source.shape is None or len(source.shape) != len(window):
            return requested  # a reinterpreting window keeps its own validity
        out: list[Extent | None] = []
        for dim, extent in enumerate(window):
            physical = source.shape[dim]
            if source.valid is None:
                src_valid: Extent | None = physical
            else:  # a valid_shape shorter than the shape says nothing of the rest
                src_valid = source.valid[dim] if dim < len(source.valid) else None
            asked = requested[dim] if requested is not None and dim < len(requested) else None
            if src_valid is None or physical is None or extent is None:
                out.append(asked if not clamp and source.valid is None else None)
                continue
            if src_valid.key == physical.key and not clamp:
                out.append(asked if requested is not None else extent)
                continue
            offset = offsets[dim] if offsets is not None and dim < len(offsets) else None
            if offset is None:
                out.append(None)
                continue
            available = self._available(src_valid, offset, extent, module, caller)
            if requested is None:
                out.append(available)
            elif asked is None:
                out.append(None)
            else:
                out.append(_narrower(available, asked, extent))
        if requested is None and all(o is w for o, w in zip(out, window, strict=True)):
            return None  # fully valid
        return tuple(out)

    def _available(
        self, src_valid: Extent, offset: Extent, window: Extent, module: Module, caller: Function
    ) -> Extent:
        """``min(max(src_valid, offset) - offset, window)``, folded where constant."""
        numbers = [_number(e) for e in (src_valid, offset, window)]
        if all(n is not None for n in numbers):
            number, start, size = (n for n in numbers if n is not None)
            value = min(max(number, start) - start, size)
            return self._synthetic(ast.Constant(value), module, caller)
        valid, at = _operand(src_valid.text), _operand(offset.text)
        if numbers[1] == 0:
            remaining = src_valid.text
        elif numbers[1] is not None:
            remaining = f"pl.max({valid} - {at}, 0)"
        else:
            remaining = f"pl.max({valid}, {at}) - {at}"
        text = f"pl.min({remaining}, {window.text})"
        return Extent(text, f"min({src_valid.key},{offset.key},{window.key})")

    # -- extents ---------------------------------------------------------------------------

    def _list(self, node: ast.expr | None, module: Module, caller: Function) -> Dims | None:
        if not isinstance(node, ast.List | ast.Tuple):
            return None
        return self._dims(tuple(node.elts), module, caller)

    def _dims(
        self, entries: tuple[ast.expr, ...] | None, module: Module, caller: Function
    ) -> Dims | None:
        if entries is None:
            return None
        return tuple(self._extent(entry, module, caller) for entry in entries)

    def _extent(self, node: ast.expr, module: Module, caller: Function) -> Extent | None:
        if isinstance(node, ast.Starred):
            return None
        text = module.positions.segment(node)
        if "\n" in text or "\r" in text:  # (a comment or an explicit join may be in there)
            text = unparse(node)
        return Extent(text, self._key(node, module, caller))

    def _synthetic(self, node: ast.expr, module: Module, caller: Function) -> Extent:
        return Extent(unparse(node), self._key(node, module, caller))

    def _key(self, node: ast.expr, module: Module, caller: Function) -> str:
        """A structural key of ``node`` with module int constants folded in (``T`` == ``16``),
        so two extents compare equal exactly when their expressions do."""
        ints = self._ints.get(id(module))
        if ints is None:
            ints = self._ints[id(module)] = module.scope.ints
        return _structure(node, ints, self._bindings_of(caller).names)


class _Bindings:
    """A function's simple assignments, for "the latest binding of NAME before offset"."""

    def __init__(self, assignments: list[Assignment]) -> None:
        by_name: dict[str, list[Assignment]] = {}
        for assignment in assignments:
            by_name.setdefault(assignment.name, []).append(assignment)
        self.names = frozenset(by_name)
        self._ends: dict[str, list[int]] = {}
        self._best: dict[str, list[Assignment]] = {}  # by end; the latest start so far
        for name, found in by_name.items():
            found.sort(key=lambda a: a.end)
            best: list[Assignment] = []
            for assignment in found:
                best.append(
                    assignment if not best or assignment.start >= best[-1].start else best[-1]
                )
            self._ends[name] = [a.end for a in found]
            self._best[name] = best

    def latest(self, name: str, at: int) -> Assignment | None:
        """Of the assignments to ``name`` that end by ``at``, the one that starts last."""
        ends = self._ends.get(name)
        if ends is None:
            return None
        index = bisect.bisect_right(ends, at)
        return self._best[name][index - 1] if index else None


def _expression(text: str) -> ast.expr | None:
    """The expression an extent's text is (in parentheses: a segment such as ``t := 16``
    or ``yield`` is an expression only there); None if it is none."""
    try:
        return ast.parse(f"({text})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _operand(text: str) -> str:
    """``text`` as an operand of ``-`` (parenthesised unless a name or a number)."""
    return text if text.isidentifier() or text.isdigit() else f"({text})"


def _number(extent: Extent) -> int | None:
    """The value of an extent written as a decimal literal (``int_text`` writes a huge one
    in hex: none of more than 4,300 digits reaches here)."""
    text = extent.text
    return int(text) if text.isascii() and text.isdigit() else None


def _narrower(available: Extent, asked: Extent, window: Extent) -> Extent:
    """``asked`` unless the source is provably narrower (then ``available``); pypto takes an
    undecidable relation on trust, keeping the request."""
    if available.key == window.key:
        return asked
    a, r, w = _number(available), _number(asked), _number(window)
    if a is not None and r is not None:
        return available if a <= r else asked
    if r is not None and w is not None and r >= w:
        return available  # min(..., window) <= window <= asked
    return asked


def _structure(node: ast.AST, ints: Mapping[str, int], local: frozenset[str]) -> str:
    """``ast.dump``-like structure of an expression, fast for the kinds extents are made of,
    with the module's int constants folded in (ints of any size)."""
    if isinstance(node, ast.Name):
        if node.id in ints and node.id not in local:
            return f"C({int_text(ints[node.id])})"
        return f"N({node.id})"
    if isinstance(node, ast.Constant):
        return f"C({constant_text(node.value)})"
    if isinstance(node, ast.Attribute):
        return f"A({_structure(node.value, ints, local)}.{node.attr})"
    if isinstance(node, ast.BinOp):
        left, right = _structure(node.left, ints, local), _structure(node.right, ints, local)
        return f"B({type(node.op).__name__},{left},{right})"
    if isinstance(node, ast.UnaryOp):
        return f"U({type(node.op).__name__},{_structure(node.operand, ints, local)})"
    if isinstance(node, ast.Call):
        args = ",".join(_structure(arg, ints, local) for arg in node.args)
        keywords = ",".join(f"{k.arg}={_structure(k.value, ints, local)}" for k in node.keywords)
        return f"F({_structure(node.func, ints, local)};{args};{keywords})"
    if isinstance(node, ast.Subscript):
        return f"S({_structure(node.value, ints, local)}[{_structure(node.slice, ints, local)}])"
    if isinstance(node, ast.Tuple | ast.List):
        return f"T({','.join(_structure(e, ints, local) for e in node.elts)})"
    fields = []
    for name, value in ast.iter_fields(node):
        if name == "ctx":
            continue
        if isinstance(value, list):
            items = (_field(item, ints, local) for item in value)
            fields.append(f"[{','.join(items)}]")
        else:
            fields.append(_field(value, ints, local))
    return f"{type(node).__name__}({','.join(fields)})"


def _field(value: object, ints: Mapping[str, int], local: frozenset[str]) -> str:
    if isinstance(value, ast.AST):
        return _structure(value, ints, local)
    return constant_text(value)
