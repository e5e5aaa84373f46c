"""VS010 tensor-view-positional-arguments: a ``pl.TensorView`` written with positional
arguments in a pl function's parameter annotation (pypto's parser raises ``ParserTypeError``),
its exact place and message, what is not reported, and the screen's own test of the text."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from linear_time import assert_doubling_linear

from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.catalog import RULES
from passlint.passes.materialize_valid_shape_symbols.checks.positional_view import (
    TENSOR_VIEW_POSITIONAL_ARGUMENTS,
    may_find,
)
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text
from passlint.passes.materialize_valid_shape_symbols.screen import may_have_findings

HEAD = 'import pypto.language as pl\n\nVALID = pl.dynamic("VALID")\n'


def _program(view: str, postponed: bool = True, decorator: str = "") -> str:
    future = "from __future__ import annotations\n\n" if postponed else ""
    decorator = decorator or "@pl.function(type=pl.FunctionType.InCore)"
    return (
        future
        + HEAD
        + textwrap.dedent(
            f"""

        @pl.program
        class P:
            {decorator}
            def kernel(self, x: pl.Tensor[[16, 128], pl.FP32, {view}]):
                return x
        """
        )
    )


def _vs010(text: str) -> list[Finding]:
    code = TENSOR_VIEW_POSITIONAL_ARGUMENTS.code
    return [f for f in check_text("k.py", text, None) if f.code == code]


def _at(text: str, finding: Finding) -> str:
    lines = text.splitlines(keepends=True)
    start, end = finding.range.start, finding.range.end
    assert start.line == end.line
    return lines[start.line][start.column : end.column]


@pytest.mark.parametrize("postponed", [True, False], ids=["postponed", "evaluated"])
def test_positional_arguments_are_reported_on_them(postponed: bool) -> None:
    text = _program("pl.TensorView([16, VALID], pl.TensorLayout.ND)", postponed)
    (finding,) = _vs010(text)
    assert _at(text, finding) == "[16, VALID], pl.TensorLayout.ND"
    assert finding.severity.name == "ERROR"
    assert finding.fix is None
    assert finding.message == (
        "The TensorView of 'x' has positional arguments; name each one. pypto's parser raises "
        "`ParserTypeError: pl.TensorView() does not accept positional arguments` when it "
        "reads 'kernel', so no program is built; Python's factory would read them as stride, "
        "layout, valid_shape and pad, in that order."
    )


def test_where_python_builds_the_view_without_a_layout_the_message_says_it_raises_first() -> None:
    text = _program("pl.TensorView([128, 1])", postponed=False)
    (finding,) = _vs010(text)
    assert _at(text, finding) == "[128, 1]"
    assert finding.message == (
        "The TensorView of 'x' has positional arguments; name each one. Python raises "
        "`ValueError: layout is required when stride, valid_shape, or pad is provided` when it "
        "defines 'kernel' (its factory reads them as stride, layout, valid_shape and pad, in "
        "that order, which leaves no layout); pypto's parser rejects positional arguments too."
    )
    # postponed, Python never calls the factory: the parser's error is the one
    assert "ParserTypeError" in _vs010(_program("pl.TensorView([128, 1])"))[0].message


def test_positional_arguments_before_keywords_are_reported_on_the_positional_ones() -> None:
    text = _program("pl.TensorView([128, 1], valid_shape=[16, VALID], layout=pl.TensorLayout.ND)")
    (finding,) = _vs010(text)
    assert _at(text, finding) == "[128, 1]"


def test_an_orchestration_function_is_read_by_the_parser_too() -> None:
    decorator = "@pl.function(type=pl.FunctionType.Orchestration)"
    text = _program("pl.TensorView([128, 1], pl.TensorLayout.ND)", decorator=decorator)
    assert len(_vs010(text)) == 1


@pytest.mark.parametrize(
    "view",
    [
        "pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)",
        "pl.TensorView()",
        "pl.TensorView(**VIEW_ARGS)",
        "pl.TensorLayout.ND",
    ],
)
def test_keywords_only_are_not_reported(view: str) -> None:
    assert _vs010(_program(view)) == []


def test_a_view_held_in_a_variable_is_built_by_python_and_not_reported() -> None:
    text = _program("STRIDED").replace(
        'VALID = pl.dynamic("VALID")\n',
        'VALID = pl.dynamic("VALID")\nSTRIDED = pl.TensorView([128, 1], pl.TensorLayout.ND)\n',
    )
    assert _vs010(text) == []


def test_a_jit_function_is_not_looked_at() -> None:
    text = _program("pl.TensorView([128, 1], pl.TensorLayout.ND)", decorator="@pl.jit")
    assert _vs010(text) == []


@pytest.mark.parametrize(
    ("text", "may"),
    [
        ("pl.TensorView([16, V], pl.TensorLayout.ND)", True),
        ("pl.TensorView(\n    STRIDE, layout=ND)", True),
        ("pl.TensorView(valid_shape=[16, V], layout=ND)", False),
        ("pl.TensorView( stride = [1], layout=ND)", False),
        ("pl.TensorView()", False),
        ("pl.TensorView(**args)", False),
        ("pl.TensorView(x == y)", True),
    ],
)
def test_the_screen_test_lets_through_every_call_that_may_be_positional(
    text: str, may: bool
) -> None:
    header = f"def k(\n    x: pl.Tensor[[16, 128], pl.FP32, {text}],\n):\n    return x\n"
    assert may_find(header) is may


@pytest.mark.parametrize(
    "text",
    [
        "view = pl.TensorView([16, 1], pl.TensorLayout.ND)\n",  # a variable: built by Python
        "def k(x):\n    return pl.TensorView([16, 1], pl.TensorLayout.ND)\n",  # a body
        "def k(x) -> pl.Tensor[[16], pl.FP32]:\n    v = ir.TensorView([], DN)\n",
        'def k(x, s=":"):\n    pass\nv = pl.TensorView([1], ND)\n',
    ],
)
def test_the_screen_test_leaves_calls_no_header_holds(text: str) -> None:
    assert not may_find(text)


@pytest.mark.parametrize(
    "text",
    [
        # The brackets counted up to a ``:`` in a string balance: that cut does not parse.
        'def k(s=")", x: T[[1], F, pl.TensorView([1], ND)]):\n    pass\n',
        'def k(s="):", x: T[[1], F, pl.TensorView([1], ND)]):\n    pass\n',
        "def k(a,  # :)\n      x: T[[1], F, pl.TensorView([1], ND)]):\n    pass\n",
        # A def line in a string of the header: the def in code above holds the call.
        'def k(a="""\ndef g(): pass\n""", x: T[[1], F, pl.TensorView([1], ND)]):\n    pass\n',
        # A line join before a def: lines may not mean what they seem.
        "s = 'a\\\ndef g(): pass'\ndef k(x: T[[1], F, pl.TensorView([1], ND)]):\n    pass\n",
        "async def k(\n    x: T[[1], F, pl.TensorView([1], ND)],\n):\n    pass\n",
    ],
)
def test_the_screen_test_lets_through_calls_a_header_may_hold(text: str) -> None:
    assert may_find(text)


def test_a_batch_screen_lets_the_file_through(tmp_path: Path) -> None:
    text = _program("pl.TensorView([16, VALID], pl.TensorLayout.ND)")
    path = tmp_path / "k.py"
    path.write_text(text)
    assert may_have_findings(str(path), text, Workspace([tmp_path], screen=True))


def test_the_rule_is_in_the_catalog_with_no_fix() -> None:
    rule = RULES[TENSOR_VIEW_POSITIONAL_ARGUMENTS.code]
    assert rule is TENSOR_VIEW_POSITIONAL_ARGUMENTS
    assert "Fix: none; name each argument" in rule.explain()


@pytest.mark.parametrize(
    "unit",
    [
        "def k{n}(x: T[[1], F]):\n    v = pl.TensorView([1], ND)\n",  # a header per call
        "    v{n} = pl.TensorView([1], ND)\n",  # one header far above every call
    ],
)
def test_the_screen_test_costs_linear_time(unit: str) -> None:
    def build(n: int) -> str:
        return "def top(x):\n    pass\n" + "".join(unit.format(n=i) for i in range(n))

    assert_doubling_linear(build, may_find, 200)
