"""Symbol provenance: the ``pl.dynamic`` symbols a workspace helper returns, read from its
syntax (never run).

``(ROWS,) = dims("ROWS")``, ``a, b = make_dims("M", "N")``, ``N = dim("N")``: pypto's parser
sees whatever the helper returned in the frame that builds the program
(``decorator.py``: ``closure_vars``), so a symbol made by ``pl.dynamic`` inside a helper binds
exactly as a direct ``X = pl.dynamic("X")``. The symbol's string is the one the helper passed
to ``pl.dynamic`` (``DynVar.name``, the name the pass gives it), its Python name the bound
variable (the name a scalar parameter must have to take it over:
``_bind_dynvar_to_scalar_param``).

A helper's return value is evaluated abstractly: string constants, the helper's parameters
(positional, keyword, defaults, ``*args``), its own assignments (the one in force at the
``return``: the only one, or the last of those in the body itself), tuples and lists,
``tuple(...)`` / ``list(...)`` / ``map(pl.dynamic, ...)``, one-loop comprehensions over a
known sequence, constant subscripts (``dims(n)[0]``), ``pl.dynamic(...)`` calls, symbols it
returns from its globals, and calls of further helpers, at most ``MAX_HELPER_DEPTH`` deep
(deeper chains, and anything else, leave the name unknown: no finding). A call's value is
remembered per call statement, and each helper's returns and assignments per helper, in
``ProvenanceMemo`` (one per resolver). All evaluations of one resolver together take at most
``BASE_STEPS`` and ``STEPS_PER_CHARACTER`` steps per character of the texts it read (then:
unknown): nested comprehensions, or many calls of one long helper, could otherwise take the
square of their size.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Protocol

from passlint.analysis.pl.frontend import pl_name
from passlint.analysis.pl.model import (
    CallBinding,
    Dynamic,
    Function,
    Module,
    ModuleRef,
    Where,
)
from passlint.analysis.pl.walk import nodes_below

MAX_HELPER_DEPTH = 8  # helpers calling helpers: the longest chain followed
_MAX_NESTING = 40  # nested expressions evaluated in one helper
_MAX_ITEMS = 10_000  # items of one evaluated sequence
BASE_STEPS = 10_000  # expressions one resolver evaluates at least ...
STEPS_PER_CHARACTER = 4  # ... and this many more for each character of the texts it read


@dataclass(frozen=True)
class Made:
    """A symbol a helper makes: ``pl.dynamic(symbol)``."""

    symbol: str


@dataclass(frozen=True)
class Held:
    """A symbol made elsewhere (a global ``pl.dynamic``) that a helper hands on."""

    dynamic: Dynamic


class _Unknown:
    pass


UNKNOWN = _Unknown()
Value = str | Made | Held | tuple["Value", ...] | _Unknown


@dataclass
class _Frame:
    """Where an expression is evaluated: a module, the function whose body holds it (None:
    the module's top level), the statement it is in; in a helper's body (``helper``) also
    its parameters' values."""

    module: Module
    function: Function | None
    point: Where | None
    env: dict[str, Value] = field(default_factory=dict)
    helper: bool = False


# A helper's binding of a name: where, the ``name = value`` statement (None: another kind of
# binding), and whether it stands in the helper's body itself.
_Assigned = tuple[Where, ast.Assign | None, bool]


@dataclass
class ProvenanceMemo:
    """Results per call statement and each helper's local assignments, for one resolver."""

    results: dict[int, Value] = field(default_factory=dict)
    locals: dict[int, dict[str, list[_Assigned]]] = field(default_factory=dict)
    returns: dict[int, list[ast.Return]] = field(default_factory=dict)


class ResolverLike(Protocol):
    """What ``Provenance`` asks of the resolver (``resolve.Resolver`` implements it)."""

    def function_of(
        self, name: str, module: Module, function: Function | None, point: Where | None
    ) -> tuple[Function, Module] | None: ...

    def module_ref_of(
        self, name: str, module: Module, function: Function | None
    ) -> ModuleRef | None: ...

    def import_module(self, importer: Module, name: str, level: int) -> Module | None: ...

    def value_of(
        self, name: str, module: Module, function: Function | None, point: Where | None, depth: int
    ) -> Value: ...


class Provenance:
    """Evaluates helper calls through ``resolver`` (``resolve.Resolver``: its ``resolve``,
    ``function_of`` and ``import_module``)."""

    def __init__(self, resolver: ResolverLike, memo: ProvenanceMemo) -> None:
        self.resolver = resolver
        self.memo = memo
        self._steps = BASE_STEPS  # left for every evaluation still to come

    def allow(self, characters: int) -> None:
        """Allow the evaluations steps for ``characters`` more characters of text read."""
        self._steps += STEPS_PER_CHARACTER * characters

    def bound_value(
        self,
        binding: CallBinding,
        module: Module,
        function: Function | None,
        point: Where | None,
        depth: int,
    ) -> Value:
        """What ``binding``'s name holds: the call's value, or its item ``binding.index``
        (the call stands at ``point`` of ``function``'s body, or of ``module``'s)."""
        key = id(binding.call)
        value = self.memo.results.get(key)
        if value is None:
            self.memo.results[key] = UNKNOWN  # a helper that calls itself stays unknown
            value = self._call(binding.call, _Frame(module, function, point), depth, 0)
            self.memo.results[key] = value
        if binding.index is None:
            return value
        if isinstance(value, tuple) and binding.index < len(value):
            return value[binding.index]
        return UNKNOWN

    # -- calls -----------------------------------------------------------------------------

    def _call(self, call: ast.Call, frame: _Frame, depth: int, nesting: int) -> Value:
        if depth >= MAX_HELPER_DEPTH:
            return UNKNOWN
        found = self._helper(call.func, frame)
        if found is None:
            return UNKNOWN
        helper, helper_module = found
        env = self._arguments(helper, helper_module, call, frame, depth, nesting)
        if env is None:
            return UNKNOWN
        values = [
            self._eval(ret.value, _Frame(helper_module, helper, where, env, True), depth + 1, 0)
            for ret in self._returns(helper)
            if ret.value is not None
            for where in [(ret.lineno, ret.col_offset)]
        ]
        if not values or any(v != values[0] for v in values[1:]):
            return UNKNOWN
        return values[0]

    def _helper(self, callee: ast.expr, frame: _Frame) -> tuple[Function, Module] | None:
        """The workspace function a call reaches: a name in the calling frame, or
        ``alias.f`` of an imported workspace module."""
        resolver = self.resolver
        if isinstance(callee, ast.Name):
            return resolver.function_of(callee.id, frame.module, frame.function, frame.point)
        if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
            ref = resolver.module_ref_of(callee.value.id, frame.module, frame.function)
            if ref is None:
                return None
            target = resolver.import_module(frame.module, ref.module, ref.level)
            if target is None:
                return None
            return resolver.function_of(callee.attr, target, None, None)
        return None

    def _arguments(
        self,
        helper: Function,
        helper_module: Module,
        call: ast.Call,
        frame: _Frame,
        depth: int,
        nesting: int,
    ) -> dict[str, Value] | None:
        """The helper's parameters bound to the call's arguments (evaluated in the caller),
        as Python binds them; None when the call does not fit the signature."""
        positional: list[Value] = []
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                spread = self._eval(arg.value, frame, depth, nesting + 1)
                if not isinstance(spread, tuple):
                    return None
                positional.extend(spread)
            else:
                positional.append(self._eval(arg, frame, depth, nesting + 1))
        args = helper.node.args
        named = [*args.posonlyargs, *args.args]
        env: dict[str, Value] = {}
        for param, value in zip(named, positional, strict=False):
            env[param.arg] = value
        extra = positional[len(named) :]
        if args.vararg is not None:
            env[args.vararg.arg] = tuple(extra)
        elif extra:
            return None
        for keyword in call.keywords:
            if keyword.arg is None:
                return None  # ``**kwargs``: not followed
            env[keyword.arg] = self._eval(keyword.value, frame, depth, nesting + 1)
        defaults = _defaults(args)
        definition = _Frame(helper_module, helper.parent, helper.defined_at)
        for param in [*named, *args.kwonlyargs]:
            if param.arg not in env:
                default = defaults.get(param.arg)
                if default is None:
                    return None
                env[param.arg] = self._eval(default, definition, depth, nesting + 1)
        return env

    def _returns(self, helper: Function) -> list[ast.Return]:
        found = self.memo.returns.get(id(helper.node))
        if found is None:
            roots = list(helper.node.body)
            barriers = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
            nodes = nodes_below(roots, barriers)
            found = [n for n in nodes if isinstance(n, ast.Return)]
            self.memo.returns[id(helper.node)] = found
        return found

    # -- expressions -----------------------------------------------------------------------

    def _eval(self, node: ast.expr, frame: _Frame, depth: int, nesting: int) -> Value:
        self._steps -= 1
        if nesting > _MAX_NESTING or self._steps < 0:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else UNKNOWN
        if isinstance(node, ast.Name):
            return self._name(node.id, frame, depth, nesting)
        if isinstance(node, ast.Tuple | ast.List):
            items: list[Value] = []
            for item in node.elts:
                if isinstance(item, ast.Starred):
                    spread = self._eval(item.value, frame, depth, nesting + 1)
                    if not isinstance(spread, tuple):
                        return UNKNOWN
                    items.extend(spread)
                else:
                    items.append(self._eval(item, frame, depth, nesting + 1))
            return tuple(items) if len(items) <= _MAX_ITEMS else UNKNOWN
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            index = node.slice.value  # ``dims(name)[0]``
            whole = self._eval(node.value, frame, depth, nesting + 1)
            if (
                isinstance(whole, tuple)
                and isinstance(index, int)
                and -len(whole) <= index < len(whole)
            ):
                return whole[index]
            return UNKNOWN
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            return self._comprehension(node, frame, depth, nesting)
        if isinstance(node, ast.Call):
            return self._call_value(node, frame, depth, nesting)
        return UNKNOWN

    def _call_value(self, node: ast.Call, frame: _Frame, depth: int, nesting: int) -> Value:
        word = pl_name(node.func, frame.module.aliases)
        if word == "dynamic":
            symbol = _symbol_argument(node)
            if symbol is None:
                return UNKNOWN
            value = self._eval(symbol, frame, depth, nesting + 1)
            return Made(value) if isinstance(value, str) else UNKNOWN
        if word is not None:
            return UNKNOWN
        callee = node.func
        if (
            isinstance(callee, ast.Name)
            and callee.id in ("tuple", "list")
            and len(node.args) == 1
            and not node.keywords
            and self._is_builtin(callee.id, frame)
        ):
            inner = self._eval(node.args[0], frame, depth, nesting + 1)
            return inner if isinstance(inner, tuple) else UNKNOWN
        if isinstance(callee, ast.Name) and callee.id == "map" and len(node.args) == 2:
            if pl_name(node.args[0], frame.module.aliases) == "dynamic":
                names = self._eval(node.args[1], frame, depth, nesting + 1)
                if isinstance(names, tuple) and all(isinstance(n, str) for n in names):
                    return tuple(Made(n) for n in names if isinstance(n, str))
            return UNKNOWN
        return self._call(node, frame, depth, nesting)

    def _comprehension(
        self, node: ast.ListComp | ast.GeneratorExp, frame: _Frame, depth: int, nesting: int
    ) -> Value:
        if len(node.generators) != 1:
            return UNKNOWN
        loop = node.generators[0]
        if loop.ifs or loop.is_async or not isinstance(loop.target, ast.Name):
            return UNKNOWN
        items = self._eval(loop.iter, frame, depth, nesting + 1)
        if not isinstance(items, tuple):
            return UNKNOWN
        out: list[Value] = []
        for item in items:
            env = {**frame.env, loop.target.id: item}
            inner = _Frame(frame.module, frame.function, frame.point, env, frame.helper)
            out.append(self._eval(node.elt, inner, depth, nesting + 1))
        return tuple(out)

    def _name(self, name: str, frame: _Frame, depth: int, nesting: int) -> Value:
        if name in frame.env:
            return frame.env[name]
        function = frame.function
        if frame.helper and function is not None:  # a helper's body: its own assignments
            assigned = self._assigned(name, function, frame.point)
            if assigned is not None:
                if isinstance(assigned, _Unknown):
                    return UNKNOWN
                return self._eval(assigned, frame, depth, nesting + 1)
        return self.resolver.value_of(name, frame.module, function, frame.point, depth)

    def _assigned(
        self, name: str, function: Function, point: Where | None
    ) -> ast.expr | _Unknown | None:
        """The value of the assignment to ``name`` in force at ``point`` of the helper's
        body: the only one, or the last before ``point`` of assignments that all stand in
        the body itself (not in a branch or loop). Unknown when another kind of statement
        binds it too, or which assignment ran is not known; None when none binds it."""
        bindings = self._locals(function).get(name)
        if not bindings:
            return None
        assigned = [(where, stmt, top) for where, stmt, top in bindings if stmt is not None]
        if len(assigned) != len(bindings):
            return UNKNOWN  # also bound otherwise (a loop, ``+=``, unpacking, an import)
        if len(assigned) == 1:
            return assigned[0][1].value
        if not all(top for _, _, top in assigned):
            return UNKNOWN
        before = [stmt for where, stmt, _ in assigned if point is None or where < point]
        return before[-1].value if before else UNKNOWN

    def _locals(self, function: Function) -> dict[str, list[_Assigned]]:
        found = self.memo.locals.get(id(function.node))
        if found is None:
            found = self.memo.locals[id(function.node)] = _bindings(function.node)
        return found

    def _is_builtin(self, name: str, frame: _Frame) -> bool:
        return self.resolver.function_of(name, frame.module, frame.function, frame.point) is None


def _bindings(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[_Assigned]]:
    """Per name, a helper's ``name = value`` statements (where, which, and whether it stands
    in the body itself) in source order, and a ``None`` statement for any other binding."""
    found: dict[str, list[_Assigned]] = {}
    top = {id(stmt) for stmt in node.body}
    barriers = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    nodes = nodes_below(list(node.body), barriers)
    simple: set[int] = set()
    for item in nodes:
        if isinstance(item, ast.Assign) and len(item.targets) == 1:
            target = item.targets[0]
            if isinstance(target, ast.Name):
                simple.add(id(target))
                where = (item.lineno, item.col_offset)
                found.setdefault(target.id, []).append((where, item, id(item) in top))
    for item in nodes:
        other = _other_binding(item)
        if other is not None and id(item) not in simple:
            found.setdefault(other, []).append(((0, 0), None, False))
    for assignments in found.values():
        assignments.sort(key=lambda entry: entry[0])
    return found


def _other_binding(node: ast.AST) -> str | None:
    """The name a node binds in its function (a stored name, a nested definition, an
    import), if any."""
    if isinstance(node, ast.Name):
        return node.id if isinstance(node.ctx, ast.Store | ast.Del) else None
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.alias):
        return (node.asname or node.name).split(".")[0]
    return None


def _defaults(args: ast.arguments) -> dict[str, ast.expr]:
    named = [*args.posonlyargs, *args.args]
    with_default = named[len(named) - len(args.defaults) :]
    found = {p.arg: d for p, d in zip(with_default, args.defaults, strict=True)}
    for param, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if default is not None:
            found[param.arg] = default
    return found


def _symbol_argument(call: ast.Call) -> ast.expr | None:
    """The expression ``pl.dynamic`` names its symbol with (first argument or ``name=``)."""
    if call.args:
        first = call.args[0]
        return None if isinstance(first, ast.Starred) else first
    for keyword in call.keywords:
        if keyword.arg == "name":
            return keyword.value
    return None
