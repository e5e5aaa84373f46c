"""Hover on any value, op, @symbol or ^label costs time linear in what it reads, whatever the
document (``linear_time``: doubling the input at most doubles the time): a value with many
uses, a label with many predecessors, an op with many operands, results or nested brackets,
a function with many arguments, a long or unclosed attribute. The answer stays short."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from linear_time import assert_doubling_linear

from passlint import pipeline
from passlint.analysis.source import SourceText
from passlint.server import hover
from passlint.server.mlir_index import build_index
from passlint.server.views import MlirView, Shift

T = "tensor<4xf32>"
HEAD = f"func.func @main(%arg0: {T}) -> {T} {{\n"

ASKED = 50

Hovered = tuple[MlirView, int]


def hovered(text: str, needle: str, into: int = 1, last: bool = False) -> Hovered:
    """The view of ``text`` as the server holds it, and the offset to hover."""
    analysis = pipeline.analyze_document("/ws/shape.mlir", text)
    assert analysis.parsed is not None
    source = SourceText(text)
    index = build_index(analysis.parsed, source, analysis.tensorizer, analysis.findings)
    found = text.rindex(needle) if last else text.index(needle)
    return MlirView(index, Shift(), source), found + into


def answer(shape: Hovered) -> str:
    view, offset = shape
    found = hover.mlir_hover(view, offset)
    assert found is not None
    text = found[0]
    assert len(text) < 4000  # what is listed is bounded, however much there is
    return text


def a_value_with_many_uses(n: int) -> Hovered:
    uses = "".join(f"  %u{k} = stablehlo.add %0, %0 : {T}\n" for k in range(n))
    text = f"{HEAD}  %0 = stablehlo.abs %arg0 : {T}\n{uses}  return %0 : {T}\n}}\n"
    return hovered(text, "%0 =")


def a_label_with_many_predecessors(n: int) -> Hovered:
    blocks = "".join(f"^b{k}:\n  cf.br ^target(%arg0 : {T})\n" for k in range(n))
    text = f"{HEAD}  cf.br ^b0\n{blocks}^target(%t: {T}):\n  return %t : {T}\n}}\n"
    return hovered(text, "^target(%t", last=True)


def an_op_with_many_operands(n: int) -> Hovered:
    operands = ", ".join(["%arg0"] * n)
    text = (
        f"func.func @main(%arg0: {T}) -> ({', '.join([T] * n)}) {{\n"
        f"  return {operands} : {', '.join([T] * n)}\n}}\n"
    )
    return hovered(text, "return", into=2)


def a_function_with_many_arguments(n: int) -> Hovered:
    arguments = ", ".join(f"%a{k}: {T}" for k in range(n))
    text = f"func.func @f({arguments}) -> {T} {{\n  return %a{n - 1} : {T}\n}}\n"
    return hovered(text, f"%a{n - 1} :", last=True)


def a_group_of_many_results(n: int) -> Hovered:
    text = (
        f'{HEAD}  %0:{n} = "x.split"(%arg0) : ({T}) -> ({", ".join([T] * n)})\n'
        f"  return %0#{n - 1} : {T}\n}}\n"
    )
    return hovered(text, f"%0#{n - 1}", into=2)


def deeply_nested_brackets(n: int) -> Hovered:
    nested = "[" * n + "1" + "]" * n
    text = f'{HEAD}  %0 = "x.y"(%arg0) {{a = {nested}}} : ({T}) -> {T}\n  return %0 : {T}\n}}\n'
    return hovered(text, "%0 :", last=True)


def an_unclosed_attribute(n: int) -> Hovered:
    text = f'{HEAD}  %0 = "x.y"(%arg0) {{a = {"[1, " * n}\n  return %arg0 : {T}\n}}\n'
    return hovered(text, '"x.y"', into=2)


def a_long_attribute(n: int) -> Hovered:
    text = f'{HEAD}  %0 = "x.y"(%arg0) {{a = "{"`" * n}"}} : ({T}) -> {T}\n  return %0 : {T}\n}}\n'
    return hovered(text, "%0 :", last=True)


SHAPES: dict[str, Callable[[int], Hovered]] = {
    "a value with many uses": a_value_with_many_uses,
    "a label with many predecessors": a_label_with_many_predecessors,
    "an op with many operands": an_op_with_many_operands,
    "a function with many arguments": a_function_with_many_arguments,
    "deeply nested brackets": deeply_nested_brackets,
    "an unclosed attribute": an_unclosed_attribute,
    "a long attribute": a_long_attribute,
}


def answers(shape: Hovered) -> list[str]:
    """The hover asked again and again (an editor asks it as the pointer rests): a run long
    enough to time at a size whose document is quick to build."""
    return [answer(shape) for _ in range(ASKED)]


@pytest.mark.parametrize("shape", SHAPES)
def test_hover_costs_linear_time(shape: str) -> None:
    assert_doubling_linear(SHAPES[shape], answers, 64)


def test_what_is_listed_is_bounded() -> None:
    many = answer(an_op_with_many_operands(100))
    assert many.startswith("`return` · 100 operands, no results\n\n- operands: `%arg0`: ")
    assert many.endswith(", and 84 more")
    label = answer(a_label_with_many_predecessors(40))
    assert label.endswith("`^b15` (`cf.br`, line 34), and 24 more")
    group = answer(a_group_of_many_results(30))
    assert '%0:30 = "x.split"(...) : (tensor<4xf32>) -> (tensor<4xf32>, ' in group
    nested = answer(deeply_nested_brackets(2000))
    assert '%0 = "x.y"(%arg0) {...} : (tensor<4xf32>) -> tensor<4xf32>' in nested
    backticks = answer(a_long_attribute(1000))
    assert '{a = "\\x60\\x60' in backticks and "```mlir\n" in backticks
