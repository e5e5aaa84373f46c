"""Symbol provenance: the ``pl.dynamic`` symbols a workspace helper returns, read from its
syntax (never run).

``(ROWS,) = dims("ROWS")``, ``a, b = make_dims("M", "N")``, ``N = dim("N")``: pypto's parser
sees whatever the helper returned in the frame that builds the program
(``decorator.py``: ``closure_vars``), so a symbol made by ``pl.dynamic`` inside a helper binds
exactly as a direct ``X = pl.dynamic("X")``. The symbol's string is the one the helper passed
to ``pl.dynamic`` (``DynVar.name``, the name the pass gives it), its Python name the bound
variable (the name a scalar parameter must have to take it over:
``_bind_dynvar_to_scalar_param``).

A helper call is run abstractly, as Python would run it where the values are literals: its
parameters bound as Python binds them (positional, keyword, defaults, ``*args`` from known
tuples, ``**kwargs`` as a dict, ``**{...}`` spread into the call), then its statements in
order: ``name = value`` (and tuple unpacking of a known tuple), ``return`` (the first one
that runs ends the call; falling off the end returns None), ``raise``, the body of a
``with`` (what its ``as`` binds is unknown), a call statement (a dict, list or tuple it hands
on, as a receiver or argument, is unknown afterwards), and ``if`` / ``elif``
/ ``else``, whose branch is the one Python takes when the condition's truth is known from
literals: strings, ints, floats, bools, None, tuples and dicts (their truthiness), ``not``,
``and`` / ``or`` (the operand Python returns), ``is None`` / ``is not None``, ``==`` /
``!=`` and ``in`` / ``not in`` a literal tuple, ``<`` and its kin of two numbers or two
strings, and ``a if c else b``. Values: string and other literals, tuples, lists and dicts
with string keys, ``tuple(...)`` / ``list(...)`` / ``map(pl.dynamic, ...)``, one-loop
comprehensions over a known sequence, subscripts by a known int or key (``dims(n)[0]``,
``kw["n"]``), ``kw.get(key[, default])``, ``pl.dynamic(...)`` calls, symbols it returns
from its globals, and calls of further helpers, at most ``MAX_HELPER_DEPTH`` deep.

Where a condition's truth is not known (it reads a value no literal gives: the environment,
a file, an unknown call, a ``pl.dynamic`` symbol, whose truth pypto refuses), both branches
are run: a local they leave different is unknown, and the call's value is known only when
every ``return`` that may run gives the same value (``pl.dynamic(n) if FLAG else 4`` with
``FLAG`` unknown: unknown, though the real pass adds the symbol whenever ``FLAG`` is true).
Loops, ``try``, ``match``, ``+=``, imports and nested definitions are not run:
the names they bind are unknown afterwards, and a ``return`` inside one makes the call's
value unknown. Deeper chains, and anything else, leave the name unknown: no finding.

A call's value is remembered per call statement, and per helper the statements its returns
and conditions may depend on (each call runs only those), in ``ProvenanceMemo`` (one per
resolver). All evaluations of one resolver together take at most ``BASE_STEPS`` and
``STEPS_PER_CHARACTER`` steps per character of the texts it read (then: unknown): nested
comprehensions, or many calls of one long helper with many branches, could otherwise take
the square of their size.
"""

from __future__ import annotations

import ast
import operator
from collections import ChainMap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from passlint.analysis.pl.frontend import pl_name
from passlint.analysis.pl.model import (
    CallBinding,
    Dynamic,
    Function,
    Module,
    ModuleRef,
    Where,
)
from passlint.analysis.pl.walk import names_below, nodes_below

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


@dataclass(frozen=True)
class Const:
    """A literal that is no string: an int, float, bool, None or bytes (what a condition
    reads)."""

    value: object


@dataclass(frozen=True)
class Mapping:
    """A dict with string keys (``**kwargs``, ``{"n": "Y"}``)."""

    items: dict[str, Value]

    def get(self, key: str) -> Value | None:
        return self.items.get(key)


class _Unknown:
    pass


UNKNOWN = _Unknown()
Value = str | Const | Mapping | Made | Held | tuple["Value", ...] | _Unknown
Env = ChainMap[str, Value]  # a helper's locals: a layer per branch still open
_NONE = Const(None)


@dataclass
class _Frame:
    """Where an expression is evaluated: a module, the function whose body holds it (None:
    the module's top level), the statement it is in; in a helper's body (``helper``) also
    its parameters' values."""

    module: Module
    function: Function | None
    point: Where | None
    env: Env = field(default_factory=ChainMap)
    helper: bool = False


