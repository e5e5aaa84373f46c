"""The pass over parametrized tests: each ``pytest.mark.parametrize`` case analysed with the
test's parameters bound to that case's values, and the findings of all cases merged.

pytest runs a parametrized test once per case, and each run builds its programs with the
parameters bound to that case's values; pypto's parser reads those values from the frame
(``pl.dynamic("N")`` is a symbol, ``64`` a constant). So does this module: a test function
with enumerable cases (``passlint.analysis.pl.parametrize``) is a *unit*, and so is a builder
function of the module that such a test calls with one of its parameters (``build(n)``):
the builder's contexts are the test's cases, with the builder's parameters bound to the
call's arguments, plus one context per other call of it in the module (the builder's cases
are the calls this module makes). A builder that such a builder calls with one of its own
parameters (``build(n)`` -> ``make_program(n)``) is a unit the same way, its contexts those
of its caller; the chain is followed ``MAX_BUILDER_DEPTH`` (4) calls from the test, and a
builder further away is analysed once, as if not parametrized. A parametrized fixture that
makes something of ``request.param`` (``return build(request.param)``) is a unit too, one
context per case of each test requesting it (named by that test's case), and the builders
it calls with ``request.param`` follow; a test's argument fed by a fixture that hands
``request.param`` on as it is holds the param (``parametrize.Fixture``). The kernels, calls and
``pl.at`` scopes inside a unit are analysed once per context (``Run`` with bindings);
everything else once, as before.

Merging, per unit: a finding every context gives is reported as it is; one that only some
give names them (``test_k[dynamic]``, pytest's node ids) in a second sentence; identical
findings of several contexts are one. A fix edits the text every context shares: it is
preferred only when every context has a finding with that very fix; otherwise its title and
message say which cases it would change. (The real pass on a VS001-fixed program: in a
symbolic case the parameter binds the symbol and the call passes the extent the pass
would; in a constant case the program still builds and the pass leaves it alone, but the
kernel has a parameter it does not read, since pypto's ``_parse_tileview_expr`` resolves
a name holding an int in the closure before the parameters, and its calls pass one more
argument.)

Cost: one run over the module per context index (``Run`` with the bindings of every unit's
context of that index), at most ``MAX_CASES`` of them; a unit with more contexts is not
analysed per case.
"""

from __future__ import annotations

import ast
import bisect
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from passlint.analysis.findings import Finding, Fix, Location
from passlint.analysis.pl.frontend import dynamic_symbol, pl_name
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import Dynamic, Function, Module, Where
from passlint.analysis.pl.parametrize import (
    BY_POSITION,
    MAX_CASES,
    Case,
    Fixture,
    Fixtures,
    ModuleLists,
    ValueId,
    argnames,
    assigned_pytestmark,
    cases,
    class_marks,
    fixture,
    is_request_param,
    pytestmark,
)
from passlint.analysis.pl.resolve import (
    RDynamic,
    Resolved,
    Resolver,
    RFunction,
    RInt,
    ROther,
)
from passlint.analysis.pl.walk import nodes_below
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.checks import CHECKS
from passlint.passes.materialize_valid_shape_symbols.model import KernelSummary, OutlinedKernel
from passlint.passes.materialize_valid_shape_symbols.rebinding import NameReads
from passlint.passes.materialize_valid_shape_symbols.rules import UNBOUND_VALID_SHAPE_SYMBOL
from passlint.passes.materialize_valid_shape_symbols.run import Kept, Run
from passlint.passes.materialize_valid_shape_symbols.sites import SiteIndex

Bindings = dict[tuple[int, str], Resolved]
REQUEST_PARAM = "request.param"  # the binding of a fixture's request.param in its contexts
MAX_BUILDER_DEPTH = 4  # builders followed from a test: build(n) -> make(n) -> ..., 4 calls deep
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Context:
    """One way a unit runs: its name in messages and what its parameters hold."""

    label: str
    bindings: Bindings


@dataclass
class Unit:
    function: Function
    contexts: list[Context] = field(default_factory=list)
    first_line: int = 0  # 1-based, its first decorator
    last_line: int = 0


