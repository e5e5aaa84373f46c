"""MaterializeValidShapeSymbols over parametrized tests: each ``pytest.mark.parametrize``
case analysed with the test's parameters bound to its values (issue 27, point 2).

pypto's parser reads a valid_shape name from the frame the program is built in
(``python/pypto/language/parser/type_resolver.py``, ``_parse_tileview_expr``: the earlier
parameters, then the closure variables), so a test parameter holding ``64`` is a constant
there and one holding ``pl.dynamic("N")`` a symbol that the pass adds as a leading
parameter (``src/ir/transforms/materialize_valid_shape_symbols_pass.cpp``, ``BuildPlan``).
The programs are written as pypto's own tests write parametrized programs
(``tests/ut/language/parser/test_type_resolver.py``, ``test_parametrized_shapes``;
``tests/ut/ir/transforms/test_legalize_tile_cast.py``,
``test_native_table_is_owned_by_the_backend_handler``): the program is built inside the
test (or a builder it calls) and reads the parameters as closure variables.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from linear_time import assert_doubling_linear, assert_linear
from pytest_collect import pytest_ids

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Finding
from passlint.analysis.pl.frontend import build_module, parse_text
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.parametrize import MAX_CASES
from passlint.analysis.source import SourceText
from passlint.passes.materialize_valid_shape_symbols.cases import (
    MAX_BUILDER_DEPTH,
    Unit,
    UnitLines,
    Units,
)
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text

MEMO = PlMemo()  # each timed run starts from a cleared memo
KERNEL = """
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[128], pl.FP32, pl.TensorView(valid_shape=[rows], layout=pl.TensorLayout.ND)],
        ) -> pl.Tensor[[128], pl.FP32]:
            return x

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[128], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128], pl.FP32]:
            return self.kernel(pl.slice(x, [128], [0], valid_shape=[n]))