@dataclass
class ProvenanceMemo:
    """Results per call statement, each helper's local names, and per statement the model
    does not follow the names it binds and whether it may return, for one resolver."""

    results: dict[int, Value] = field(default_factory=dict)
    locals: dict[int, frozenset[str]] = field(default_factory=dict)
    opaque: dict[int, tuple[frozenset[str], bool]] = field(default_factory=dict)
    bodies: dict[int, list[ast.stmt]] = field(default_factory=dict)


@dataclass
class _Flow:
    """Where running a helper's statements got: its locals when it goes on (``falls``) and
    the values of the ``return`` statements that may have run."""

    env: Env
    falls: bool = True
    returns: list[Value] = field(default_factory=list)


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
        body = self._body(helper)
        flow = self._run(body, _Flow(ChainMap(env)), helper, helper_module, depth + 1)
        values = [*flow.returns, _NONE] if flow.falls else flow.returns
        if not values or any(v != values[0] for v in values[1:]):
            return UNKNOWN
        return values[0]

    # -- statements ------------------------------------------------------------------------

    def _run(
        self, block: list[ast.stmt], flow: _Flow, helper: Function, module: Module, depth: int
    ) -> _Flow:
        """Run ``block`` of ``helper``'s body from ``flow``, as Python would where the
        values are known: the branch an ``if`` takes when its condition is, both otherwise
        (their locals merged: a name the two leave different is unknown)."""
        for stmt in block:
            self._steps -= 1
            if self._steps < 0:
                return _Flow(ChainMap(), False, [UNKNOWN])
            frame = _Frame(module, helper, (stmt.lineno, stmt.col_offset), flow.env, True)
            if isinstance(stmt, ast.Return):
                value = _NONE if stmt.value is None else self._eval(stmt.value, frame, depth, 0)
                return _Flow(flow.env, False, [*flow.returns, value])
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                value = self._eval(stmt.value, frame, depth, 0)
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    _assign(target, value, flow.env)
            elif isinstance(stmt, ast.If):
                taken = _truth(self._eval(stmt.test, frame, depth, 0))
                if taken is None:
                    one = self._run(stmt.body, _Flow(flow.env.new_child()), helper, module, depth)
                    two = self._run(stmt.orelse, _Flow(flow.env.new_child()), helper, module, depth)
                    self._steps -= len(one.env.maps[0]) + len(two.env.maps[0])
                    flow = _merge(flow, one, two)
                else:
                    branch = stmt.body if taken else stmt.orelse
                    flow = self._run(
                        branch, _Flow(flow.env, True, flow.returns), helper, module, depth
                    )
                if not flow.falls:
                    return flow
            elif isinstance(stmt, ast.Raise):
                return _Flow(flow.env, False, flow.returns)
            elif isinstance(stmt, ast.With):  # its body runs; what ``as`` binds is unknown
                for item in stmt.items:
                    if item.optional_vars is not None:
                        _assign(item.optional_vars, UNKNOWN, flow.env)
                flow = self._run(stmt.body, flow, helper, module, depth)
                if not flow.falls:
                    return flow
            elif isinstance(stmt, ast.Expr):
                for name in _handed(stmt):  # ``kw.update(...)``, ``fill(names)``: may change it
                    if isinstance(flow.env.get(name), Mapping | tuple):  # (strings cannot)
                        flow.env[name] = UNKNOWN
            elif not isinstance(stmt, ast.Pass | ast.Assert):
                names, returns = self._opaque(stmt)
                for name in names:
                    flow.env[name] = UNKNOWN
                if returns:
                    flow.returns = [*flow.returns, UNKNOWN]
        return flow

    def _body(self, helper: Function) -> list[ast.stmt]:
        """The statements of ``helper``'s body that its return value may depend on (once per
        helper): each call runs only those, so a long helper called often costs its
        length once, not at every call."""
        found = self.memo.bodies.get(id(helper.node))
        if found is None:
            block = helper.node.body
            self._steps -= len(nodes_below(block, _BARRIERS))
            found = self.memo.bodies[id(helper.node)] = _slice(block, self._opaque)
        return found

    def _opaque(self, stmt: ast.stmt) -> tuple[frozenset[str], bool]:
        """A statement the model does not follow (a loop, ``try``, ``match``, ``+=``, an
        import, a nested definition): the names it binds and whether it may return."""
        found = self.memo.opaque.get(id(stmt))
        if found is None:
            barriers = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
            nodes = nodes_below([stmt], barriers)
            self._steps -= len(nodes)
            names = frozenset(n for n in map(_other_binding, nodes) if n is not None)
            returns = any(isinstance(n, ast.Return) for n in nodes)
            found = self.memo.opaque[id(stmt)] = (names, returns)
        return found

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
        keywords: list[tuple[str, Value]] = []
        for keyword in call.keywords:
            value = self._eval(keyword.value, frame, depth, nesting + 1)
            if keyword.arg is not None:
                keywords.append((keyword.arg, value))
            elif isinstance(value, Mapping):
                keywords.extend(value.items.items())  # ``**{"n": "Y"}``
            else:
                return None
        accepted = {p.arg for p in [*args.args, *args.kwonlyargs]}  # by keyword
        extras: dict[str, Value] = {}
        for name, value in keywords:
            if name in accepted and name not in env:
                env[name] = value
            elif name not in accepted and args.kwarg is not None and name not in extras:
                extras[name] = value
            else:
                return None  # Python raises TypeError
        if args.kwarg is not None:
            env[args.kwarg.arg] = Mapping(extras)
        defaults = _defaults(args)
        definition = _Frame(helper_module, helper.parent, helper.defined_at)
        for param in [*named, *args.kwonlyargs]:
            if param.arg not in env:
                default = defaults.get(param.arg)
                if default is None:
                    return None
                env[param.arg] = self._eval(default, definition, depth, nesting + 1)
        return env

    # -- expressions -----------------------------------------------------------------------

    def _eval(self, node: ast.expr, frame: _Frame, depth: int, nesting: int) -> Value:
        self._steps -= 1
        if nesting > _MAX_NESTING or self._steps < 0:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else Const(node.value)
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
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            whole = self._eval(node.value, frame, depth, nesting + 1)
            index = self._eval(node.slice, frame, depth, nesting + 1)  # ``dims(n)[0]``, ``kw[k]``
            position = index.value if isinstance(index, Const) else None
            if (
                isinstance(whole, tuple)
                and type(position) is int
                and -len(whole) <= position < len(whole)
            ):
                return whole[position]
            if isinstance(whole, Mapping) and isinstance(index, str):
                found = whole.get(index)
                return UNKNOWN if found is None else found
            return UNKNOWN
        if isinstance(node, ast.Dict):
            return self._dict(node, frame, depth, nesting)
        if isinstance(node, ast.IfExp | ast.BoolOp | ast.UnaryOp | ast.Compare):
            return self._condition(node, frame, depth, nesting)
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            return self._comprehension(node, frame, depth, nesting)
        if isinstance(node, ast.Call):
            return self._call_value(node, frame, depth, nesting)
        return UNKNOWN

    def _dict(self, node: ast.Dict, frame: _Frame, depth: int, nesting: int) -> Value:
        items: dict[str, Value] = {}
        for key, item in zip(node.keys, node.values, strict=True):
            value = self._eval(item, frame, depth, nesting + 1)
            if key is None and isinstance(value, Mapping):
                items.update(value.items)  # ``{**kw}``
            elif isinstance(key, ast.Constant) and isinstance(key.value, str):
                items[key.value] = value
            else:
                return UNKNOWN
        return Mapping(items) if len(items) <= _MAX_ITEMS else UNKNOWN

    def _condition(
        self,
        node: ast.IfExp | ast.BoolOp | ast.UnaryOp | ast.Compare,
        frame: _Frame,
        depth: int,
        nesting: int,
    ) -> Value:
        """``a if c else b``, ``and`` / ``or`` (the operand Python returns), ``not``,
        ``is (not) None`` and ``==`` / ``!=`` of literals, where their truth is known."""
        if isinstance(node, ast.IfExp):
            taken = _truth(self._eval(node.test, frame, depth, nesting + 1))
            if taken is None:  # either: known only when both are the same
                body = self._eval(node.body, frame, depth, nesting + 1)
                return (
                    body if self._eval(node.orelse, frame, depth, nesting + 1) == body else UNKNOWN
                )
            return self._eval(node.body if taken else node.orelse, frame, depth, nesting + 1)
        if isinstance(node, ast.BoolOp):
            value: Value = UNKNOWN
            for operand in node.values:
                value = self._eval(operand, frame, depth, nesting + 1)
                truth = _truth(value)
                if truth is None:
                    return UNKNOWN
                if truth == isinstance(node.op, ast.Or):
                    return value  # ``or``: the first true operand; ``and``: the first false
            return value
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.Not):
                return UNKNOWN
            truth = _truth(self._eval(node.operand, frame, depth, nesting + 1))
            return UNKNOWN if truth is None else Const(not truth)
        if len(node.ops) != 1:
            return UNKNOWN
        op = node.ops[0]
        left = self._eval(node.left, frame, depth, nesting + 1)
        right = self._eval(node.comparators[0], frame, depth, nesting + 1)
        if isinstance(op, ast.Is | ast.IsNot) and _NONE in (left, right):
            other = right if left == _NONE else left
            if isinstance(other, _Unknown) or (isinstance(other, Const) and other != _NONE):
                return UNKNOWN  # an unknown value, or ``0 is None``'s identity rules
            return Const((other == _NONE) == isinstance(op, ast.Is))
        if isinstance(op, ast.Eq | ast.NotEq) and _literal(left) and _literal(right):
            return Const((left == right) == isinstance(op, ast.Eq))
        if isinstance(op, ast.In | ast.NotIn) and _literal(left) and _literal(right):
            if not isinstance(right, tuple):
                return UNKNOWN  # ``"a" in "abc"``: substrings, not followed
            return Const((left in right) == isinstance(op, ast.In))
        ordered = _ORDERINGS.get(type(op))
        if ordered is not None:
            pair = _comparable(left, right)
            return UNKNOWN if pair is None else Const(ordered(*pair))
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
        if isinstance(callee, ast.Attribute) and callee.attr == "get" and not node.keywords:
            whole = self._eval(callee.value, frame, depth, nesting + 1)
            if isinstance(whole, Mapping):  # ``kw.get("n")``, ``kw.get("n", default)``
                return self._get(whole, node.args, frame, depth, nesting)
        return self._call(node, frame, depth, nesting)

    def _get(
        self, mapping: Mapping, args: list[ast.expr], frame: _Frame, depth: int, nesting: int
    ) -> Value:
        if not 1 <= len(args) <= 2 or any(isinstance(a, ast.Starred) for a in args):
            return UNKNOWN
        key = self._eval(args[0], frame, depth, nesting + 1)
        if not isinstance(key, str):
            return UNKNOWN
        found = mapping.get(key)
        if found is not None:
            return found
        return self._eval(args[1], frame, depth, nesting + 1) if len(args) == 2 else _NONE

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
            env = frame.env.new_child({loop.target.id: item})
            inner = _Frame(frame.module, frame.function, frame.point, env, frame.helper)
            out.append(self._eval(node.elt, inner, depth, nesting + 1))
        return tuple(out)

    def _name(self, name: str, frame: _Frame, depth: int, nesting: int) -> Value:
        if name in frame.env:
            return frame.env[name]
        function = frame.function
        if frame.helper and function is not None and name in self._locals(function):
            return UNKNOWN  # a local not (or not knowably) bound here
        return self.resolver.value_of(name, frame.module, function, frame.point, depth)

    def _locals(self, function: Function) -> frozenset[str]:
        """The names a helper binds (its parameters and every binding in its body)."""
        found = self.memo.locals.get(id(function.node))
        if found is None:
            node = function.node
            barriers = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
            nodes = nodes_below(list(node.body), barriers)
            self._steps -= len(nodes)
            names = {n for n in map(_other_binding, nodes) if n is not None}
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            names |= {a.arg for a in every if a is not None}
            found = self.memo.locals[id(node)] = frozenset(names)
        return found

    def _is_builtin(self, name: str, frame: _Frame) -> bool:
        return self.resolver.function_of(name, frame.module, frame.function, frame.point) is None


_BARRIERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _slice(
    block: list[ast.stmt], opaque: Callable[[ast.stmt], tuple[frozenset[str], bool]]
) -> list[ast.stmt]:
    """``block`` without the statements no ``return`` or condition depends on: the names
    returns and conditions read, and those the assignments to them read, in turn."""
    reads: dict[str, list[str]] = {}  # a name: the names its assignments read
    needed: list[str] = []
    for node in nodes_below(block, _BARRIERS):
        if isinstance(node, ast.Return | ast.If | ast.Raise):
            value = node.test if isinstance(node, ast.If) else _raised_or_returned(node)
            needed += [n.id for n in names_below(value)] if value is not None else []
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            read = [n.id for n in names_below(node.value)]
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in names_below(target):
                    reads.setdefault(name.id, []).extend(read)
    keep: set[str] = set()
    while needed:
        word = needed.pop()
        if word not in keep:
            keep.add(word)
            needed += reads.pop(word, [])
    return _pruned(block, keep, opaque)


def _raised_or_returned(node: ast.Return | ast.Raise) -> ast.expr | None:
    return node.value if isinstance(node, ast.Return) else node.exc


def _pruned(
    block: list[ast.stmt],
    keep: set[str],
    opaque: Callable[[ast.stmt], tuple[frozenset[str], bool]],
) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in block:
        if isinstance(stmt, ast.Return | ast.Raise):
            out.append(stmt)
        elif isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(n.id in keep for t in targets for n in names_below(t)):
                out.append(stmt)
        elif isinstance(stmt, ast.If):
            body, orelse = _pruned(stmt.body, keep, opaque), _pruned(stmt.orelse, keep, opaque)
            if body or orelse:
                out.append(
                    ast.If(stmt.test, body, orelse, lineno=stmt.lineno, col_offset=stmt.col_offset)
                )
        elif isinstance(stmt, ast.With):
            body = _pruned(stmt.body, keep, opaque)
            bound = [
                n.id for i in stmt.items if i.optional_vars for n in names_below(i.optional_vars)
            ]
            if body or keep.intersection(bound):
                out.append(
                    ast.With(stmt.items, body, lineno=stmt.lineno, col_offset=stmt.col_offset)
                )
        elif isinstance(stmt, ast.Expr):
            if keep.intersection(_handed(stmt)):
                out.append(stmt)
        elif not isinstance(stmt, ast.Pass | ast.Assert):
            names, returns = opaque(stmt)
            if returns or names & keep:
                out.append(stmt)
    return out


