"""Hover text (Markdown, or plain text for clients that ask for it): what any .mlir value,
op, ``@symbol`` or ``^label`` is (``mlir_hover``: types, producers, uses, signatures,
predecessors), what TensorizerLegalization does with a returned value (its output slots,
names and case; an output with a diagnostic beside it is not described again), and what
MaterializeValidShapeSymbols sees in a valid_shape symbol (bound or not, by what, its slots,
what every call passes), a kernel or a kernel parameter."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.analysis.pl.excerpt import excerpt
from passlint.analysis.pl.expressions import unparse
from passlint.analysis.pl.positions import Positions
from passlint.passes.materialize_valid_shape_symbols.edits import scalar_annotation
from passlint.passes.materialize_valid_shape_symbols.model import KernelSummary, SiteResult, Symbol
from passlint.server import locations
from passlint.server import mlir_hover as what_is
from passlint.server.lsp_objects import char_offset, span_range
from passlint.server.mlir_index import Hover
from passlint.server.models import PlModel
from passlint.server.names import word_at
from passlint.server.navigation import function_name_span
from passlint.server.quoting import code, escaped, shown
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

Span = tuple[int, int]


async def answer(session: Session, params: types.HoverParams) -> types.Hover | None:
    """The hover at the request's position, in the markup the client shows."""
    uri = params.text_document.uri
    view = await session.mlir_view(uri)
    found: tuple[str, tuple[int, int]] | None = None
    if view is not None:
        offset = char_offset(view.source, params.position)
        source = view.source
        found = mlir_hover(view, offset) or locations.hover(session, uri, view, offset)
    else:
        model = await session.pl_model(uri)
        if model is None:
            return None
        source = model.source
        found = pl_hover(model, char_offset(source, params.position))
    if found is None:
        return None
    text, span = found
    markdown = session.features.markdown
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    if not markdown:
        text = plaintext(text)
    return types.Hover(
        contents=types.MarkupContent(kind=kind, value=text), range=span_range(source, span)
    )


def mlir_hover(view: MlirView, offset: int) -> tuple[str, Span] | None:
    """Markdown for the value, ``@symbol``, ``^label`` or op name at ``offset`` (a current
    offset of the document), and the span it covers: what it is (``mlir_hover``), then, for
    @main's outputs and the ops that produce them, what TensorizerLegalization does (a
    rule between them)."""
    index = view.index
    at = view.to_index(offset)
    if at is None:
        return None
    occurrence = index.occurrence_at(at)
    if occurrence is not None:
        span = view.to_current((index.starts[occurrence], index.ends[occurrence]))
        if span is not None:
            found = index.value_hovers.get(index.entities[occurrence])
            return _sections(what_is.occurrence_section(view, occurrence), found, span)
    op = index.op_at(at)
    if op >= 0:
        name = index.name_span(op)
        span = view.to_current(name)
        if span is not None and name[0] <= at <= name[1]:
            found = index.op_hovers.get(name)
            return _sections(what_is.op_section(view, op), found, span)
    return None


def _sections(what: str | None, outputs: Hover | None, span: Span) -> tuple[str, Span] | None:
    """What a thing is, then what the pass does with it, one below the other."""
    parts = [part for part in (what, describe(outputs) if outputs else None) if part]
    return ("\n\n---\n\n".join(parts), span) if parts else None


def describe(hover: Hover) -> str:
    """What the pass does with the outputs, without repeating a diagnostic shown beside them
    (an output with one shows its name, case and the diagnostic's code only)."""
    lines = [f"**TensorizerLegalization** ({hover.variant} variant)", ""]
    for note in hover.outputs:
        head = f"- output {note.slot} {code(note.name)} ({note.case}"
        if note.reported is not None:
            lines.append(f"{head}, {note.reported})")
        else:
            lines.append(f"{head}): {escaped(note.text)}")
    return "\n".join(lines)


_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|`([^`]*)`")
_FENCE = re.compile(r"^```\w*\n?", re.MULTILINE)  # a code block's opening or closing line


def plaintext(markdown: str) -> str:
    """Hover Markdown as plain text, for clients that asked for it: no ``**``, no backticks
    (a code block's lines stay, its fences go)."""
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), _FENCE.sub("", markdown)).rstrip()


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
            if word == param.name and span[0] == positions.start(param.node):
                return f"{_PL_TITLE}\n\n{describe_param(summary, param.name)}", span
    return None


