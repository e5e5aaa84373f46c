"""Hover text: what TensorizerLegalization does with a returned value (its output slots,
names and case), and what MaterializeValidShapeSymbols sees in a valid_shape symbol (bound
or not, by what, its slots, what every call passes), a kernel or a kernel parameter."""

from __future__ import annotations

import ast
from pathlib import Path

from passlint.analysis.mlir.ir import Operation, OpResult, Value
from passlint.analysis.pl.positions import Positions
from passlint.passes.materialize_valid_shape_symbols import KernelSummary, SiteResult, Symbol
from passlint.passes.materialize_valid_shape_symbols_edits import scalar_annotation
from passlint.passes.tensorizer_legalization import ChunkAnalysis, Output
from passlint.server.models import MlirModel, PlModel
from passlint.server.navigation import function_name_span, word_at

Span = tuple[int, int]


def mlir_hover(model: MlirModel, offset: int) -> tuple[str, Span] | None:
    """Markdown for the returned value or producing op at ``offset``, and the span it covers."""
    index = model.chunk_at(offset)
    if index is None or index.analysis.main is None:
        return None
    occurrence = index.at(offset)
    if occurrence is not None and occurrence.value is not None:
        outputs = outputs_of_value(index.analysis, occurrence.value)
        if outputs:
            return describe(index.analysis, outputs), (occurrence.start, occurrence.end)
    op = index.op_at(offset)
    if op is not None:
        outputs = outputs_of_op(index.analysis, op)
        if outputs:
            return describe(index.analysis, outputs), op.name_span
    return None


def outputs_of_value(analysis: ChunkAnalysis, value: Value) -> list[Output]:
    return [output for output in analysis.outputs if output.value is value]


def outputs_of_op(analysis: ChunkAnalysis, op: Operation) -> list[Output]:
    """Outputs that ``op`` produces or that the pass names on ``op``."""
    return [
        output
        for output in analysis.outputs
        if output.named_op is op or (isinstance(output.value, OpResult) and output.value.op is op)
    ]


def describe(analysis: ChunkAnalysis, outputs: list[Output]) -> str:
    variant = "MHLO" if analysis.variant == "mhlo" else "StableHLO"
    lines = [f"**TensorizerLegalization** ({variant} variant)", ""]
    for output in outputs:
        what = output.case.hover(analysis, output)
        lines.append(f"- output {output.slot} `{output.name}` ({output.case.name}): {what}")
    return "\n".join(lines)


# -- pl -----------------------------------------------------------------------------------------

_PL_TITLE = "**MaterializeValidShapeSymbols**"


def pl_hover(model: PlModel, offset: int) -> tuple[str, Span] | None:
    """Markdown for the valid_shape symbol, kernel name or kernel parameter at ``offset``."""
    analysis = model.analysis
    found = word_at(model.source.text, offset)
    if analysis is None or analysis.module is None or found is None:
        return None
    word, span = found
    symbols = analysis.symbols_at(offset)
    if symbols:
        parts = [describe_symbol(summary, symbol) for summary, symbol in symbols]
        return "\n\n".join([_PL_TITLE, *parts]), span
    positions = Positions(model.source)
    for summary in analysis.kernels:
        kernel = summary.kernel
        if word == kernel.name and function_name_span(positions, kernel) == span:
            return f"{_PL_TITLE}\n\n{describe_kernel(summary)}", span
        for param in kernel.params:
            start = positions.start(param.node)
            if word == param.name and span == (start, start + len(word)):
                return f"{_PL_TITLE}\n\n{describe_param(summary, param.name)}", span
    return None


