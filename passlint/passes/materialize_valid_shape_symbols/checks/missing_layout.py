"""VS009: a ``pl.TensorView`` with a valid_shape but no layout, which Python rejects when it
builds the view, before pypto's parser or MaterializeValidShapeSymbols sees the program.

pypto's factory (``pypto/ir/type.py``, ``_TensorViewMeta.__call__``) raises ``ValueError:
layout is required when stride, valid_shape, or pad is provided`` when it is called with a
valid_shape and ``layout`` None. Python calls it for a view written in a device kernel's
parameter annotation when the kernel's ``def`` runs, unless the module postpones its
annotations (``from __future__ import annotations``: pypto's parser then reads the view from
the syntax and gives it layout ND), and for a view held in a variable when the assignment
runs, postponed or not. Views with only a stride or a pad, and views outside device
kernels' parameters, are not looked at (the screen's header test does not let them through).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.findings import Finding, Fix, Severity, TextEdit
from passlint.analysis.pl.excerpt import excerpt as q
from passlint.analysis.pl.walk import names_below
from passlint.analysis.rules import Rule
from passlint.passes.materialize_valid_shape_symbols.check import Check
from passlint.passes.materialize_valid_shape_symbols.preconditions import Precondition

if TYPE_CHECKING:
    from passlint.analysis.pl.model import Function, Module, Param, TensorView
    from passlint.analysis.pl.resolve import Resolver

# What pypto's TensorView factory raises without a layout (``pypto/ir/type.py``).
RAISED = "layout is required when stride, valid_shape, or pad is provided"

TENSOR_VIEW_MISSING_LAYOUT = Rule(
    code="VS009",
    name="tensor-view-missing-layout",
    severity=Severity.ERROR,
    summary="A `pl.TensorView(...)` that a device kernel's parameter reads gives `valid_shape` "
    "but no `layout` (or `layout=None`), and Python builds it: in the kernel's annotation "
    "when its `def` runs, or in the assignment of a TensorView variable.",
    why="The `pl.TensorView` of pypto requires a layout whenever it is given a valid_shape: Python "
    f"raises `ValueError: {RAISED}` when the program is defined, before pypto's parser or "
    "the pass sees it, and no program is built. With `from __future__ import annotations` "
    "an inline view is read by pypto's parser instead, which gives it layout ND, so it is "
    "not reported; a TensorView variable is always built by Python. An inline view whose "
    "arguments read a name Python cannot find there is not built either: Python raises "
    "NameError first (VS006). One finding per "
    "`pl.TensorView` call, on the call (for a variable, its assignment: where Python raises).",
    example="@pl.function(type=pl.FunctionType.InCore)\n"
    "def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, 64])]): ...",
    fixed="@pl.function(type=pl.FunctionType.InCore)\n"
    "def k(x: pl.Tensor[[16, 128], pl.FP32, "
    "pl.TensorView(valid_shape=[16, 64], layout=pl.TensorLayout.ND)]): ...",
    fix="add `layout=pl.TensorLayout.ND` (or replace `layout=None` by it), the layout pypto's "
    "parser gives the same view under postponed annotations; DN or NZ is the author's choice.",
    screened=(Precondition.HEADER,),
)


@dataclass(frozen=True)
class MissingLayout:
    """``param`` of ``kernel`` reads ``view`` (of ``module``), which Python builds without a
    layout; ``via``: the variable holding the view, None for one written inline."""

    kernel: Function
    param: Param
    view: TensorView
    module: Module
    via: str | None


def findings(module: Module, resolver: Resolver) -> list[Finding]:
    """Every VS009 of the module's device kernels, one per ``pl.TensorView`` call (a view
    variable several kernels read is reported once; one of another module, in that one)."""
    found: list[Finding] = []
    seen: set[int] = set()
    for kernel in module.kernels:
        for item in missing_layouts(kernel, module, resolver):
            if item.module is module and id(item.view.node) not in seen:
                seen.add(id(item.view.node))
                found.append(missing_layout(item))
    return found


def missing_layouts(kernel: Function, module: Module, resolver: Resolver) -> list[MissingLayout]:
    """The kernel's parameters whose TensorView Python builds without a layout."""
    found: list[MissingLayout] = []
    for param in kernel.params:
        tensor = param.tensor
        if tensor is None:
            continue
        if tensor.view is not None:
            # postponed: pypto's parser reads it, layout ND; an argument that reads a name
            # unbound where the kernel is defined raises NameError first (VS006 says so)
            view = tensor.view
            if (
                _needs_layout(view)
                and not module.postponed
                and _arguments_evaluate(view, kernel, module, resolver)
            ):
                found.append(MissingLayout(kernel, param, view, module, None))
        elif isinstance(tensor.view_ref, ast.Name):
            name = tensor.view_ref.id
            held = resolver.view_in_definition(name, module, kernel)
            if held is not None:
                found += _lacking(kernel, param, held.view, held.module, name)
    return found