class Units:
    """The units of one module and which unit owns each function (the nearest enclosing
    one)."""

    def __init__(
        self, module: Module, workspace: Workspace | None, memo: PlMemo | None = None
    ) -> None:
        self.module = module
        self.resolver = Resolver(module, workspace, None, memo)
        self.lists = ModuleLists(module.tree)
        self.units: dict[int, Unit] = {}
        self._owners: dict[int, Unit | None] = {}
        self._classes = _classes_of(module.tree)
        self._top = {id(s) for s in module.tree.body}
        self._class_names = {c.name: c for c in module.tree.body if isinstance(c, ast.ClassDef)}
        self._fixtures = _fixtures_of(module.tree)
        self._autouse = {
            key: [f.name for f in table.values() if f.autouse]
            for key, table in self._fixtures.items()
        }
        self._find()
        # Once every unit is found: the units, those with the most contexts first; the
        # functions by the id of the unit owning them (None: none), in module order.
        self._by_count = sorted(self.units.values(), key=lambda u: -len(u.contexts))
        self._owned: dict[int | None, list[Function]] = {}
        self._order: dict[int, int] = {}
        for order, function in enumerate(module.functions):
            unit = self.owner(function)
            self._owned.setdefault(None if unit is None else id(unit), []).append(function)
            self._order[id(function)] = order

    def owner(self, function: Function) -> Unit | None:
        key = id(function)
        if key not in self._owners:
            unit = self.units.get(key)
            if unit is None and function.parent is not None:
                unit = self.owner(function.parent)
            self._owners[key] = unit
        return self._owners[key]

    # -- finding the units ---------------------------------------------------------------

    def _find(self) -> None:
        module = self.module
        tests: list[tuple[Function, list[Case]]] = []
        module_marks = pytestmark(assigned_pytestmark(module.tree.body))
        for function in module.functions:
            if function.decorated or not function.params:
                continue
            outer = self._outer_marks(function, module_marks)
            if outer is None:
                continue
            found = cases(
                function.node, self.lists, self._ids(function), outer, self._requested(function)
            )
            if found is not None:
                tests.append((function, found))
        if not tests:
            return
        for function, found in tests:
            unit = self._unit(function)
            for case in found:
                bindings = self._case_bindings(function, case)
                unit.contexts.append(Context(self._label(function, case), bindings))
        builders: dict[int, Unit] = {}
        calls: dict[str, list[tuple[Function | None, ast.Call]]] | None = None  # when needed
        known = {id(function): self.units[id(function)] for function, _ in tests}
        callers = [
            (f, {name for case in found[:1] for name, _ in case.values}) for f, found in tests
        ]
        for fixture_unit in self._fixture_units(tests).values():
            known[id(fixture_unit.function)] = builders[id(fixture_unit.function)] = fixture_unit
            callers.append((fixture_unit.function, {REQUEST_PARAM}))
        for _depth in range(MAX_BUILDER_DEPTH):  # the builders _depth + 1 calls from a test
            reached: list[tuple[Function, set[str]]] = []
            for function, names in callers:
                for node in _own_calls(function.node):
                    builder = self._builder(node, function, names)
                    if builder is None or id(builder) in known:
                        continue
                    calls = _calls_by_name(module) if calls is None else calls
                    unit = self._builder_unit(builder, calls, known)
                    known[id(builder)] = builders[id(builder)] = unit
                    reached.append((builder, {p.name for p in builder.params}))
            callers = reached
        for unit in [*self.units.values(), *builders.values()]:
            if not 0 < len(unit.contexts) <= MAX_CASES:
                self.units.pop(id(unit.function), None)
            else:
                self.units[id(unit.function)] = unit
        self._owners.clear()  # asked while the units were being found

    def _outer_marks(
        self, function: Function, module_marks: list[ast.Call]
    ) -> list[ast.Call] | None:
        """The marks a collected test takes from its classes and module (pytest collects
        ``test*`` functions of the module and ``test*`` methods of its ``Test*`` classes
        without ``__init__``, ``python_functions``/``python_classes`` by default); None
        when a base class of one of its classes has parametrize marks of its own (pytest
        reads them through the MRO; not enumerated here)."""
        if not self._collected(function):
            return []
        chain = self._classes.get(id(function.node))
        if chain is None:
            return module_marks
        marks: list[ast.Call] = []
        for cls in chain:
            for base in cls.bases:
                parent = self._class_names.get(base.id) if isinstance(base, ast.Name) else None
                if parent is not None and class_marks(parent):
                    return None
            marks += class_marks(cls)
        return [*marks, *module_marks]

    def _fixture_units(self, tests: list[tuple[Function, list[Case]]]) -> dict[int, Unit]:
        """The parametrized fixtures that make something of ``request.param``: a unit
        each, one context per case of every test requesting it (named by the test's
        case), its ``request.param`` bound to that case's param."""
        functions = {id(f.node): f for f in self.module.functions}
        units: dict[int, Unit] = {}
        for function, found in tests:
            requested = self._requested(function)
            if requested is None:
                continue
            see = requested[1]
            for case in found:
                for name, value in case.fed:
                    made = see(name)
                    owner = functions.get(id(made.node)) if made is not None else None
                    if owner is None:
                        continue
                    unit = units.get(id(owner))
                    if unit is None:
                        unit = units[id(owner)] = Unit(owner)
                        node = owner.node
                        unit.first_line = min(
                            [node.lineno, *(d.lineno for d in node.decorator_list)]
                        )
                        unit.last_line = node.end_lineno or node.lineno
                    meaning = self._meaning(value, REQUEST_PARAM, owner, None)
                    bindings = {(id(owner), REQUEST_PARAM): meaning}
                    unit.contexts.append(Context(self._label(function, case), bindings))
        return units

    def _collected(self, function: Function) -> bool:
        """A test pytest collects: a ``test*`` function of the module, or a ``test*``
        method of its ``Test*`` classes (``python_functions``/``python_classes`` by
        default) without ``__init__``."""
        if function.parent is not None or not function.name.startswith("test"):
            return False
        chain = self._classes.get(id(function.node))
        if chain is None:
            return id(function.node) in self._top
        return all(_is_test_class(c) for c in chain)

    def _requested(self, function: Function) -> tuple[list[str] | None, Fixtures] | None:
        """A collected test's argnames and the fixtures of this module it sees by them:
        its classes' (the innermost first), then the module's (``FixtureManager``
        ``getfixturedefs``, the closest definition last; conftest fixtures are not
        read); the autouse fixtures it sees come first (``getfixtureinfo``, the module's
        before its classes'); with more than ``MAX_CASES`` autouse fixtures, no names
        (the test has no cases)."""
        if not self._collected(function):
            return None
        chain = self._classes.get(id(function.node), [])
        keys = [*(id(c) for c in chain), 0]
        if sum(len(self._autouse.get(key, [])) for key in keys) > MAX_CASES:
            return None, lambda name: None  # more than are enumerated
        tables = [self._fixtures.get(key, {}) for key in keys]

        def see(name: str) -> Fixture | None:
            for table in tables:
                if name in table:
                    return table[name]
            return None

        autouse = [name for key in reversed(keys) for name in self._autouse.get(key, [])]
        names = dict.fromkeys([*autouse, *argnames(function.node, bool(chain))])
        return list(names), see

    def _label(self, function: Function, case: Case) -> str:
        """The case as pytest's node id names it after the file (``TestX::test_k[dynamic]``),
        or by its values when the id depends on what only running the code tells."""
        chain = self._classes.get(id(function.node), [])
        name = "::".join([*(c.name for c in reversed(chain)), function.name])
        if case.id is not None:
            return f"{name}[{case.id}]"
        values = ", ".join(f"{n}={ast.unparse(value)}" for n, value in case.values)
        return f"{name} with {values}"

    def _unit(self, function: Function) -> Unit:
        node = function.node
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        unit = Unit(function, [], first, node.end_lineno or node.lineno)
        self.units[id(function)] = unit
        return unit

    def _case_bindings(self, function: Function, case: Case) -> Bindings:
        bindings: Bindings = {}
        for name, value in case.values:
            if function.param(name) is not None:
                bindings[(id(function), name)] = self._meaning(value, name, function, None)
        return bindings

    def _meaning(
        self,
        value: ast.expr,
        name: str,
        where: Function,
        bindings: Bindings | None,
        point: Where | None = None,
    ) -> Resolved:
        """What a parameter ``name`` holds when given ``value`` (an expression of
        ``where``'s decorators, or of its body at ``point`` under ``bindings``): a
        ``pl.dynamic`` symbol (held by ``name``), an int, or what a name denotes there;
        a fixture's ``request.param`` what it is bound to."""
        if bindings is not None and is_request_param(value):
            param = bindings.get((id(where), REQUEST_PARAM), ROther())
            if isinstance(param, RDynamic):
                held = param.dynamic
                return RDynamic(Dynamic(held.path, name, held.symbol, held.span))
            return param
        if isinstance(value, ast.Constant) and type(value.value) is int:
            return RInt(value.value)
        if isinstance(value, ast.Call) and pl_name(value.func, self.module.aliases) == "dynamic":
            symbol = dynamic_symbol(value)
            if symbol is None:
                return ROther()
            span = self.module.positions.span(value)
            return RDynamic(Dynamic(self.module.path, name, symbol, span))
        if isinstance(value, ast.Name):
            if bindings is None:
                found = self.resolver.resolve_in_definition(value.id, self.module, where)
            else:
                resolver = Resolver(
                    self.module, self.resolver.workspace, bindings, self.resolver.memo
                )
                found = resolver.resolve(value.id, self.module, where, point)
            if isinstance(found, RDynamic):
                dynamic = found.dynamic
                return RDynamic(Dynamic(dynamic.path, name, dynamic.symbol, dynamic.span))
            return found if isinstance(found, RInt | RFunction) else ROther()
        return ROther()

    def _ids(self, function: Function) -> Callable[[ast.expr], ValueId]:
        """pytest's id of a non-literal value of ``function``'s decorators: an int's
        digits, a function's name; a ``pl.dynamic`` symbol has no ``__name__`` (named by
        position)."""

        def value_id(value: ast.expr) -> ValueId:
            meaning = self._meaning(value, "", function, None)
            if isinstance(meaning, RInt):
                return str(meaning.value)
            if isinstance(meaning, RDynamic):
                return BY_POSITION
            if isinstance(meaning, RFunction):
                return meaning.function.name
            return None

        return value_id

    def _builder(self, node: ast.Call, test: Function, names: set[str]) -> Function | None:
        """The builder ``node`` calls, when it passes one of the test's parameters."""
        if not isinstance(node.func, ast.Name):
            return None
        passed = [*node.args, *(k.value for k in node.keywords)]
        if not any(_passed_name(a) in names for a in passed):
            return None
        found = self.resolver.resolve(node.func.id, self.module, test, _point(node))
        if not isinstance(found, RFunction) or found.module is not self.module:
            return None
        builder = found.function
        if builder.decorated or (builder.parent is not None and self.owner(builder.parent)):
            return None  # a kernel, or nested in a unit (whose bindings it would need too)
        return builder

    def _builder_unit(
        self,
        builder: Function,
        calls: dict[str, list[tuple[Function | None, ast.Call]]],
        known: dict[int, Unit],
    ) -> Unit:
        """The builder's contexts: per call of it in the module, each context of the unit
        it is in (a test's cases, a builder's contexts found before), one context for a
        call elsewhere."""
        unit = Unit(builder)
        node = builder.node
        unit.first_line = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        unit.last_line = node.end_lineno or node.lineno
        for caller, call in calls.get(builder.name, []):
            if caller is not None:
                resolved = self.resolver.resolve(builder.name, self.module, caller, _point(call))
                if not isinstance(resolved, RFunction) or resolved.function is not builder:
                    continue
            outer = known.get(id(caller)) if caller is not None else None
            where = f" (the call on line {call.lineno})" if len(calls[builder.name]) > 1 else ""
            if outer is None or caller is None:
                bindings = self._call_bindings(builder, call, caller, {})
                name = caller.name if caller is not None else "module level"
                unit.contexts.append(Context(f"{name}{where}", bindings))
                continue
            for context in outer.contexts:
                bindings = self._call_bindings(builder, call, caller, context.bindings)
                unit.contexts.append(Context(f"{context.label}{where}", bindings))
                if len(unit.contexts) > MAX_CASES:
                    return unit
        return unit

    def _call_bindings(
        self, builder: Function, call: ast.Call, caller: Function | None, outer: Bindings
    ) -> Bindings:
        params = [p.name for p in builder.params]
        given: list[tuple[str, ast.expr]] = []
        if any(isinstance(a, ast.Starred) for a in call.args):
            return {}
        given += [(params[i], a) for i, a in enumerate(call.args) if i < len(params)]
        given += [(k.arg, k.value) for k in call.keywords if k.arg in params]
        bindings: Bindings = {}
        for name, value in given:
            if caller is None:
                meaning: Resolved = self._module_meaning(value, name)
            else:
                meaning = self._meaning(value, name, caller, outer, _point(call))
            bindings[(id(builder), name)] = meaning
        return bindings

    def _module_meaning(self, value: ast.expr, name: str) -> Resolved:
        if isinstance(value, ast.Name):
            found = self.resolver.resolve(value.id, self.module, None)
            if isinstance(found, RDynamic):
                dynamic = found.dynamic
                return RDynamic(Dynamic(dynamic.path, name, dynamic.symbol, dynamic.span))
            return found if isinstance(found, RInt) else ROther()
        if isinstance(value, ast.Constant) and type(value.value) is int:
            return RInt(value.value)
        return ROther()

    # -- running -------------------------------------------------------------------------

    def runs(self, workspace: Workspace | None) -> Iterator[tuple[int, Run]]:
        """Per context index, a run with every unit's context of that index bound."""
        reads = NameReads(self.module, self.resolver.memo)
        calls = SiteIndex(self.module)
        memo = self.resolver.memo
        for index in range(len(self._by_count[0].contexts) if self._by_count else 0):
            bindings: Bindings = {}
            for unit in self.active(index):
                bindings.update(unit.contexts[index].bindings)
            yield index, Run(self.module, workspace, bindings, reads, memo, calls)

    def active(self, index: int) -> list[Unit]:
        """The units with a context of that index."""
        return list(itertools.takewhile(lambda u: index < len(u.contexts), self._by_count))

    def kept(self, index: int) -> Kept:
        """The functions the run of context ``index`` reports on: those of the units it
        binds (a unit's functions are those it owns, not a nested unit's)."""
        functions = [f for unit in self.active(index) for f in self._owned.get(id(unit), ())]
        return Kept(sorted(functions, key=lambda f: self._order[id(f)]))

    def outside(self) -> Kept:
        """The functions no unit owns (analysed once)."""
        return Kept(self._owned.get(None, ()))

    def lines(self) -> UnitLines:
        """Which unit holds each line (once every unit is found)."""
        return UnitLines(list(self.units.values()))