def describe_symbol(summary: KernelSummary, symbol: Symbol) -> str:
    kernel = summary.kernel.name
    name = f"`{symbol.name}`"
    if symbol.dynamic is not None and symbol.dynamic.symbol != symbol.name:
        name += f' (`pl.dynamic("{symbol.dynamic.symbol}")`)'
    head = f"valid_shape symbol {name} of kernel `{kernel}`: "
    binding = symbol.binding
    if binding is not None and binding.kind == "shape":
        return head + (
            f"**bound** by the physical shape of parameter `{binding.param.name}` "
            f"(dim {binding.dim}); the pass leaves it alone."
        )
    if binding is not None:
        kind = "scalar parameter" if binding.param.kind == "scalar" else "parameter"
        return head + f"**bound** by {kind} `{binding.param.name}`; the pass leaves it alone."
    if not symbol.slots:
        where = ", ".join(_slot_words(s.param.name, s.dim) for s in symbol.compound)
        return head + (
            f"**unbound**, used only inside compound entries ({where}): the pass cannot read "
            "its value from a call site (VS002)."
        )
    slots = ", ".join(_slot_words(s.param.name, s.dim) for s in symbol.slots)
    annotation = scalar_annotation(summary.module)
    lines = [
        head + f"**unbound**; slots: {slots}. The pass adds the leading parameter "
        f"`{symbol.name}: {annotation}` and passes the extent at every call.",
    ]
    index = next((i for i, s in enumerate(summary.unbound) if s is symbol), -1)
    if not summary.calls:
        lines.append("- no call sites")
    for call in summary.calls:
        lines.append(f"- {_call_words(call)}: {_passes(call, index)}")
    return "\n".join(lines)


def describe_kernel(summary: KernelSummary) -> str:
    kernel = summary.kernel
    head = f"{kernel.func_type} kernel `{kernel.name}`"
    if not summary.symbols:
        return head + ": no valid_shape symbols."
    words = []
    for symbol in summary.symbols:
        state = "unbound" if not symbol.bound else "bound"
        if not symbol.bound and not symbol.slots:
            state = "compound only"
        words.append(f"`{symbol.name}` ({state})")
    lines = [head + ": valid_shape symbols " + ", ".join(words) + "."]
    if summary.unbound:
        names = ", ".join(f"`{s.name}`" for s in summary.unbound)
        lines.append(f"The pass adds leading parameters {names}.")
        for call in summary.calls:
            texts = ", ".join(f"`{t}`" for t in call.texts) if call.texts is not None else None
            passes = f"passes {texts}" if texts else "no statically known extents"
            lines.append(f"- {_call_words(call)}: {passes}")
    return "\n".join(lines)


def describe_param(summary: KernelSummary, name: str) -> str:
    kernel = summary.kernel
    param = kernel.param(name)
    assert param is not None
    head = f"parameter `{name}` ({param.kind}, {param.direction}) of kernel `{kernel.name}`"
    words = []
    for symbol in summary.symbols:
        binding = symbol.binding
        if binding is not None and binding.param is param:
            how = f"dim {binding.dim}" if binding.kind == "shape" else "by its value"
            words.append(f"binds `{symbol.name}` ({how})")
        words.extend(
            f"slot of `{symbol.name}` (dim {slot.dim})"
            for slot in symbol.slots
            if slot.param is param
        )
    return head + (": " + "; ".join(words) + "." if words else ".")


def _slot_words(param: str, dim: int) -> str:
    return f"`{param}` dim {dim}"


def _call_words(call: SiteResult) -> str:
    line = call.site.node.lineno
    called = ast.unparse(call.site.node.func)
    if call.site.form != "call" and call.site.node.args:
        called += f"({ast.unparse(call.site.node.args[0])}, ...)"
    return f"{Path(call.module.path).name}:{line} `{called}`"


def _passes(call: SiteResult, index: int) -> str:
    if index < 0 or index >= len(call.extents):
        return "no extent"
    extent = call.extents[index]
    if extent.problem is not None:
        passes = f" (it would pass `{extent.text}`)" if extent.text is not None else ""
        return f"cannot be resolved: {extent.problem}{passes}"
    return f"passes `{extent.text}`"