def _arguments_evaluate(
    view: TensorView, kernel: Function, module: Module, resolver: Resolver
) -> bool:
    """Does Python evaluate every argument of the inline view where the kernel is defined
    (every name it reads found there), so that it calls the factory?"""
    return all(
        resolver.python_finds(name.id, module, kernel)
        for keyword in view.node.keywords
        for name in names_below(keyword.value)
    )


def _lacking(
    kernel: Function, param: Param, view: TensorView, module: Module, via: str | None
) -> list[MissingLayout]:
    return [MissingLayout(kernel, param, view, module, via)] if _needs_layout(view) else []


def _needs_layout(view: TensorView) -> bool:
    """Does the call give a valid_shape (other than None) and no layout (or None)? Not
    told for positional arguments (pypto's parser rejects them otherwise) or ``**``."""
    call = view.node
    if call.args or any(k.arg is None for k in call.keywords):
        return False
    given = {k.arg: k.value for k in call.keywords}
    shape, layout = given.get("valid_shape"), given.get("layout")
    return shape is not None and not is_none(shape) and (layout is None or is_none(layout))


def is_none(node: ast.expr) -> bool:
    """Is the argument written as ``None``?"""
    return isinstance(node, ast.Constant) and node.value is None


def layout_text(module: Module) -> str:
    """``pl.TensorLayout.ND`` spelled with the module's own alias of pypto.language."""
    aliases = sorted(local for local, full in module.aliases.items() if full == "pypto.language")
    return f"{aliases[0] if aliases else 'pl'}.TensorLayout.ND"


def missing_layout(item: MissingLayout) -> Finding:
    """The finding on the ``pl.TensorView(...)`` call, with the fix that gives it layout ND."""
    module, call = item.module, item.view.node
    layout = layout_text(module)
    param, kernel = q(item.param.name), q(item.kernel.name)
    first = f"The TensorView of '{param}' has a valid_shape but no layout; add `layout={layout}`."
    if len(first) > 100:
        first = f"This TensorView has a valid_shape but no layout; add `layout={layout}`."
    if item.via is None:
        when = f"when kernel '{kernel}' is defined"
    else:
        when = (
            f"when the TensorView variable '{q(item.via)}' is assigned (read by kernel '{kernel}')"
        )
    message = (
        f"{first} Python raises `ValueError: {RAISED}` {when}, before pypto's parser or "
        "MaterializeValidShapeSymbols sees the program, so no program is built."
    )
    pos = module.positions
    given = next((k for k in call.keywords if k.arg == "layout"), None)
    if given is not None:  # ``layout=None``: replace the None
        edit = TextEdit(module.path, pos.range(given.value), layout)
    else:  # after the last keyword's value
        end = pos.end(call.keywords[-1].value)
        edit = TextEdit(module.path, pos.source.range(end, end), f", layout={layout}")
    fix = Fix(f"Add layout={layout} to the TensorView", (edit,))
    rule = TENSOR_VIEW_MISSING_LAYOUT
    return Finding(rule.code, rule.severity, module.path, pos.range(call), message, (), fix)


CHECK = Check(TENSOR_VIEW_MISSING_LAYOUT, findings)