class UnitLines:
    """The innermost unit whose text holds a line. Units are function definitions, so
    their line ranges nest or are apart; they are cut once into runs of lines of one
    innermost unit, and a line is looked up among the runs' first lines."""

    def __init__(self, units: list[Unit]) -> None:
        self._starts: list[int] = []  # the first line of each run, ascending
        self._owners: list[Unit | None] = []  # the innermost unit of each run
        open_: list[Unit] = []  # the units holding the current line, outermost first
        for unit in sorted(units, key=lambda u: (u.first_line, -u.last_line)):
            self._close(open_, unit.first_line)
            open_.append(unit)
            self._cut(unit.first_line, unit)
        self._close(open_, None)

    def _close(self, open_: list[Unit], line: int | None) -> None:
        """Ends the units that end before ``line`` (all of them at ``None``)."""
        while open_ and (line is None or open_[-1].last_line < line):
            ended = open_.pop()
            self._cut(ended.last_line + 1, open_[-1] if open_ else None)

    def _cut(self, line: int, unit: Unit | None) -> None:
        if self._starts and self._starts[-1] == line:
            self._owners[-1] = unit
        else:
            self._starts.append(line)
            self._owners.append(unit)

    def at(self, line: int) -> Unit | None:
        """The innermost unit whose text holds 1-based ``line``."""
        index = bisect.bisect_right(self._starts, line) - 1
        return self._owners[index] if index >= 0 else None


