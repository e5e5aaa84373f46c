"""TensorizerLegalization's findings on an HLO module (``hlo_outputs``' classification), in
the words of the MLIR findings, with the copy fix in HLO's own terms: a ``copy`` instruction
inserted before the ROOT (``x.copy = f32[2] copy(x)``) and that ROOT operand rewired to it
(a ROOT that is itself the output becomes a plain instruction and the copy the new ROOT).
A module read from a proto has no text: its findings (``hlo_proto_findings``) say the same
with no position and no fix."""

from __future__ import annotations

from passlint.analysis.findings import (
    Finding,
    Fix,
    Location,
    Position,
    Range,
    Severity,
    TextEdit,
)
from passlint.analysis.hlo.ir import HloFile, Instruction, Span
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.source import line_break, line_end, line_start
from passlint.passes.tensorizer_legalization.cases import SHORT
from passlint.passes.tensorizer_legalization.findings import copy_place
from passlint.passes.tensorizer_legalization.hlo_outputs import HloAnalysis, HloOutput

_COPY = "TensorizerLegalization inserts an identity `mhlo.copy` named"


def hlo_findings(path: str, analysis: HloAnalysis) -> list[Finding]:
    """One finding per output slot whose case raises a rule, with its copy fix."""
    return [
        Finding(
            output.rule.code,
            _severity(analysis, output),
            path,
            analysis.parsed.range(output.span),
            output_message(analysis, output),
            _related(path, analysis, output),
            _fix(path, analysis, output),
        )
        for output in _reported(analysis)
        if output.rule is not None
    ]


def hlo_proto_findings(path: str, analysis: HloAnalysis) -> list[Finding]:
    """The findings of ``hlo_findings`` on a module read from a proto: no text, so each is
    at 0:0, without related locations or a fix (the message names the instruction)."""
    nowhere = Range(Position(0, 0), Position(0, 0))
    return [
        Finding(
            output.rule.code,
            _severity(analysis, output),
            path,
            nowhere,
            output_message(analysis, output),
        )
        for output in _reported(analysis)
        if output.rule is not None
    ]


def _reported(analysis: HloAnalysis) -> list[HloOutput]:
    """The output slots whose case raises a rule."""
    return [o for o in analysis.outputs if o.rule is not None and o.instruction is not None]


def _severity(analysis: HloAnalysis, output: HloOutput) -> Severity:
    assert output.rule is not None
    if output.case == "zero-sized-input" and analysis.variant == "mhlo":
        return Severity.WARNING
    return output.rule.severity


def output_message(analysis: HloAnalysis, output: HloOutput) -> str:
    """What a finding on ``output`` says (its instruction quoted by name)."""
    assert output.instruction is not None
    what = f"Output {output.slot} ('{output.name}')"
    value = f"`{excerpt(output.instruction.name, SHORT)}`"
    case = output.case
    if case == "zero-sized-input" and analysis.variant == "mhlo":
        return (
            f"{what} returns zero-element parameter {value}; copy it to end the alias. The "
            "MHLO variant of TensorizerLegalization leaves a zero-element input un-copied, "
            "so the output still aliases the input."
        )
    if case in ("zero-sized-input", "zero-sized"):
        return (
            f"{what} has zero elements; the pass replaces it, nothing to change. Stage B of "
            "the StableHLO variant makes it a `stablehlo.custom_call @AwsNeuronZeroSizedOp` "
            f"carrying `neuron.actual_shape` ({excerpt(output.instruction.shape.text)})."
        )
    if case == "input":
        return (
            f"{what} returns parameter {value}; copy it before the ROOT. The tensorizer needs "
            f"a distinct, writable buffer per output, so {_COPY} '{output.name}' (a `copy` "
            "instruction in HLO)."
        )
    if case == "constant":
        reason = (
            f"the {analysis.variant_name} variant copies constants, splat or not"
            if analysis.variant == "mhlo"
            else "not a splat, so stage A leaves it a constant"
        )
        return (
            f"{what} returns constant {value}; copy it before the ROOT. Constants are "
            f"read-only, so {_COPY} '{output.name}' ({reason})."
        )
    if case == "repeated":
        return (
            f"{what} returns {value} again (output {output.first_slot}); copy it for this "
            "output. The second name would overwrite the first in the same `neuron.symName` "
            "slot and both outputs would share one buffer."
        )
    return (  # splat-constant
        f"{what} is a splat constant; stage A broadcasts it, nothing to change. The StableHLO "
        f"variant rewrites {value} into a scalar `stablehlo.constant` and a "
        f"`stablehlo.broadcast_in_dim`, which is named '{output.name}' in place (no copy)."
    )


def _related(path: str, analysis: HloAnalysis, output: HloOutput) -> tuple[Location, ...]:
    instruction = output.instruction
    assert instruction is not None
    if output.case == "repeated" and output.first_slot is not None:
        first = analysis.outputs[output.first_slot]
        span, message = first.span, f"first returned as output {output.first_slot}"
    elif output.operand is None:
        return ()  # (the finding is on the instruction itself)
    elif instruction.opcode == "parameter":
        span, message = instruction.name_span, f"input {excerpt(instruction.name)} is defined here"
    elif instruction.opcode == "constant":
        span, message = instruction.name_span, "the constant is defined here"
    else:
        return ()
    return (Location(path, analysis.parsed.range(span), message),)


def _fix(path: str, analysis: HloAnalysis, output: HloOutput) -> Fix | None:
    instruction, root, fresh = output.instruction, analysis.root, output.copy_name
    if instruction is None or root is None or fresh is None:
        return None
    parsed = analysis.parsed
    operand = output.operand
    percent = "%" if (operand.name if operand else instruction.name).startswith("%") else ""
    copy_name = percent + fresh
    shape = operand.shape if operand is not None and operand.shape is not None else None
    source = f"{shape.text} " if shape is not None else ""
    typed = (shape or instruction.shape).text  # ("" when XLA infers it: so does the copy)
    copy = (
        f"{copy_name} = {typed + ' ' if typed else ''}"
        f"copy({source}{operand.name if operand else instruction.name})"
    )
    title = (
        f"Copy {excerpt(instruction.name)} into {excerpt(copy_name)} for output {output.slot} "
        f"('{output.name}')"
    )
    if operand is not None:
        place = copy_place(parsed.source.text, root.span[0])
        inserted = place.before + copy + place.after
        edits = (
            TextEdit(path, parsed.range((place.at, place.at)), inserted),
            TextEdit(path, parsed.range(operand.span), copy_name),
        )
        return Fix(title, edits)
    return Fix(title, _new_root(path, parsed, root, copy))


def _new_root(path: str, parsed: HloFile, root: Instruction, copy: str) -> tuple[TextEdit, ...]:
    """The ROOT that is itself the output: ``ROOT `` dropped (a computation without the
    keyword returns its last instruction), and the copy added as the new ROOT on the next
    line (after a comment that ends the ROOT's line)."""
    text = parsed.source.text
    start = line_start(text, root.span[0])
    prefix = text[start : root.span[0]]
    indent = prefix[: len(prefix) - len(prefix.lstrip())]
    after = root.span[1]
    end = line_end(text, after)
    rest = text[after:end].strip()
    at = end if not rest or rest.startswith("//") else after
    added = TextEdit(path, parsed.range((at, at)), f"{line_break(text, start)}{indent}ROOT {copy}")
    if root.root_span is None:
        return (added,)
    dropped: Span = (root.root_span[0], root.name_span[0])
    return (TextEdit(path, parsed.range(dropped), ""), added)
