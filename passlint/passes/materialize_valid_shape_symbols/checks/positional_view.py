"""VS010: a ``pl.TensorView(...)`` written in a pl function's parameter annotation with
positional arguments, which pypto's parser rejects before MaterializeValidShapeSymbols sees
the program.

pypto's parser reads a parameter's view from the source (``type_resolver.py``,
``_resolve_tensorview``) and raises ``ParserTypeError: pl.TensorView() does not accept
positional arguments`` for any. It does so whether or not Python evaluated the annotation
first (without ``from __future__ import annotations`` Python calls the factory, which takes
positional arguments as stride, layout, valid_shape and pad, and raises itself when that
leaves no layout). A view held in a variable is built by Python and handed to the parser
built, so positional arguments are fine there; return annotations and ``@pl.jit``
functions are not looked at.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from passlint.analysis.findings import Finding, Severity
from passlint.analysis.pl.excerpt import excerpt as q
from passlint.analysis.rules import Rule
from passlint.passes.materialize_valid_shape_symbols.check import Check
from passlint.passes.materialize_valid_shape_symbols.checks.missing_layout import (
    RAISED as LAYOUT_REQUIRED,
)
from passlint.passes.materialize_valid_shape_symbols.checks.missing_layout import is_none
from passlint.passes.materialize_valid_shape_symbols.def_headers import may_hold

if TYPE_CHECKING:
    from passlint.analysis.pl.model import Function, Module, Param, TensorView
    from passlint.analysis.pl.resolve import Resolver

# What pypto's parser raises (``pypto/language/parser/type_resolver.py``).
RAISED = "pl.TensorView() does not accept positional arguments"

TENSOR_VIEW_POSITIONAL_ARGUMENTS = Rule(
    code="VS010",
    name="tensor-view-positional-arguments",
    severity=Severity.ERROR,
    summary="A `pl.TensorView(...)` written in a pl function's parameter annotation passes "
    "positional arguments, which pypto's parser does not accept.",
    why="The parser of pypto reads a parameter's `pl.TensorView` from the source and raises "
    f"`ParserTypeError: {RAISED}` for a positional argument, so no program is built and "
    "MaterializeValidShapeSymbols never runs. It reads the source whether or not Python "
    "evaluated the annotation first; when Python does (no `from __future__ import "
    "annotations`), its factory takes positional arguments as `stride`, `layout`, "
    "`valid_shape` and `pad`, in that order, and raises itself when that gives a stride or a "
    "valid_shape and no layout. A view held in a variable is built by Python, so positional "
    "arguments work there. One finding per call, on its positional arguments; the functions "
    "of `@pl.function` (not `@pl.jit`) are looked at.",
    example="@pl.function(type=pl.FunctionType.InCore)\n"
    "def k(x: pl.Tensor[[16, 128], pl.FP32, "
    "pl.TensorView([16, VALID], pl.TensorLayout.ND)]): ...",
    no_fix="none; name each argument (`valid_shape=[16, VALID], layout=pl.TensorLayout.ND`): "
    "Python would read the first as the stride, which is rarely what a `[16, VALID]` "
    "means, so which one is meant is the author's choice.",
)


def findings(module: Module, resolver: Resolver) -> list[Finding]:
    """Every VS010 of the module: one per inline view with positional arguments."""
    return [
        _positional(module, function, param, param.tensor.view)
        for function in module.functions
        if function.decorated and not function.is_jit
        for param in function.params
        if param.tensor is not None and param.tensor.view is not None
        if param.tensor.view.node.args
    ]


def _positional(module: Module, function: Function, param: Param, view: TensorView) -> Finding:
    pos = module.positions
    args = view.node.args
    start, end = pos.start(args[0]), pos.end(args[-1])
    first = f"The TensorView of '{q(param.name)}' has positional arguments; name each one."
    if len(first) > 100:
        first = "This TensorView has positional arguments; name each one."
    if not module.postponed and _factory_raises(view.node):
        then = (
            f"Python raises `ValueError: {LAYOUT_REQUIRED}` when it defines '{q(function.name)}' "
            "(its factory reads them as stride, layout, valid_shape and pad, in that order, "
            "which leaves no layout); pypto's parser rejects positional arguments too."
        )
    else:
        then = (
            f"pypto's parser raises `ParserTypeError: {RAISED}` when it reads "
            f"'{q(function.name)}', so no program is built; Python's factory would read them "
            "as stride, layout, valid_shape and pad, in that order."
        )
    rule = TENSOR_VIEW_POSITIONAL_ARGUMENTS
    message = f"{first} {then}"
    return Finding(rule.code, rule.severity, module.path, pos.source.range(start, end), message)


def _factory_raises(call: ast.Call) -> bool:
    """Does pypto's factory, called as written, get a stride, valid_shape or pad and no
    layout (positions: stride, layout, valid_shape, pad)?"""
    given = dict(zip(_FACTORY_ORDER, call.args, strict=False))
    given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    present = {name for name, value in given.items() if not is_none(value)}
    return "layout" not in present and bool(present & {"stride", "valid_shape", "pad"})


_FACTORY_ORDER = ("stride", "layout", "valid_shape", "pad")


# ``TensorView(`` followed by something other than ``)``, ``*`` or a keyword's ``NAME=``.
_POSITIONAL = re.compile(r"TensorView\s*\(\s*(?![)*\s]|[^\W\d]\w*\s*=(?!=))")


def may_find(text: str) -> bool:
    """Does the text call ``TensorView`` with what may be a positional argument, where a
    ``def`` header may hold the call?"""
    calls = [match.start() for match in _POSITIONAL.finditer(text)]
    return bool(calls) and may_hold(text, calls)


CHECK = Check(TENSOR_VIEW_POSITIONAL_ARGUMENTS, findings, may_find)