def findings(module: Module, workspace: Workspace | None, memo: PlMemo | None) -> list[Finding]:
    """The module's findings, parametrized tests analysed per case."""
    units = Units(module, workspace, memo)
    base = Run(module, workspace, memo=memo)
    found = [f for check in CHECKS for f in check.findings(module, base.resolver)]
    if not units.units:
        found += base.findings()
        found.sort(key=lambda f: (f.range.start, f.range.end, f.code, f.message))
        return found
    found += base.findings(units.outside())
    per_unit: dict[int, list[list[Finding]]] = {id(u): [] for u in units.units.values()}
    lines = units.lines()
    for index, run in units.runs(workspace):
        of_run: dict[int, list[Finding]] = {}
        for finding in run.findings(units.kept(index)):
            unit = lines.at(finding.range.start.line + 1)
            if unit is not None:
                of_run.setdefault(id(unit), []).append(finding)
        for unit in units.active(index):
            per_unit[id(unit)].append(of_run.get(id(unit), []))
    for unit in units.units.values():
        found += merged(unit, per_unit[id(unit)])
    found.sort(key=lambda f: (f.range.start, f.range.end, f.code, f.message))
    return found


def summaries(
    module: Module, workspace: Workspace | None, memo: PlMemo | None
) -> tuple[list[KernelSummary], list[OutlinedKernel]]:
    """Per kernel its summary (for a kernel in a unit: of the first context in which it
    gains parameters, else of the first), and the outlined kernels (of every context, the
    first per scope)."""
    units = Units(module, workspace, memo)
    base = Run(module, workspace, memo=memo)
    chosen: dict[int, KernelSummary] = {}
    outlined: dict[int, OutlinedKernel] = {}
    for kernel in module.kernels:
        if units.owner(kernel) is None:
            chosen[id(kernel)] = base.summary(kernel)
    for item in base.outlined(units.outside()):
        outlined.setdefault(id(item.scope.node), item)
    for index, run in units.runs(workspace):
        kept = units.kept(index)
        for kernel in kept.functions:
            if not kernel.is_device_kernel:
                continue
            summary = run.summary(kernel)
            old = chosen.get(id(kernel))
            if old is None or (not old.unbound and summary.unbound):
                chosen[id(kernel)] = summary
        for item in run.outlined(kept):
            outlined.setdefault(id(item.scope.node), item)
    kernels = [chosen[id(k)] for k in module.kernels if id(k) in chosen]
    return kernels, list(outlined.values())


