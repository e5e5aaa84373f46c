"""The cases of ``@pytest.mark.parametrize`` decorators, read from syntax, and their ids as
pytest forms them (``_pytest/python.py``: ``IdMaker._resolve_ids``, ``_idval``,
``_idval_from_value``, ``make_unique_parameterset_ids``; ``_pytest/mark/structures.py``:
``ParameterSet._parse_parametrize_args``). The ids are checked against pytest itself: the
same file is collected by pytest (with a stand-in for ``pypto.language`` whose
``pl.dynamic`` returns an object without ``__name__``, as pypto's ``DynVar``) and its node
ids compared (``tests/pytest_collect.py``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from pytest_collect import pytest_ids

from passlint.analysis.pl.parametrize import (
    BY_POSITION,
    MAX_CASES,
    Case,
    ModuleLists,
    ValueId,
    cases,
)

SOURCE = textwrap.dedent(
    """
    import pypto.language as pl
    import pytest
    from pytest import mark

    N64 = 64
    CASES = [16, pl.dynamic("LISTED")]


    def helper():
        pass


    @pytest.mark.parametrize("n", [64, pl.dynamic("N"), N64, "x y", -3, 1.5, None, True, 2j])
    def test_literals(n):
        pass


    @pytest.mark.parametrize("n", [b"ab", "\\u00e9", "tab\\tbed", "aaa", "LONG", helper])
    def test_strings_and_names(n):
        pass


    @pytest.mark.parametrize("n", [64, 64, "a1", "a1", "a", "a"])
    def test_repeated(n):
        pass


    @pytest.mark.parametrize("b1", ["b1", "b1", "b", "b"])
    def test_repeated_renamed(b1):
        pass


    @pytest.mark.parametrize(
        "rows,cols",
        [(16, 64), pytest.param(pl.dynamic("R"), 64, id="dynamic"), [32, pl.dynamic("C")]],
    )
    @mark.parametrize("dtype", ["FP32", "FP16"], ids=["single", None])
    def test_stacked(rows, cols, dtype):
        pass


    @pytest.mark.parametrize(("x",), [(1,), (pl.dynamic("X"),)])
    def test_tuple_argnames(x):
        pass


    @pytest.mark.parametrize("x,", [(1,), (2,)])
    def test_trailing_comma(x):
        pass


    @pytest.mark.parametrize(argnames="x", argvalues=CASES, ids=["static", "symbol"])
    def test_keywords_and_module_list(x):
        pass


    @pytest.mark.parametrize("x", [(1, 2), [3], {"a": 1}])
    def test_containers(x):
        pass
    """
).replace("LONG", "b" * 101)  # a str longer than 100 characters is named by position


def _value_ids(tree: ast.Module) -> object:
    """Names of ``SOURCE`` as the pass resolves them: module ints by value, a function by
    its name, ``pl.dynamic(...)`` by position."""
    ints = {
        s.targets[0].id: s.value.value
        for s in tree.body
        if isinstance(s, ast.Assign)
        and isinstance(s.targets[0], ast.Name)
        and isinstance(s.value, ast.Constant)
    }
    functions = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)}

    def value_id(value: ast.expr) -> ValueId:
        if isinstance(value, ast.Call):
            return BY_POSITION if ast.unparse(value.func) == "pl.dynamic" else None
        if isinstance(value, ast.Name) and value.id in ints:
            return str(ints[value.id])
        if isinstance(value, ast.Name) and value.id in functions:
            return value.id
        return None

    return value_id


def _cases_of(source: str) -> dict[str, list[Case] | None]:
    tree = ast.parse(source)
    lists = ModuleLists(tree)
    ids = _value_ids(tree)
    return {
        node.name: cases(node, lists, ids)  # type: ignore[arg-type]
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


def test_ids_are_pytests_own(tmp_path: Path) -> None:
    ours = {name: [c.id for c in found or []] for name, found in _cases_of(SOURCE).items()}
    assert ours == pytest_ids(tmp_path, SOURCE)


def test_values_of_each_case() -> None:
    stacked = _cases_of(SOURCE)["test_stacked"]
    assert stacked is not None
    assert [[(n, ast.unparse(v)) for n, v in c.values] for c in stacked] == [
        # the decorator nearest the def outermost, as pytest orders them
        [("dtype", "'FP32'"), ("rows", "16"), ("cols", "64")],
        [("dtype", "'FP32'"), ("rows", "pl.dynamic('R')"), ("cols", "64")],
        [("dtype", "'FP32'"), ("rows", "32"), ("cols", "pl.dynamic('C')")],
        [("dtype", "'FP16'"), ("rows", "16"), ("cols", "64")],
        [("dtype", "'FP16'"), ("rows", "pl.dynamic('R')"), ("cols", "64")],
        [("dtype", "'FP16'"), ("rows", "32"), ("cols", "pl.dynamic('C')")],
    ]
    listed = _cases_of(SOURCE)["test_keywords_and_module_list"]
    assert listed is not None
    assert [ast.unparse(c.values[0][1]) for c in listed] == ["16", "pl.dynamic('LISTED')"]


@pytest.mark.parametrize(
    "decorator",
    [
        '@pytest.mark.parametrize("n", make_cases())',  # not a literal list
        '@pytest.mark.parametrize("n", [1, 2], indirect=True)',  # the values go to fixtures
        '@pytest.mark.parametrize("n", [1, 2], True)',
        '@pytest.mark.parametrize("a,b", [1, 2])',  # not a pair each
        '@pytest.mark.parametrize("n", [*MORE])',
        "@pytest.mark.parametrize(**options)",
        '@pytest.mark.parametrize("n", [pytest.param(1, 2)])',
        "@pytest.mark.parametrize(names, [1, 2])",
    ],
)
def test_cases_not_known_by_syntax(decorator: str) -> None:
    assert _cases_of(f"{decorator}\ndef test_k(n, a, b):\n    pass\n") == {"test_k": None}


def test_ids_not_known_by_syntax() -> None:
    source = (
        '@pytest.mark.parametrize("n", [1, other, pytest.param(3, id="three")], ids=str)\n'
        "def test_ids_function(n):\n    pass\n"
        '@pytest.mark.parametrize("m", [1, other, 1, 2])\n'
        "def test_unknown_value(m):\n    pass\n"
        '@pytest.mark.parametrize("m", [1, other])\n'
        '@pytest.mark.parametrize("n", [1, 2])\n'
        "def test_stacked(m, n):\n    pass\n"
    )
    found = _cases_of(source)
    # ``ids=str``: only the pytest.param id is known
    assert [c.id for c in found["test_ids_function"] or []] == [None, None, "three"]
    # ``other``: only running the code tells its id, and so the counters of the repeated 1s
    assert [c.id for c in found["test_unknown_value"] or []] == [None, None, None, "2"]
    assert [c.id for c in found["test_stacked"] or []] == ["1-1", None, "2-1", None]


def test_not_parametrized_and_too_many_cases() -> None:
    assert _cases_of("def test_k(n):\n    pass\n") == {"test_k": None}
    eight = list(range(8))
    source = (
        f'@pytest.mark.parametrize("a", {eight})\n'
        f'@pytest.mark.parametrize("b", {eight})\n'
        "def test_k(a, b):\n    pass\n"
    )
    found = _cases_of(source)["test_k"]
    assert found is not None and len(found) == 64 == MAX_CASES
    more = source.replace("def test_k", '@pytest.mark.parametrize("c", [1, 2])\ndef test_k')
    assert _cases_of(more) == {"test_k": None}