"""


def program(decorator: str, test: str = "def test_rows(rows):") -> str:
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")
    return (
        "import pypto.language as pl\nimport pytest\n\nDYN = pl.dynamic('D')\n\n\n"
        f"{decorator}\n{test}\n{body}"
    )


def place(text: str, finding: Finding) -> str:
    source = SourceText(text)
    return text[source.offset(finding.range.start) : source.offset(finding.range.end)]


def test_a_symbol_of_some_cases_names_them_and_its_fix_is_not_preferred() -> None:
    text = program('@pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")])')
    [finding] = check_text("t.py", text, None)
    assert (finding.code, finding.range.start.line, finding.range.start.column) == ("VS001", 14, 68)
    assert place(text, finding) == "rows"
    assert finding.message == (
        "Kernel 'kernel' cannot bind 'ROWS' (Python name 'rows'); add it as a leading "
        "parameter. This holds in test_rows[rows1] only, not in test_rows[64]. No physical "
        "dimension or scalar parameter binds it (parameter 'x', dim 0), so "
        "MaterializeValidShapeSymbols adds `rows: pl.Scalar[pl.INDEX]` in front and passes "
        "the extent at every call. Under `pl.compile` OptimizeOrchTensors runs first and "
        "replaces the view of parameter 'x' by the strides of `x` (the calls pass slices of a "
        "tensor of static shape), so there the pass does not add 'ROWS' (Python name 'rows'), "
        "and the fix leaves it unread. The fix is not preferred: test_rows[64] shares the text it "
        "edits, and there the pass adds nothing; the fix would still give the kernel the "
        "parameter there and pass it an extent at every call."
    )
    assert finding.fix is not None and not finding.fix.preferred
    assert finding.fix.title == (
        "Add leading parameter rows to 'kernel' and pass the extent at 1 call site "
        "(also changes test_rows[64], which needs no fix)"
    )
    fixed = apply_edits(text, finding.fix.edits)
    assert "def kernel(\n            self,\n            rows: pl.Scalar[pl.INDEX],\n" in fixed
    assert "return self.kernel(n, pl.slice(x, [128], [0], valid_shape=[n]))" in fixed
    ast.parse(fixed)
    assert check_text("t.py", fixed, None) == []  # in every case the parameter binds it


def test_a_finding_of_every_case_names_none() -> None:
    text = program(
        '@pytest.mark.parametrize("rows", [pytest.param(DYN, id="a"), pl.dynamic("D")])\n'
        '@pytest.mark.parametrize("dtype", ["FP32", "FP16"])',
        "def test_rows(rows, dtype):",
    )
    [finding] = check_text("t.py", text, None)
    assert finding.message.startswith(
        "Kernel 'kernel' cannot bind 'D' (Python name 'rows'); add it as a leading parameter. "
        "No physical dimension"
    )
    assert finding.fix is not None and finding.fix.preferred
    # each case's symbol is declared elsewhere: both places are related
    declared = [r for r in finding.related if "pl.dynamic" in r.message or "declared" in r.message]
    assert len({r.range for r in declared}) == 2, finding.related


def test_cases_that_differ_in_their_symbol_are_named_each() -> None:
    text = program(
        '@pytest.mark.parametrize("rows", [pl.dynamic("A"), pl.dynamic("B")], ids=["a", "b"])'
    )
    found = check_text("t.py", text, None)
    assert [f.message.split(". ")[:2] for f in found] == [
        [
            "Kernel 'kernel' cannot bind 'A' (Python name 'rows'); add it as a leading parameter",
            "This holds in test_rows[a] only, not in test_rows[b]",
        ],
        [
            "Kernel 'kernel' cannot bind 'B' (Python name 'rows'); add it as a leading parameter",
            "This holds in test_rows[b] only, not in test_rows[a]",
        ],
    ]
    # the same edits fix both cases: preferred in each
    assert all(f.fix is not None and f.fix.preferred for f in found)
    assert found[0].fix is not None and found[1].fix is not None
    assert found[0].fix.edits == found[1].fix.edits


def test_constant_cases_only_are_silent() -> None:
    text = program('@pytest.mark.parametrize("rows", [16, 64, N])').replace(
        "DYN = pl.dynamic('D')", "N = 32"
    )
    assert check_text("t.py", text, None) == []


def test_a_builder_called_with_a_parameter_takes_each_case() -> None:
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")
    text = (
        "import pypto.language as pl\nimport pytest\n\n\n"
        f"def build(rows):\n{body}\n    return P\n\n\n"
        '@pytest.mark.parametrize("valid", [48, pl.dynamic("VALID")], ids=["const", "symbol"])\n'
        "def test_built(valid):\n    assert build(valid) is not None\n\n\n"
        "def test_plain():\n    assert build(rows=32) is not None\n"
    )
    [finding] = check_text("t.py", text, None)
    assert finding.message.split(". ")[:2] == [
        "Kernel 'kernel' cannot bind 'VALID' (Python name 'rows'); add it as a leading parameter",
        "This holds in test_built[symbol] (the call on line 25) only, not in "
        "test_built[const] (the call on line 25) and test_plain (the call on line 29)",
    ]
    assert finding.fix is not None and not finding.fix.preferred


def test_the_summary_is_that_of_a_case_that_gains_parameters() -> None:
    text = program('@pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")])')
    analysis = analyze_module("t.py", text, None)
    [kernel] = [k for k in analysis.kernels if k.kernel.name == "kernel"]
    assert [s.symbol for s in kernel.unbound] == ["ROWS"]
    assert [call.texts for call in kernel.calls] == [["n"]]


def test_not_enumerable_cases_analyse_as_before() -> None:
    text = program('@pytest.mark.parametrize("rows", make_cases())')
    assert check_text("t.py", text, None) == []
    # more than MAX_CASES (64) cases: as if not parametrized (the parameter means nothing)
    for sizes, count in ((32, 1), (33, 0)):  # 64 cases, 66 cases
        many = program(
            '@pytest.mark.parametrize("rows", [pl.dynamic("ROWS"), 1])\n'
            f'@pytest.mark.parametrize("size", {list(range(sizes))})',
            "def test_rows(rows, size):",
        )
        assert len(check_text("t.py", many, None)) == count


def test_cases_cost_linear_time() -> None:
    """Doubling the parametrized tests (two cases each, a builder called from each) at most
    doubles the time."""
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")

    def build(count: int) -> str:
        parts = ["import pypto.language as pl\nimport pytest\n"]
        for i in range(count):
            parts.append(
                f"def build{i}(rows):\n{body}\n    return P\n\n"
                f'@pytest.mark.parametrize("rows", [64, pl.dynamic("R{i}")])\n'
                f"def test_{i}(rows):\n    assert build{i}(rows) is not None\n"
            )
        return "\n".join(parts)

    def run(text: str) -> object:
        return check_text("t.py", text, None, MEMO)

    assert len(run(build(2))) == 2
    assert_doubling_linear(build, run, 8, before=MEMO.clear)


def _labels(text: str) -> dict[str, list[str]]:
    """Per test unit its case labels, as the pass names them, without the function's own
    path (``TestX::test_k[...]`` -> key ``TestX::test_k``, ids)."""
    tree = parse_text("t.py", text)
    assert isinstance(tree, ast.Module)
    module = build_module("t.py", text, tree)
    assert module is not None
    found: dict[str, list[str]] = {}
    for unit in Units(module, None).units.values():
        for context in unit.contexts:
            name, _, rest = context.label.partition("[")
            found.setdefault(name, []).append(rest[:-1])
    return found


CLASS_MARKS = textwrap.dedent(
    """
    import pypto.language as pl
    import pytest

    pytestmark = [pytest.mark.slow, pytest.mark.parametrize("dtype", ["FP32", "FP16"])]


    @pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")])
    @pytest.mark.parametrize("cols", [16], ids=["narrow"])
    class TestRows:
        pytestmark = pytest.mark.parametrize("depth", [1, 2])

        @pytest.mark.parametrize("size", [8])
        def test_k(self, rows, cols, depth, size, dtype):
            pass

        def test_class_cases(self, rows, cols, depth, dtype):
            pass

        def helper(self, rows):
            pass

        class TestInner:
            @pytest.mark.parametrize("n", [pl.dynamic("N")])
            def test_inner(self, n, rows, cols, depth, dtype):
                pass


    class TestPlain:
        @pytest.mark.parametrize("n", [3, pl.dynamic("N")])
        def test_method(self, n, dtype):
            pass


    @pytest.mark.parametrize("n", [1])
    def test_function(n, dtype):
        pass
    """
)


def test_class_and_module_marks_name_cases_as_pytest_does(tmp_path: Path) -> None:
    """A test method takes its own marks, then its class's (body ``pytestmark``, then its
    decorators, nearest first), then its enclosing classes', then the module's
    ``pytestmark``: ``_pytest/python.py``, ``pytest_generate_tests`` applies
    ``iter_markers(name="parametrize")``, which walks ``_pytest/nodes.py``'s
    ``iter_parents`` from the function up; ``_pytest/mark/structures.py``,
    ``get_unpacked_marks`` and ``store_mark``. Node ids ``TestX::test_k[...]``: checked
    against pytest's own collection (``--collect-only -q``). A non-``test`` method
    (``helper``) takes no marks."""
    ours = _labels(CLASS_MARKS)
    assert ours == pytest_ids(tmp_path, CLASS_MARKS)
    assert ours["TestRows::test_k"][:2] == ["8-1-narrow-64-FP32", "8-1-narrow-64-FP16"]
    assert "TestRows::helper" not in ours


def test_a_class_mark_reaches_the_kernel_of_a_method() -> None:
    method = (
        '\n\n@pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")], ids=["c", "d"])\n'
        "class TestBuilt:\n    def test_k(self, rows):\n"
        + textwrap.indent(textwrap.dedent(KERNEL), " " * 8)
    )
    text = "import pypto.language as pl\nimport pytest\n" + method
    [finding] = check_text("t.py", text, None)
    assert finding.message.split(". ")[1] == (
        "This holds in TestBuilt::test_k[d] only, not in TestBuilt::test_k[c]"
    )
    assert finding.fix is not None and not finding.fix.preferred


def test_a_module_pytestmark_reaches_every_test() -> None:
    text = program("", "def test_rows(rows):").replace(
        "DYN = pl.dynamic('D')",
        'pytestmark = pytest.mark.parametrize("rows", [pl.dynamic("R"), 7], ids=["r", "s"])',
    )
    [finding] = check_text("t.py", text, None)
    assert finding.message.split(". ")[1] == "This holds in test_rows[r] only, not in test_rows[s]"


def test_marks_of_a_base_class_are_not_enumerated() -> None:
    """pytest reads a class's marks through its MRO (``get_unpacked_marks``,
    ``consider_mro``); a base class with parametrize marks of its own leaves the method
    not analysed per case (as before: the parameter means nothing to the pass)."""
    method = (
        '\n\n@pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")])\n'
        "class TestBase:\n    pass\n\n\n"
        "class TestDerived(TestBase):\n    def test_k(self, rows):\n"
        + textwrap.indent(textwrap.dedent(KERNEL), " " * 8)
    )
    assert check_text("t.py", "import pypto.language as pl\nimport pytest\n" + method, None) == []


def _chain(depth: int) -> str:
    """A test calling ``build0(rows)``, which calls ``build1(rows)``, ... ``build{depth-1}``,
    which defines the program (as pypto's tests build programs in helpers:
    ``tests/ut/ir/transforms/test_legalize_tile_cast.py``, ``_make_program``)."""
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")
    parts = ["import pypto.language as pl\nimport pytest\n"]
    for level in range(depth - 1):
        parts.append(f"def build{level}(rows):\n    return build{level + 1}(rows)\n")
    parts.append(f"def build{depth - 1}(rows):\n{body}\n    return P\n")
    parts.append(
        '@pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")], ids=["c", "d"])\n'
        "def test_chain(rows):\n    assert build0(rows) is not None\n"
    )
    return "\n\n".join(parts)


def test_a_builder_chain_passes_each_case_down() -> None:
    """``test_chain(rows)`` -> ``build0(rows)`` -> ... -> the program: each builder's
    parameter holds what its caller passed in that case (the frame pypto's parser reads,
    ``type_resolver.py``, ``_parse_tileview_expr``), up to ``MAX_BUILDER_DEPTH`` (4) calls
    from the test; beyond, the builder is analysed once, as if not parametrized (its
    parameter means nothing to the pass: silence)."""
    assert MAX_BUILDER_DEPTH == 4
    for depth in (2, 4):
        [finding] = check_text("t.py", _chain(depth), None)
        assert finding.message.split(". ")[:2] == [
            "Kernel 'kernel' cannot bind 'ROWS' (Python name 'rows'); add it as a leading "
            "parameter",
            "This holds in test_chain[d] only, not in test_chain[c]",
        ]
        assert finding.fix is not None and not finding.fix.preferred
    assert check_text("t.py", _chain(5), None) == []


def test_builder_chains_cost_linear_time() -> None:
    """Doubling the tests, each with a builder chain of two, at most doubles the time."""
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")

    def build(count: int) -> str:
        parts = ["import pypto.language as pl\nimport pytest\n"]
        for i in range(count):
            parts.append(
                f"def outer{i}(rows):\n    return inner{i}(rows)\n\n"
                f"def inner{i}(rows):\n{body}\n    return P\n\n"
                f'@pytest.mark.parametrize("rows", [64, pl.dynamic("R{i}")])\n'
                f"def test_{i}(rows):\n    assert outer{i}(rows) is not None\n"
            )
        return "\n".join(parts)

    def run(text: str) -> object:
        return check_text("t.py", text, None, MEMO)

    assert len(run(build(2))) == 2  # type: ignore[arg-type]
    assert_doubling_linear(build, run, 8, before=MEMO.clear)


FIXTURES = textwrap.dedent(
    """
    import pypto.language as pl
    import pytest


    @pytest.fixture(params=[64, pl.dynamic("ROWS")], ids=["const", None])
    def rows(request):
        return request.param


    @pytest.fixture(params=[3, 4], scope="module")
    def cols(request):
        \"\"\"A wider scope: parametrized before ``rows``.\"\"\"
        yield request.param


    @pytest.fixture
    def plain():
        return 1


    @pytest.mark.parametrize("dtype", ["FP32"])
    def test_k(rows, dtype, cols, plain):
        pass


    def test_fixtures_only(cols, rows):
        pass


    @pytest.mark.parametrize("rows", [pl.dynamic("X"), 8], indirect=True)
    def test_indirect(rows):
        pass


    @pytest.mark.parametrize("rows", [5])
    def test_overridden(rows, cols):
        pass


    class TestC:
        @pytest.fixture(autouse=True, params=[1, 2])
        def each(self, request):
            return request.param

        @pytest.fixture(params=["p", pl.dynamic("Q")], name="depth")
        def _depth(self, request):
            return request.param

        def test_m(self, depth, rows):
            pass
    """
)


def test_fixture_params_name_cases_as_pytest_does(tmp_path: Path) -> None:
    """``@pytest.fixture(params=..., ids=...)`` handing ``request.param`` on: each
    requested fixture is parametrized before the marks, unless a mark names it, the
    wider scope first (``_pytest/fixtures.py``, ``FixtureManager.pytest_generate_tests``,
    ``getfixtureclosure``); ``indirect=True`` feeds such a fixture. Checked against
    pytest's own collection."""
    ours = _labels(FIXTURES)
    assert ours == pytest_ids(tmp_path, FIXTURES)
    assert ours["test_k"] == ["3-const-FP32", "3-rows1-FP32", "4-const-FP32", "4-rows1-FP32"]