def merged(unit: Unit, per_context: list[list[Finding]]) -> list[Finding]:
    """One finding per distinct finding of the unit's contexts, naming the contexts that
    give it unless all do; a fix preferred only where every context gives it."""
    every = len(per_context)
    holds: dict[Finding, list[int]] = {}  # by the finding without its related places
    related: dict[Finding, dict[Location, None]] = {}  # their union, in order
    fixed: dict[tuple[object, ...], set[int]] = {}
    for index, found in enumerate(per_context):
        for finding in found:
            key = replace(finding, related=())
            contexts = holds.setdefault(key, [])
            if not contexts or contexts[-1] != index:  # (indexes come in order)
                contexts.append(index)
            related.setdefault(key, {}).update(dict.fromkeys(finding.related))
            if finding.fix is not None:
                fixed.setdefault(finding.fix.edits, set()).add(index)
    out: list[Finding] = []
    for key, contexts in holds.items():
        finding = replace(key, related=tuple(related[key]))
        if len(contexts) == every:
            out.append(finding)
            continue
        labels = [unit.contexts[i].label for i in contexts[: _NAMED + 1]]
        others = _labels_except(unit.contexts, set(contexts))
        note = f"This holds in {_named(labels, len(contexts))} only, not in {_named(*others)}."
        fix = finding.fix
        reason = ""
        if fix is not None:
            without = _labels_except(unit.contexts, fixed[fix.edits])
            if without[1]:
                cases = _named(*without)
                share, need = ("shares", "needs") if without[1] == 1 else ("share", "need")
                reason = f" The fix is not preferred: {cases} {share} the text it edits, " + (
                    "and there the pass adds nothing; the fix would still give the kernel the "
                    "parameter there and pass it an extent at every call."
                    if finding.code == UNBOUND_VALID_SHAPE_SYMBOL.code
                    else f"and {need} no fix, so it would change the program built there."
                )
                title = f"{fix.title} (also changes {cases}, which {need} no fix)"
                fix = Fix(title, fix.edits, False)
        message = _after_first_sentence(finding.message, note) + reason
        out.append(replace(finding, message=message, fix=fix))
    return out


