"""The cases of a test function's ``@pytest.mark.parametrize`` decorators, read from syntax.

A decorator gives its argnames (``"n"``, ``"a,b"``, ``("a", "b")``) a value expression per
case: the items of a list or tuple literal, written in place or held by a module-level name;
``pytest.param(..., id=...)`` items; ``indirect`` decorators feed fixtures, not parameters,
and are read only when each fixture they feed hands ``request.param`` on as it is. Stacked
decorators give the product of their cases, the one nearest the ``def`` outermost, as pytest
orders them. Each case is named as pytest names it (``_pytest/python.py``, ``IdMaker``):
``pytest.param``'s ``id``, else the ``ids=[...]`` item, else the values' ids joined by ``-``
(``_idval``: a str, bytes or number literal by its text, ASCII-escaped; an object without
``__name__`` such as a ``pl.dynamic`` symbol by argname and index, ``n1``), made unique per
decorator as ``make_unique_parameterset_ids`` does; the ids of stacked decorators are joined
by ``-``, the nearest first. A test method takes its class's marks too (the class body's
``pytestmark``, then its decorators), after its own and before those of an enclosing class,
and every test takes the module's ``pytestmark`` (one mark or a list) last, as
``iter_markers`` walks from the function up (``_pytest/nodes.py``); base classes' marks are
not read. A test requesting a fixture of the module with ``params``
(``@pytest.fixture(params=..., ids=...)``) takes its params as cases of the fixture's name
before the marks (``Fixture``, ``cases``). What a name denotes (an int, a symbol, a
function) is asked of the caller (``ValueIds``).

At most ``MAX_CASES`` cases are enumerated; a function with more, or with a decorator whose
values are not literal, has no cases (``None``): it is analysed as if not parametrized.
"""

from __future__ import annotations

import ast
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

MAX_CASES = 64  # cases of one test function (the product of its decorators)
_LONG_STRING = 100  # pytest's "short" strategy names a longer str by argname and index


class ByPosition:
    """pytest names the value by its argname and the case's index (``n1``)."""


BY_POSITION = ByPosition()
ValueId = str | ByPosition | None  # None: only running the code could tell
ValueIds = Callable[[ast.expr], ValueId]  # the id of a name (or other non-literal) value


@dataclass(frozen=True)
class Case:
    """One parametrization: pytest's id (None when only running the code could tell it),
    the value expression each argname gets, and the ``request.param`` of each requested
    fixture that makes something of it (by the fixture's name: the test gets what the
    fixture returns, not the value)."""

    id: str | None
    values: tuple[tuple[str, ast.expr], ...]
    fed: tuple[tuple[str, ast.expr], ...] = ()


@dataclass(frozen=True)
class _Set:
    values: tuple[ast.expr, ...]
    id: str | None  # pytest.param(id=...) or the ids=[...] item
    has_id: bool


class ModuleLists:
    """The module-level names bound (last) to a list or tuple literal: ``CASES = [...]``,
    built once per module."""

    def __init__(self, tree: ast.Module) -> None:
        self._lists: dict[str, ast.expr | None] = {}
        for stmt in tree.body:
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(stmt, ast.Assign):
                targets, value = stmt.targets, stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                targets, value = [stmt.target], stmt.value
            for target in targets:
                if isinstance(target, ast.Name):
                    literal = isinstance(value, ast.List | ast.Tuple)
                    self._lists[target.id] = value if literal else None

    def get(self, name: str) -> ast.expr | None:
        return self._lists.get(name)


def is_parametrize(decorator: ast.expr) -> bool:
    """``@pytest.mark.parametrize(...)`` (pytest under any alias) or ``@mark.parametrize``."""
    if not isinstance(decorator, ast.Call):
        return False
    func = decorator.func
    if not isinstance(func, ast.Attribute) or func.attr != "parametrize":
        return False
    mark = func.value
    if isinstance(mark, ast.Name):
        return mark.id == "mark"
    return isinstance(mark, ast.Attribute) and mark.attr == "mark"