def test_a_fixture_param_reaches_the_kernel() -> None:
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")
    text = (
        "import pypto.language as pl\nimport pytest\n\n\n"
        '@pytest.fixture(params=[64, pl.dynamic("ROWS")], ids=["const", "symbol"])\n'
        "def rows(request):\n    return request.param\n\n\n"
        f"def test_rows(rows):\n{body}"
    )
    [finding] = check_text("t.py", text, None)
    assert finding.message.split(". ")[1] == (
        "This holds in test_rows[symbol] only, not in test_rows[const]"
    )
    # a fixture that makes something of request.param: not read (as before, silent)
    other = text.replace("return request.param", "return request.param + 0")
    assert check_text("t.py", other, None) == []


def test_a_fixture_param_fed_to_a_builder_takes_each_case() -> None:
    """A parametrized fixture that builds the program with ``request.param``
    (``_pytest/fixtures.py``: ``SubRequest.param`` is the case's param): the builder's
    parameter holds it in each case, and the cases are named by the tests requesting the
    fixture (pytest's node ids: ``test_built[symbol]``)."""
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")
    text = (
        "import pypto.language as pl\nimport pytest\n\n\n"
        f"def build(rows):\n{body}\n    return P\n\n\n"
        '@pytest.fixture(params=[64, pl.dynamic("ROWS")], ids=["const", "symbol"])\n'
        "def program(request):\n    return build(request.param)\n\n\n"
        "def test_built(program):\n    assert program is not None\n"
    )
    [finding] = check_text("t.py", text, None)
    assert finding.message.split(". ")[:2] == [
        "Kernel 'kernel' cannot bind 'ROWS' (Python name 'rows'); add it as a leading parameter",
        "This holds in test_built[symbol] only, not in test_built[const]",
    ]
    assert finding.fix is not None and not finding.fix.preferred