_NAMED = 4  # the contexts a message names one by one; the others it counts


def _labels_except(contexts: list[Context], giving: set[int]) -> tuple[list[str], int]:
    """The first labels (as many as ``_named`` shows) of the contexts whose indexes are not
    in ``giving``, and how many such contexts there are."""
    labels: list[str] = []
    for index, context in enumerate(contexts):
        if len(labels) > _NAMED:
            break
        if index not in giving:
            labels.append(context.label)
    return labels, len(contexts) - len(giving)


def _named(labels: list[str], count: int) -> str:
    """``count`` contexts, whose first labels are ``labels`` (at least ``_NAMED + 1`` of
    them, or all)."""
    if count > _NAMED:
        return f"{', '.join(labels[: _NAMED - 1])} and {count - _NAMED + 1} more"
    if count == 1:
        return labels[0]
    return f"{', '.join(labels[:-1])} and {labels[-1]}"


def _after_first_sentence(message: str, sentence: str) -> str:
    end = message.find(". ")
    if end < 0:
        return f"{message} {sentence}"
    return f"{message[: end + 1]} {sentence}{message[end + 1 :]}"


def _classes_of(tree: ast.Module) -> dict[int, list[ast.ClassDef]]:
    """Per method of a module-level class (or of a class nested in one), its classes,
    innermost first: the classes pytest collects it through."""
    found: dict[int, list[ast.ClassDef]] = {}
    stack: list[tuple[ast.ClassDef, list[ast.ClassDef]]] = [
        (c, [c]) for c in tree.body if isinstance(c, ast.ClassDef)
    ]
    while stack:
        cls, chain = stack.pop()
        for item in cls.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                found[id(item)] = chain
            elif isinstance(item, ast.ClassDef):
                stack.append((item, [item, *chain]))
    return found


