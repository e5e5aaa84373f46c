"""The outputs of an HLO module's ENTRY computation, classified as the MLIR case table
(``cases``) classifies @main's: jaxlib's HLO-to-StableHLO converter makes the ROOT (each
operand of a ROOT ``tuple``) one operand of ``func.return``, a ``parameter`` a block argument
and a ``constant`` a ``stablehlo.constant``, so the same rule decides each slot, in the same
order: zero elements (TL006), parameter (TL001), constant (TL002, or TL007 for a splat in
the StableHLO variant), one instruction at two slots (TL003), else named in place."""

from __future__ import annotations

from dataclasses import dataclass, field

from passlint.analysis.hlo.ir import Computation, HloFile, Instruction, Operand, Span
from passlint.analysis.hlo.literals import is_splat_constant
from passlint.analysis.rules import Rule
from passlint.passes.tensorizer_legalization.analysis import FreshNames
from passlint.passes.tensorizer_legalization.outputs import Variant
from passlint.passes.tensorizer_legalization.rules import (
    OUTPUT_ALIASES_CONSTANT,
    OUTPUT_ALIASES_INPUT,
    OUTPUT_RETURNED_TWICE,
    SPLAT_OUTPUT_BROADCAST,
    ZERO_SIZED_OUTPUT,
)


@dataclass
class HloOutput:
    """One output slot of the ENTRY computation and the rule it raises (None: named in
    place, or naming no instruction)."""

    slot: int
    operand: Operand | None  # the ROOT tuple's operand; None when the ROOT is the output
    instruction: Instruction | None  # what the slot returns (None: no such instruction)
    rule: Rule | None = None
    case: str = "compute"
    first_slot: int | None = None  # an instruction returned again: its first slot
    copy_name: str | None = None  # the fresh name of the copy a fix inserts (no ``%``)

    @property
    def name(self) -> str:
        """The output's name: ``output{slot}`` (HLO has no ``output_names``)."""
        return f"output{self.slot}"

    @property
    def span(self) -> Span:
        """Where the finding goes: the ROOT tuple's operand, else the ROOT's name."""
        if self.operand is not None:
            return self.operand.span
        assert self.instruction is not None
        return self.instruction.name_span


@dataclass
class HloAnalysis:
    """The ENTRY computation's outputs, in slot order."""

    parsed: HloFile
    variant: Variant
    entry: Computation | None = None
    root: Instruction | None = None
    outputs: list[HloOutput] = field(default_factory=list)

    @property
    def variant_name(self) -> str:
        return "MHLO" if self.variant == "mhlo" else "StableHLO"


def analyze_modules(parsed: HloFile, pipeline: str = "auto") -> list[HloAnalysis]:
    """``analyze_hlo`` of each module's entry computation (a lit test holds several)."""
    return [analyze_hlo(parsed, pipeline, entry) for entry in parsed.entries()]


def analyze_hlo(
    parsed: HloFile, pipeline: str = "auto", entry: Computation | None = None
) -> HloAnalysis:
    """Classify the outputs of ``entry`` (by default the first module's ENTRY computation;
    ``pipeline``: ``mhlo`` reads them as the MHLO variant; otherwise StableHLO, what the
    converter makes)."""
    variant: Variant = "mhlo" if pipeline == "mhlo" else "stablehlo"
    analysis = HloAnalysis(parsed, variant, entry if entry is not None else parsed.entry)
    entry = analysis.entry
    root = entry.root if entry is not None else None
    if entry is None or root is None:
        return analysis
    analysis.root = root
    first_slots: dict[int, int] = {}
    if root.opcode == "tuple":
        for slot, operand in enumerate(root.operands):
            instruction = entry.by_name.get(operand.key)
            analysis.outputs.append(_classify(analysis, slot, operand, instruction, first_slots))
    else:
        analysis.outputs.append(_classify(analysis, 0, None, root, first_slots))
    fresh = FreshNames(parsed.instruction_names())
    for output in analysis.outputs:
        if output.rule in _COPIED and output.instruction is not None:
            output.copy_name = fresh(f"{output.instruction.key}.copy")
    return analysis


_COPIED = (OUTPUT_ALIASES_INPUT, OUTPUT_ALIASES_CONSTANT, OUTPUT_RETURNED_TWICE)


def _classify(
    analysis: HloAnalysis,
    slot: int,
    operand: Operand | None,
    instruction: Instruction | None,
    first_slots: dict[int, int],
) -> HloOutput:
    output = HloOutput(slot, operand, instruction)
    if instruction is None:
        output.case = "unresolved"
        return output
    stablehlo = analysis.variant == "stablehlo"
    zero = instruction.shape.num_elements == 0
    opcode = instruction.opcode
    splat = stablehlo and opcode == "constant" and is_splat_constant(instruction)
    output.first_slot = first_slots.get(id(instruction))
    if opcode == "parameter" and zero:
        output.case, output.rule = "zero-sized-input", ZERO_SIZED_OUTPUT
    elif opcode == "parameter":
        output.case, output.rule = "input", OUTPUT_ALIASES_INPUT
    elif stablehlo and zero:
        output.case, output.rule = "zero-sized", ZERO_SIZED_OUTPUT
    elif opcode == "constant" and not splat:
        output.case, output.rule = "constant", OUTPUT_ALIASES_CONSTANT
    elif output.first_slot is not None:
        output.case, output.rule = "repeated", OUTPUT_RETURNED_TWICE
    elif splat:
        output.case, output.rule = "splat-constant", SPLAT_OUTPUT_BROADCAST
    if output.case in ("zero-sized", "splat-constant", "compute"):  # named in place
        first_slots.setdefault(id(instruction), slot)
    return output