def test_fixture_cases_cost_linear_time() -> None:
    """Doubling the parametrized fixtures (one builds the program with ``request.param``,
    one hands it on; one autouse fixture every test takes) and the tests requesting them
    at most doubles the time."""
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")

    def build(count: int) -> str:
        parts = ["import pypto.language as pl\nimport pytest\n"]
        for i in range(count):
            parts.append(
                f"def build{i}(rows):\n{body}\n    return P\n\n"
                f'@pytest.fixture(params=[64, pl.dynamic("R{i}")])\n'
                f"def program{i}(request):\n    return build{i}(request.param)\n\n"
                f"@pytest.fixture(params=[1, 2], autouse={i == 0})\n"
                f"def size{i}(request):\n    return request.param\n\n"
                f"def test_{i}(program{i}, size{i}):\n    assert program{i} is not None\n"
            )
        return "\n".join(parts)

    def run(text: str) -> object:
        return check_text("t.py", text, None, MEMO)

    assert len(run(build(2))) == 2  # type: ignore[arg-type]
    assert_doubling_linear(build, run, 8, before=MEMO.clear)


def test_one_test_of_many_cases_among_many_tests_costs_linear_time() -> None:
    """Doubling both the cases of one test and the other tests at most doubles the time:
    each case's run shares the module's name index, and a finding finds its test by
    lookup (both once cost the whole module per case, or every test per finding)."""
    body = textwrap.indent(textwrap.dedent(KERNEL), "    ")
    OTHERS = 4  # other tests per case of the one (its cases are cut at MAX_CASES)

    def build(count: int) -> str:
        values = ", ".join(f'pl.dynamic("V{j}")' for j in range(count))
        parts = [
            "import pypto.language as pl\nimport pytest\n",
            f'@pytest.mark.parametrize("rows", [{values}])\ndef test_many(rows):\n{body}\n',
        ]
        for i in range(OTHERS * count):
            parts.append(
                f'@pytest.mark.parametrize("rows", [64, pl.dynamic("R{i}")])\n'
                f"def test_{i}(rows):\n{body * 3}\n"
            )
        return "\n".join(parts)

    def run(text: str) -> object:
        return check_text("t.py", text, None, MEMO)

    assert len(run(build(2))) == 2 + OTHERS * 2 * 3  # type: ignore[arg-type]
    size = MAX_CASES // 2  # (the cases of one test are cut at MAX_CASES)
    assert_linear(lambda: run(build(size // 2)), lambda: run(build(size)), before=MEMO.clear)


def test_a_finding_is_given_to_the_innermost_test_holding_it() -> None:
    """A builder nested in a test, a test after it, lines between and after them: each
    line's unit is the innermost definition holding it."""
    outer = Unit(None, first_line=3, last_line=20)  # type: ignore[arg-type]
    inner = Unit(None, first_line=5, last_line=9)  # type: ignore[arg-type]
    deepest = Unit(None, first_line=6, last_line=9)  # type: ignore[arg-type]
    later = Unit(None, first_line=22, last_line=30)  # type: ignore[arg-type]
    lines = UnitLines([later, deepest, outer, inner])
    expected = {1: None, 3: outer, 4: outer, 5: inner, 6: deepest, 9: deepest, 10: outer}
    expected |= {20: outer, 21: None, 22: later, 30: later, 31: None}
    assert {line: lines.at(line) for line in expected} == expected