def _fixtures_of(tree: ast.Module) -> dict[int, dict[str, Fixture]]:
    """The fixtures of the module (key 0) and of each class (key: its node's id), by the
    name they are requested by; a later definition of a name replaces an earlier one."""
    found: dict[int, dict[str, Fixture]] = {}
    stack: list[tuple[int, list[ast.stmt], bool]] = [(0, tree.body, False)]
    while stack:
        key, body, in_class = stack.pop()
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                made = fixture(stmt, in_class)
                if made is not None:
                    found.setdefault(key, {})[made.name] = made
            elif isinstance(stmt, ast.ClassDef):
                stack.append((id(stmt), stmt.body, True))
    return found


def _is_test_class(node: ast.ClassDef) -> bool:
    """A class pytest collects: ``Test*`` without an ``__init__``."""
    has_init = any(
        isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == "__init__"
        for item in node.body
    )
    return node.name.startswith("Test") and not has_init


def _passed_name(argument: ast.expr) -> str | None:
    """The name an argument passes on: a parameter, or a fixture's ``request.param``."""
    if isinstance(argument, ast.Name):
        return argument.id
    return REQUEST_PARAM if is_request_param(argument) else None


def _point(node: ast.expr) -> Where:
    return node.lineno, node.col_offset


def _own_calls(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.Call]:
    """The calls in a function's body, not in its nested definitions."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.Call):
            yield item
        if isinstance(item, _NESTED):
            continue
        stack.extend(ast.iter_child_nodes(item))


def _calls_by_name(module: Module) -> dict[str, list[tuple[Function | None, ast.Call]]]:
    """The calls of bare names anywhere in the module, by name, each with the function
    whose body makes it (None: the module's top level), in source order."""
    functions = {id(f.node): f for f in module.functions}
    found: dict[str, list[tuple[Function | None, ast.Call]]] = {}
    # (what to walk, the function whose body it is): a def's decorators belong to the body
    # around it, its parameters are not walked
    regions: list[tuple[list[ast.AST], Function | None]] = [([*module.tree.body], None)]
    while regions:
        roots, owner = regions.pop()
        for item in nodes_below(roots, _DEFS):
            if isinstance(item, ast.Call) and isinstance(item.func, ast.Name):
                found.setdefault(item.func.id, []).append((owner, item))
            elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                regions.append(([*item.decorator_list], owner))
                regions.append(([*item.body], functions.get(id(item), owner)))
    for calls in found.values():
        calls.sort(key=lambda c: (c[1].lineno, c[1].col_offset))
    return found