def pytestmark(value: ast.expr | None) -> list[ast.Call]:
    """The parametrize marks of a ``pytestmark = ...`` value: one mark or a list of them
    (``_pytest/mark/structures.py``, ``get_unpacked_marks``: a list is taken item by item,
    anything else as one mark); other marks are not parametrize."""
    items = value.elts if isinstance(value, ast.List) else [value]
    return [item for item in items if isinstance(item, ast.Call) and is_parametrize(item)]


def assigned_pytestmark(body: list[ast.stmt]) -> ast.expr | None:
    """The value last bound to ``pytestmark`` by the statements of a module or class body."""
    value: ast.expr | None = None
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            targets, bound = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, bound = [stmt.target], stmt.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            value = bound
    return value


def decorator_marks(decorators: list[ast.expr]) -> list[ast.Call]:
    """The parametrize decorators in the order pytest stores them (``store_mark`` appends
    each as it is applied: the one nearest the ``def`` or ``class`` first)."""
    return [d for d in reversed(decorators) if isinstance(d, ast.Call) and is_parametrize(d)]


def class_marks(node: ast.ClassDef) -> list[ast.Call]:
    """A test class's own parametrize marks: its body's ``pytestmark``, then its decorators
    (``store_mark`` extends the class's ``pytestmark``)."""
    return [*pytestmark(assigned_pytestmark(node.body)), *decorator_marks(node.decorator_list)]


_SCOPES = {"function": 0, "class": 1, "module": 2, "package": 3, "session": 4}


@dataclass(frozen=True)
class Fixture:
    """A ``@pytest.fixture(...)`` function as the parametrization reads it: the name tests
    request it by (``name=``, else the function's), its ``params`` and ``ids``
    expressions (None: not parametrized), its scope's rank (``_pytest/scope.py``; None
    when not a literal), the fixtures it requests, whether it is ``autouse``, and whether
    it hands ``request.param`` to the test as it is (its body ``return request.param``
    or ``yield request.param``)."""

    name: str
    params: ast.expr | None
    ids: ast.expr | None
    scope: int | None
    argnames: tuple[str, ...]
    autouse: bool
    passes_param: bool
    node: ast.FunctionDef | ast.AsyncFunctionDef