def describe_symbol(summary: KernelSummary, symbol: Symbol) -> str:
    name = code(symbol.name)
    if symbol.dynamic is not None and symbol.dynamic.symbol != symbol.name:
        written = f'pl.dynamic("{excerpt(symbol.dynamic.symbol)}")'
        name += f" ({code(written, len(written))})"
    head = f"valid_shape symbol {name} of kernel {code(summary.kernel.name)}: "
    binding = symbol.binding
    if binding is not None and binding.kind == "shape":
        return head + (
            f"**bound** by the physical shape of parameter {code(binding.param.name)} "
            f"(dim {binding.dim}); the pass leaves it alone."
        )
    if binding is not None:
        kind = "scalar parameter" if binding.param.kind == "scalar" else "parameter"
        return head + f"**bound** by {kind} {code(binding.param.name)}; the pass leaves it alone."
    if not symbol.slots:
        where = ", ".join(_slot_words(s.param.name, s.dim) for s in symbol.compound)
        return head + (
            f"**unbound**, used only inside compound entries ({where}): the pass cannot read "
            "its value from a call site (VS002)."
        )
    slots = ", ".join(_slot_words(s.param.name, s.dim) for s in symbol.slots)
    added = f"{excerpt(symbol.name)}: {excerpt(scalar_annotation(summary.module))}"
    lines = [
        head + f"**unbound**; slots: {slots}. The pass adds the leading parameter "
        f"{code(added, len(added))} and passes the extent at every call.",
    ]
    index = next((i for i, s in enumerate(summary.unbound) if s is symbol), -1)
    if not summary.calls:
        lines.append("- no call sites")
    for call in summary.calls:
        lines.append(f"- {_call_words(call)}: {_passes(call, index)}")
    return "\n".join(lines)


def describe_kernel(summary: KernelSummary) -> str:
    kernel = summary.kernel
    head = f"{shown(kernel.func_type)} kernel {code(kernel.name)}"
    if not summary.symbols:
        return "\n".join([head + ": no valid_shape symbols.", *_calls(summary)])
    words = []
    for symbol in summary.symbols:
        state = "unbound" if not symbol.bound else "bound"
        if not symbol.bound and not symbol.slots:
            state = "compound only"
        words.append(f"{code(symbol.name)} ({state})")
    lines = [head + ": valid_shape symbols " + ", ".join(words) + "."]
    if summary.unbound:
        names = ", ".join(code(s.name) for s in summary.unbound)
        lines.append(f"The pass adds leading parameters {names}.")
    lines += _calls(summary)
    return "\n".join(lines)


def _calls(summary: KernelSummary) -> list[str]:
    """The kernel's call sites (what each passes, when the pass adds parameters) and its
    uses as a value."""
    lines = []
    for call in summary.calls:
        if not summary.unbound:
            lines.append(f"- {_call_words(call)}")
            continue
        texts = ", ".join(code(t) for t in call.texts) if call.texts is not None else None
        passes = f"passes {texts}" if texts else f"to edit by hand: {escaped(str(call.problem))}"
        lines.append(f"- {_call_words(call)}: {passes}")
    for use in summary.value_uses:
        where = f"{shown(Path(use.module.path).name)}:{use.node.lineno}"
        lines.append(
            f"- {where} {code(use.node.id)} used as a value: calls through it cannot be found"
        )
    if lines:
        lines.insert(0, "Call sites:")
    return lines


def describe_param(summary: KernelSummary, name: str) -> str:
    kernel = summary.kernel
    param = kernel.param(name)
    assert param is not None
    head = f"parameter {code(name)} ({param.kind}, {param.direction}) of kernel {code(kernel.name)}"
    words = []
    for symbol in summary.symbols:
        binding = symbol.binding
        if binding is not None and binding.param is param:
            how = f"dim {binding.dim}" if binding.kind == "shape" else "by its value"
            words.append(f"binds {code(symbol.name)} ({how})")
        words.extend(
            f"slot of {code(symbol.name)} (dim {slot.dim})"
            for slot in symbol.slots
            if slot.param is param
        )
    return head + (": " + "; ".join(words) + "." if words else ".")


def _slot_words(param: str, dim: int) -> str:
    return f"{code(param)} dim {dim}"


def _call_words(call: SiteResult) -> str:
    line = call.site.node.lineno
    called = excerpt(unparse(call.site.node.func))
    if call.site.form != "call" and call.site.node.args:
        called += f"({excerpt(unparse(call.site.node.args[0]))}, ...)"
    return f"{shown(Path(call.module.path).name)}:{line} {code(called, len(called))}"


def _passes(call: SiteResult, index: int) -> str:
    if index < 0 or index >= len(call.extents):
        return "no extent"
    extent = call.extents[index]
    if extent.problem is not None:
        passes = f" (it would pass {code(extent.text)})" if extent.text is not None else ""
        return f"cannot be resolved: {escaped(extent.problem)}{passes}"
    return f"passes {code(extent.text or '')}"