def _handed(stmt: ast.Expr) -> list[str]:
    """The names a call statement hands to code that may change what they hold: a method's
    receiver (``kw.update(...)``) and a call's name arguments (``fill(names)``)."""
    found: list[str] = []
    for node in nodes_below([stmt.value], _BARRIERS):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                found.append(func.value.id)
            args = [*node.args, *(k.value for k in node.keywords)]
            found += [a.id for a in args if isinstance(a, ast.Name)]
    return found


def _assign(target: ast.expr, value: Value, env: Env) -> None:
    """Bind ``target = value`` in a helper's locals (a tuple target unpacks a known tuple;
    any other target leaves what it stores into unknown)."""
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, ast.Tuple | ast.List) and not any(
        isinstance(t, ast.Starred) for t in target.elts
    ):
        known = isinstance(value, tuple) and len(value) == len(target.elts)
        for index, item in enumerate(target.elts):
            _assign(item, value[index] if known and isinstance(value, tuple) else UNKNOWN, env)
    else:
        for node in nodes_below([target]):
            if isinstance(node, ast.Name):
                env[node.id] = UNKNOWN


def _merge(before: _Flow, one: _Flow, two: _Flow) -> _Flow:
    """After both branches of an ``if`` whose condition is unknown, each run on a layer of
    its own over ``before``'s locals: a name either branch bound keeps a value only where
    both leave it the same (a branch that returned leaves nothing)."""
    env = before.env
    if one.falls and two.falls:
        for name in one.env.maps[0].keys() | two.env.maps[0].keys():
            value = one.env.get(name, UNKNOWN)
            env[name] = value if two.env.get(name, UNKNOWN) == value else UNKNOWN
    elif one.falls or two.falls:
        env.update((one if one.falls else two).env.maps[0])
    returns = [*before.returns, *one.returns, *two.returns]
    return _Flow(env, one.falls or two.falls, returns)


def _truth(value: Value) -> bool | None:
    """``bool(value)`` where Python's answer is known (a ``pl.dynamic`` raises TypeError)."""
    if isinstance(value, str | tuple):
        return bool(value)
    if isinstance(value, Const):
        return bool(value.value)
    if isinstance(value, Mapping):
        return bool(value.items)
    return None


_ORDERINGS: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _comparable(left: Value, right: Value) -> tuple[object, object] | None:
    """Two numbers, or two strings, that ``<`` and its kin order as Python does."""
    if isinstance(left, str) and isinstance(right, str):
        return left, right
    if isinstance(left, Const) and isinstance(right, Const):
        a, b = left.value, right.value
        number = (int, float)
        if isinstance(a, number) and isinstance(b, number):
            return a, b
    return None


def _literal(value: Value) -> bool:
    """Is ``value`` a literal whose ``==`` Python answers as this model does?"""
    if isinstance(value, tuple):
        return all(_literal(item) for item in value)
    return isinstance(value, str | Const)


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