def fixture(node: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> Fixture | None:
    """``node`` as a fixture, when a ``@pytest.fixture`` or ``@pytest.fixture(...)``
    decorates it (``_pytest/fixtures.py``, ``fixture``)."""
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        func = call.func if call is not None else decorator
        named = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if named != "fixture":
            continue
        keywords = {k.arg: k.value for k in call.keywords} if call is not None else {}
        name_node = keywords.get("name")
        name = node.name
        if isinstance(name_node, ast.Constant) and isinstance(name_node.value, str):
            name = name_node.value
        scope_node = keywords.get("scope")
        scope: int | None = 0
        if scope_node is not None:
            literal = scope_node.value if isinstance(scope_node, ast.Constant) else None
            scope = _SCOPES.get(literal) if isinstance(literal, str) else None
        autouse = keywords.get("autouse")
        return Fixture(
            name,
            keywords.get("params"),
            keywords.get("ids"),
            scope,
            tuple(argnames(node, is_method)),
            not (isinstance(autouse, ast.Constant) and not autouse.value) and autouse is not None,
            _passes_param(node),
            node,
        )
    return None


def argnames(node: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> list[str]:
    """The fixtures a test or fixture requests: its arguments without a default, ``self``
    left out (``_pytest/compat.py``, ``getfuncargnames``)."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    without = positional[: len(positional) - len(args.defaults)]
    names = [a.arg for a in without]
    names += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    return names[1:] if is_method and names else names


def _passes_param(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # a docstring
    if len(body) != 1:
        return False
    stmt = body[0]
    value = stmt.value if isinstance(stmt, ast.Return) else None
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Yield):
        value = stmt.value.value
    return value is not None and is_request_param(value)


def is_request_param(value: ast.expr) -> bool:
    """``request.param``: the value a parametrized fixture is run with."""
    return (
        isinstance(value, ast.Attribute)
        and value.attr == "param"
        and isinstance(value.value, ast.Name)
        and value.value.id == "request"
    )


Fixtures = Callable[[str], Fixture | None]  # the fixture a test sees by a name


def cases(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    lists: ModuleLists,
    ids: ValueIds,
    outer: list[ast.Call] | None = None,
    requested: tuple[list[str] | None, Fixtures] | None = None,
) -> list[Case] | None:
    """The cases of the parametrized fixtures ``node`` requests (``requested``: its
    argnames, None when not known, and the fixtures it sees), then of its parametrize
    decorators, then of the ``outer`` marks (those of its classes, innermost first, then
    the module's ``pytestmark``, as ``iter_markers`` walks the nodes from the function up);
    None: none, too many, or not all known by syntax.

    A fixture's params are cases of its name, ids made as a decorator's
    (``FixtureManager.pytest_generate_tests`` parametrizes each requested fixture with
    ``params`` before the marks, unless a mark names it; the fixtures in the order
    ``getfixtureclosure`` sorts them, by scope, the wider first). Only fixtures that hand
    ``request.param`` on as it is give the test's argument its value; the others give the
    case their ``request.param`` (``Case.fed``). A test requesting a parametrized fixture
    through a fixture it requests has no cases. A mark
    with ``indirect`` is read when every fixture it feeds hands ``request.param`` on."""
    marks = [*decorator_marks(node.decorator_list), *(outer or [])]
    marked = {name for mark in marks for name in _mark_argnames(mark)}
    see: Fixtures = requested[1] if requested is not None else (lambda name: None)
    fixtures: list[Fixture] = []
    if requested is not None:
        names = requested[0]
        if names is None:
            return None  # the fixtures it requests are not known
        for name in names:
            found = see(name)
            if found is None or name in marked:
                continue
            deps = [see(dep) for dep in found.argnames if dep != name]
            if any(d is not None and d.params is not None for d in deps):
                return None  # a parametrized fixture through a fixture
            if found.params is None:
                continue
            if found.scope is None:
                return None
            fixtures.append(found)
        fixtures.sort(key=lambda f: -(f.scope or 0))
    if not marks and not fixtures:
        return None
    product: list[Case] = [Case("", ())]
    lists_of: list[list[Case] | None] = [_fixture_cases(f, lists, ids) for f in fixtures]
    lists_of += [_decorator_cases(mark, lists, ids, see) for mark in marks]
    for one in lists_of:  # in the order pytest's pytest_generate_tests applies them
        if one is None or len(product) * len(one) > MAX_CASES:
            return None
        product = [
            Case(_joined(outer.id, inner.id), outer.values + inner.values, outer.fed + inner.fed)
            for outer in product
            for inner in one
        ]
    return product


def _joined(outer: str | None, inner: str | None) -> str | None:
    if outer is None or inner is None:
        return None
    return inner if outer == "" else f"{outer}-{inner}"


def _argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    if index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args):
        return call.args[index]
    return None


def _argnames(node: ast.expr | None) -> tuple[list[str], bool] | None:
    """The names and pytest's ``force_tuple`` (one name in a string without a trailing
    comma: each value is taken whole)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        names = [part.strip() for part in node.value.split(",") if part.strip()]
        return names, len(names) == 1 and not node.value.rstrip().endswith(",")
    if isinstance(node, ast.List | ast.Tuple):
        names = []
        for item in node.elts:
            if not isinstance(item, ast.Constant) or not isinstance(item.value, str):
                return None
            names.append(item.value)
        return names, False
    return None


def _decorator_cases(
    call: ast.Call, lists: ModuleLists, ids: ValueIds, fixtures: Fixtures
) -> list[Case] | None:
    if any(keyword.arg is None for keyword in call.keywords):
        return None  # **kwargs
    parsed = _argnames(_argument(call, 0, "argnames"))
    if parsed is None:
        return None
    names, force_tuple = parsed
    indirect = _argument(call, 2, "indirect")
    if indirect is not None and not (isinstance(indirect, ast.Constant) and not indirect.value):
        fed = names if isinstance(indirect, ast.Constant) and indirect.value is True else None
        if isinstance(indirect, ast.List | ast.Tuple):
            fed = [
                e.value
                for e in indirect.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
        if fed is None or not all(_hands_on(fixtures(name)) for name in fed):
            return None  # the values go to fixtures that make something of them
    values = _argument(call, 1, "argvalues")
    return _value_cases(names, force_tuple, values, _argument(call, 3, "ids"), lists, ids)


def _fixture_cases(found: Fixture, lists: ModuleLists, ids: ValueIds) -> list[Case] | None:
    one = _value_cases([found.name], True, found.params, found.ids, lists, ids)
    if one is None or found.passes_param:
        return one
    return [Case(case.id, (), case.values) for case in one]


def _mark_argnames(mark: ast.Call) -> list[str]:
    parsed = _argnames(_argument(mark, 0, "argnames"))
    return parsed[0] if parsed is not None else []


def _hands_on(found: Fixture | None) -> bool:
    return found is not None and found.passes_param


def _value_cases(
    names: list[str],
    force_tuple: bool,
    values: ast.expr | None,
    ids_node: ast.expr | None,
    lists: ModuleLists,
    ids: ValueIds,
) -> list[Case] | None:
    """The cases of argnames ``names`` given ``values`` (a decorator's argvalues or a
    fixture's params) and ``ids``."""
    if isinstance(values, ast.Name):
        values = lists.get(values.id)
    if not isinstance(values, ast.List | ast.Tuple):
        return None
    if not names or len(values.elts) > MAX_CASES:
        return None
    if any(isinstance(item, ast.Starred) for item in values.elts):
        return None  # [*MORE]: how many values, only running the code tells
    given = _given_ids(ids_node, len(values.elts))
    sets: list[_Set] = []
    for index, item in enumerate(values.elts):
        found = _parameter_set(item, force_tuple, len(names))
        if found is None:
            return None
        if not found.has_id and given and given[index] is not None:
            found = _Set(found.values, given[index], True)
        sets.append(found)
    if given is _UNKNOWN_IDS:
        resolved: list[str | None] = [s.id if s.has_id else None for s in sets]
    else:
        resolved = [
            s.id if s.has_id else _generated(s.values, names, index, ids)
            for index, s in enumerate(sets)
        ]
    unique = _unique(resolved)
    return [
        Case(case_id, tuple(zip(names, s.values, strict=True)))
        for case_id, s in zip(unique, sets, strict=True)
    ]


_UNKNOWN_IDS: list[str | None] = []  # ids=... that is not a literal list (a function)


def _given_ids(node: ast.expr | None, count: int) -> list[str | None] | None:
    """The ``ids=[...]`` items (None where an item is None or beyond the list), None when
    there is no ``ids``, ``_UNKNOWN_IDS`` when it is not a literal list."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None
    if not isinstance(node, ast.List | ast.Tuple):
        return _UNKNOWN_IDS
    given: list[str | None] = []
    for item in node.elts[:count]:
        if isinstance(item, ast.Constant) and item.value is None:
            given.append(None)
            continue
        literal = _literal_id(item)
        if literal is None:
            return _UNKNOWN_IDS
        given.append(literal)
    return given + [None] * (count - len(given))


def _parameter_set(item: ast.expr, force_tuple: bool, width: int) -> _Set | None:
    if isinstance(item, ast.Call) and _is_pytest_param(item.func):
        if any(isinstance(a, ast.Starred) for a in item.args) or len(item.args) != width:
            return None
        case_id: str | None = None
        has_id = False
        for keyword in item.keywords:
            if keyword.arg == "id":
                value = keyword.value
                if isinstance(value, ast.Constant) and value.value is None:
                    continue
                if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
                    return None
                case_id, has_id = _ascii_escaped(value.value), True
        return _Set(tuple(item.args), case_id, has_id)
    if force_tuple:
        return _Set((item,), None, False)
    if isinstance(item, ast.Tuple | ast.List) and len(item.elts) == width:
        if any(isinstance(e, ast.Starred) for e in item.elts):
            return None
        return _Set(tuple(item.elts), None, False)
    return None


def _is_pytest_param(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr == "param" and isinstance(func.value, ast.Name)
    return isinstance(func, ast.Name) and func.id == "param"


def _generated(
    values: tuple[ast.expr, ...], names: list[str], index: int, ids: ValueIds
) -> str | None:
    """``_idval`` of each value, joined by ``-``."""
    parts: list[str] = []
    for value, name in zip(values, names, strict=True):
        found = _value_id(value, ids)
        if found is None:
            return None
        parts.append(f"{name}{index}" if isinstance(found, ByPosition) else found)
    return "-".join(parts)


def _value_id(value: ast.expr, ids: ValueIds) -> ValueId:
    if isinstance(value, ast.Constant):
        if isinstance(value.value, str | bytes) and len(value.value) > _LONG_STRING:
            return BY_POSITION
        literal = _literal_id(value)
        return BY_POSITION if literal is None else literal
    number = _number(value)
    if number is not None:
        return number
    if isinstance(value, ast.List | ast.Tuple | ast.Dict | ast.Set):
        return BY_POSITION  # no __name__
    return ids(value)


def _literal_id(node: ast.expr) -> str | None:
    """``_idval_from_value`` of a literal: str and bytes ASCII-escaped, numbers, None and
    bools as ``str`` prints them."""
    if not isinstance(node, ast.Constant):
        return _number(node)
    value = node.value
    if isinstance(value, str | bytes):
        return _ascii_escaped(value)
    if value is None or isinstance(value, bool | int | float | complex):
        return str(value)
    return None


def _number(node: ast.expr) -> str | None:
    """A signed number literal (``-3``, ``+1.5``) as ``str`` prints its value."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = node.operand
        value = operand.value if isinstance(operand, ast.Constant) else None
        if isinstance(value, int | float | complex) and not isinstance(value, bool):
            return str(-value if isinstance(node.op, ast.USub) else +value)
    return None


_NON_PRINTABLE = {i: f"\\x{i:02x}" for i in range(128) if i not in range(32, 127)}
_NON_PRINTABLE.update({ord("\t"): "\\t", ord("\r"): "\\r", ord("\n"): "\\n"})


def _ascii_escaped(value: str | bytes) -> str:
    """``_pytest.compat.ascii_escaped``."""
    if isinstance(value, bytes):
        text = value.decode("ascii", "backslashreplace")
    else:
        text = value.encode("unicode_escape").decode("ascii")
    return text.translate(_NON_PRINTABLE)


def _unique(ids: list[str | None]) -> list[str | None]:
    """``IdMaker.make_unique_parameterset_ids``: a repeated id gets a counter (after ``_``
    when it ends in a digit), skipping ids already taken. Unknown ids stay unknown, and
    make every repeated one unknown (their counters depend on them)."""
    if None in ids:
        known = Counter(i for i in ids if i is not None)
        return [i if i is not None and known[i] == 1 else None for i in ids]
    counts = Counter(ids)
    if all(count == 1 for count in counts.values()):
        return ids
    out: list[str] = [i for i in ids if i is not None]
    current = Counter(out)  # the ids as they stand, renamed ones included
    suffixes: dict[str, int] = defaultdict(int)
    for index, item in enumerate(list(out)):
        if counts[item] > 1:
            suffix = "_" if item and item[-1].isdigit() else ""
            new = f"{item}{suffix}{suffixes[item]}"
            while current[new] > 0:
                suffixes[item] += 1
                new = f"{item}{suffix}{suffixes[item]}"
            current[item] -= 1
            current[new] += 1
            out[index] = new
            suffixes[item] += 1
    return list(out)
