"""Hover text: what TensorizerLegalization does with a returned value (its output slots,
names and case), and what MaterializeValidShapeSymbols sees in a valid_shape symbol."""

from __future__ import annotations

from passlint.analysis.mlir.ir import BlockArgument, Operation, OpResult, Value
from passlint.passes.tensorizer_legalization import ChunkAnalysis, Output
from passlint.server.models import MlirModel

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
        lines.append(
            f"- output {output.slot} `{output.name}` ({output.case}): {_what(analysis, output)}"
        )
    return "\n".join(lines)


def _what(analysis: ChunkAnalysis, output: Output) -> str:
    value = output.value
    name = f"'{output.name}'"
    case = output.case
    if case == "input":
        arg = value.name if isinstance(value, BlockArgument) else output.use.name
        return (
            f"returns the input {arg}; the pass inserts `mhlo.copy` of it before the return "
            f"and names the copy {name} (TL001)"
        )
    if case == "zero-sized-input":
        if analysis.variant == "mhlo":
            return (
                "a zero-element input: the MHLO variant leaves it un-copied, so the output "
                "aliases the input (TL006)"
            )
        return (
            "a zero-element input: stage B replaces it with `stablehlo.custom_call "
            f"@AwsNeuronZeroSizedOp`, named {name} (TL006)"
        )
    if case == "constant":
        return f"a constant: the pass copies it with `mhlo.copy` and names the copy {name} (TL002)"
    if case == "splat-constant":
        return (
            "a splat constant: stage A rewrites it into a scalar `stablehlo.constant` and a "
            f"`stablehlo.broadcast_in_dim`, named {name} in place (TL007)"
        )
    if case == "zero-sized":
        return (
            "zero elements: stage B replaces it with `stablehlo.custom_call "
            f"@AwsNeuronZeroSizedOp` carrying `neuron.actual_shape`, named {name} (TL006)"
        )
    if case == "repeated":
        return (
            f"already returned as output {output.first_slot}: the pass would overwrite that "
            f"name; copying it for this slot gives it its own buffer named {name} (TL003)"
        )
    if case == "unresolved":
        return "the returned value is not defined in @main; the pass cannot name it"
    where = _named_where(output)
    if case == "fusion":
        return (
            "a ScheduleFusion `mhlo.fusion`: the pass names the matching operand of the "
            f"region's `mhlo.return`, {where}"
        )
    if case == "composite":
        target = f"@{output.composite_function}" if output.composite_function else "(none)"
        return (
            "a `stablehlo.composite`: the pass names the return value of its decomposition "
            f"{target}, {where}"
        )
    return f"computed here: the pass names it in place, {where}"


def _named_where(output: Output) -> str:
    op = output.named_op
    if op is None:
        return "but finds no op to name"
    return (
        f"writing {output.name!r} into `neuron.symName` slot {output.named_result} of `{op.name}`"
    )
