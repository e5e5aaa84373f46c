"""The cases of a returned value, one object each, in the order they are
tried: what the pass does with it, the finding passlint reports (its severity comes from the
rule it raises), whether a copy fix exists, the hover sentence, where the inlay hint goes, what
apply mode writes, and whether @main's outline alone (the quick path) can settle it. The
rules the cases raise (TL001-TL003, TL006, TL007, TL009) are declared in ``rules``.

A new case is one entry of ``CASES``; a new rule, its ``Rule`` in ``rules`` and the case
naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal

from passlint.analysis.findings import Severity
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.ir import BlockArgument, Operation, OpResult, Use
from passlint.analysis.mlir.known_ops import (
    composite_decomposition,
    fusion_kind,
    is_resource_constant,
    is_splat_constant,
)
from passlint.analysis.mlir.op_table import CONSTANT_OPS, TERMINATORS
from passlint.analysis.rules import Rule
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, Output
from passlint.passes.tensorizer_legalization.rules import (
    COMPOSITE_DECOMPOSITION_MISSING,
    OUTPUT_ALIASES_CONSTANT,
    OUTPUT_ALIASES_INPUT,
    OUTPUT_RETURNED_TWICE,
    SPLAT_OUTPUT_BROADCAST,
    ZERO_SIZED_OUTPUT,
)

# The attribute that makes a composite one the pass names inside (the pass reads both
# spellings, as it does `FusionKind`/`fusion_kind`).
COMPOSITE_KINDS = ("CompositeKind", "composite_kind")

Inlay = Literal["argument", "use", "definition", "named"]  # where the hint goes
Apply = Literal["copy", "name", "zero-sized-call", "none"]  # what apply mode writes
Text = Callable[[ChunkAnalysis, Output], str]
Related = Callable[[ChunkAnalysis, Output], tuple[tuple[int, int], str] | None]


@dataclass(frozen=True)
class Case:
    """One way the pass treats a returned value."""

    name: str
    matches: Callable[[ChunkAnalysis, Output], bool]  # the classification test
    hover: Text  # what the pass does, one Markdown sentence
    rule: Rule | None = None  # the rule a returned value of this case raises
    message: Text | None = None  # the finding's message (first sentence: what to do)
    related: Related | None = None  # the finding's related place
    severity: Severity | None = None  # when it differs from the rule's default
    copies: bool = False  # passlint's fix copies it (a fresh name, a copy fix)
    apply: Apply = "none"  # what the pass writes (`passlint legalize`)
    inlay: Inlay | None = None
    quick: bool = True  # @main's outline settles it (no other function needed)

    @property
    def code(self) -> str | None:
        """The code of the rule this case raises, if any."""
        return self.rule.code if self.rule is not None else None

    @property
    def finding_severity(self) -> Severity:
        assert self.rule is not None
        return self.severity or self.rule.severity

    def inlay_place(self, output: Output) -> tuple[int, str] | None:
        """Where the inlay hint of ``output`` goes and its label, or None."""
        label = f"copy '{_name(output)}'" if self.apply == "copy" else f"'{_name(output)}'"
        value = output.value
        if self.inlay == "argument" and isinstance(value, BlockArgument):
            end = value.type_span[1] if value.type_span is not None else value.span[1]
            return end, label
        if self.inlay == "use":
            return output.use.span[1], label
        if self.inlay == "definition" and isinstance(value, OpResult) and value.op is not None:
            return value.op.header_span[1], label
        if self.inlay == "named" and output.named_op is not None:
            return output.named_op.header_span[1], label
        return None


# -- the words of findings and hover ---------------------------------------------------------


SHORT = 16  # characters of a name quoted in a message's first sentence, at most


def _output(output: Output) -> str:
    return f"Output {output.slot} ('{excerpt(output.name, SHORT)}')"


def _value(output: Output) -> str:
    value = output.value
    return f"`{excerpt(value.name if value is not None else output.use.name, SHORT)}`"


def _name(output: Output) -> str:
    """The output's name, quoted."""
    return excerpt(output.name)


def _decomposition(output: Output) -> str:
    function = output.composite_function
    return "@" + excerpt(function, SHORT) if function else "(none)"


def _type(output: Output) -> str:
    return excerpt(output.type_text or "")


def _defined_at(what: str) -> Related:
    def related(analysis: ChunkAnalysis, output: Output) -> tuple[tuple[int, int], str] | None:
        value = output.value
        if isinstance(value, BlockArgument):
            return value.span, f"input {excerpt(value.name)} is defined here"
        if isinstance(value, OpResult) and value.op is not None:
            return value.op.header_span, what
        return None

    return related


def _named_where(output: Output) -> str:
    op = output.named_op
    if op is None:
        return "but finds no op to name"
    slot = output.named_result
    return f"writing '{_name(output)}' into `neuron.symName` slot {slot} of `{excerpt(op.name)}`"


def _constant_reason(analysis: ChunkAnalysis, output: Output) -> str:
    value = output.value
    assert isinstance(value, OpResult) and value.op is not None
    op = value.op
    if op.name == "mhlo.constant" or analysis.variant == "mhlo":
        return f"the {analysis.variant_name} variant copies constants, splat or not"
    if analysis.read_once(is_resource_constant, op):
        return "a resource blob is not a splat for stage A"
    return "not a splat, so stage A leaves it a constant"


# -- classification tests ----------------------------------------------------------------------


def _argument(zero: bool | None, variant: str | None = None) -> Callable[..., bool]:
    def matches(analysis: ChunkAnalysis, output: Output) -> bool:
        if not isinstance(output.value, BlockArgument):
            return False
        if zero is not None and _zero(output) != zero:
            return False
        return variant is None or analysis.variant == variant

    return matches


def _zero(output: Output) -> bool:
    shaped = output.shaped
    return shaped is not None and shaped.num_elements == 0


def _op(output: Output) -> Operation | None:
    value = output.value
    return value.op if isinstance(value, OpResult) else None


def _op_named(output: Output, names: Collection[str]) -> bool:
    op = _op(output)
    return op is not None and op.name in names


def _schedule_fusion(analysis: ChunkAnalysis, output: Output) -> bool:
    op = _op(output)
    if op is None or op.name != "mhlo.fusion":
        return False
    return analysis.read_once(fusion_kind, op) == "ScheduleFusion"


def _splat(analysis: ChunkAnalysis, output: Output) -> bool:
    op = _op(output)
    return (
        analysis.variant == "stablehlo"
        and op is not None
        and op.name == "stablehlo.constant"
        and analysis.read_once(is_splat_constant, op)
    )


def _kind_composite(output: Output) -> bool:
    """A `stablehlo.composite` carrying Neuron's ``CompositeKind`` (or ``composite_kind``):
    the only composite the pass names inside its decomposition (jax's composites have none:
    named in place)."""
    op = _op(output)
    return (
        op is not None
        and op.name == "stablehlo.composite"
        and any(op.attribute(key) is not None for key in COMPOSITE_KINDS)
    )


def _composite_missing(analysis: ChunkAnalysis, output: Output) -> bool:
    op = _op(output)
    if op is None or not _kind_composite(output):
        return False
    return (analysis.read_once(composite_decomposition, op) or "") not in analysis.functions


def _composite_location(analysis: ChunkAnalysis, output: Output) -> tuple[tuple[int, int], str]:
    return output.use.span, f"returned as output {output.slot}"


# -- the table ---------------------------------------------------------------------------------

CASES: tuple[Case, ...] = (
    Case(
        "unresolved",
        lambda analysis, output: output.value is None,
        lambda analysis, output: (
            "the returned value is not defined in @main; the pass cannot name it"
        ),
        quick=False,
    ),
    Case(
        "zero-sized-input",
        _argument(zero=True, variant="mhlo"),
        lambda analysis, output: (
            "a zero-element input: the MHLO variant leaves it un-copied, "
            "so the output aliases the input (TL006)"
        ),
        rule=ZERO_SIZED_OUTPUT,
        message=lambda analysis, output: (
            f"{_output(output)} returns zero-element input {_value(output)}; copy it to end "
            "the alias. The MHLO variant of TensorizerLegalization leaves a zero-element "
            "input un-copied, so the output still aliases the input."
        ),
        related=_defined_at("the input"),
        severity=Severity.WARNING,
        inlay="argument",
    ),
    Case(
        "zero-sized-input",
        _argument(zero=True, variant="stablehlo"),
        lambda analysis, output: (
            "a zero-element input: stage B replaces it with "
            f"`stablehlo.custom_call @AwsNeuronZeroSizedOp`, named '{_name(output)}' (TL006)"
        ),
        rule=ZERO_SIZED_OUTPUT,
        message=lambda analysis, output: (
            f"{_output(output)} has zero elements; the pass replaces it, nothing to change. "
            "Stage B of the StableHLO variant makes it a `stablehlo.custom_call "
            f"@AwsNeuronZeroSizedOp` carrying `neuron.actual_shape` ({_type(output)})."
        ),
        apply="zero-sized-call",
        inlay="argument",
    ),
    Case(
        "input",
        _argument(zero=None),
        lambda analysis, output: (
            f"returns the input {_value(output)}; the pass inserts "
            f"`mhlo.copy` of it before the return and names the copy '{_name(output)}' (TL001)"
        ),
        rule=OUTPUT_ALIASES_INPUT,
        message=lambda analysis, output: (
            f"{_output(output)} returns input {_value(output)}; copy it before the return. "
            "The tensorizer needs a distinct, writable buffer per output, so "
            f"TensorizerLegalization inserts an identity `mhlo.copy` named '{_name(output)}'."
        ),
        related=_defined_at("the input"),
        copies=True,
        apply="copy",
        inlay="argument",
    ),
    Case(
        "zero-sized",
        lambda analysis, output: analysis.variant == "stablehlo" and _zero(output),
        lambda analysis, output: (
            "zero elements: stage B replaces it with `stablehlo.custom_call "
            "@AwsNeuronZeroSizedOp` carrying `neuron.actual_shape`, named "
            f"'{_name(output)}' (TL006)"
        ),
        rule=ZERO_SIZED_OUTPUT,
        message=lambda analysis, output: (
            f"{_output(output)} has zero elements; the pass replaces it, nothing to change. "
            "Stage B of the StableHLO variant makes it a `stablehlo.custom_call "
            f"@AwsNeuronZeroSizedOp` carrying `neuron.actual_shape` ({_type(output)})."
        ),
        apply="name",
        inlay="named",
    ),
    Case(
        "constant",
        lambda analysis, output: _op_named(output, CONSTANT_OPS) and not _splat(analysis, output),
        lambda analysis, output: (
            "a constant: the pass copies it with `mhlo.copy` and names the "
            f"copy '{_name(output)}' (TL002)"
        ),
        rule=OUTPUT_ALIASES_CONSTANT,
        message=lambda analysis, output: (
            f"{_output(output)} returns constant {_value(output)}; copy it before the return. "
            "Constants are read-only, so TensorizerLegalization inserts an identity "
            f"`mhlo.copy` named '{_name(output)}' ({_constant_reason(analysis, output)})."
        ),
        related=_defined_at("the constant is defined here"),
        copies=True,
        apply="copy",
        inlay="definition",
    ),
    Case(
        "repeated",
        lambda analysis, output: output.first_slot is not None,
        lambda analysis, output: (
            f"already returned as output {output.first_slot}: the pass names it again, "
            f"{_named_where(output)} over the name of output {output.first_slot}; both outputs "
            "share one buffer (TL003)"
        ),
        rule=OUTPUT_RETURNED_TWICE,
        message=lambda analysis, output: (
            f"{_output(output)} returns {_value(output)} again (output {output.first_slot}); "
            "copy it for this output. The second name would overwrite the first in the same "
            "`neuron.symName` slot and both outputs would share one buffer."
        ),
        related=lambda analysis, output: (
            analysis.outputs[output.first_slot or 0].use.span,
            f"first returned as output {output.first_slot}",
        ),
        copies=True,
        apply="name",
        inlay="use",
    ),
    Case(
        "splat-constant",
        _splat,
        lambda analysis, output: (
            "a splat constant: stage A rewrites it into a scalar "
            "`stablehlo.constant` and a `stablehlo.broadcast_in_dim`, named "
            f"'{_name(output)}' in place (TL007)"
        ),
        rule=SPLAT_OUTPUT_BROADCAST,
        message=lambda analysis, output: (
            f"{_output(output)} is a splat constant; stage A broadcasts it, nothing to change. "
            f"The StableHLO variant rewrites {_value(output)} into a scalar "
            "`stablehlo.constant` and a `stablehlo.broadcast_in_dim`, which is named "
            f"'{_name(output)}' in place (no copy)."
        ),
        related=_defined_at("the splat constant"),
        apply="name",
        inlay="named",
    ),
    Case(
        "fusion",
        _schedule_fusion,
        lambda analysis, output: (
            "a ScheduleFusion `mhlo.fusion`: the pass names the matching "
            f"operand of the region's `mhlo.return`, {_named_where(output)}"
        ),
        apply="name",
        inlay="named",
    ),
    Case(
        "composite",
        _composite_missing,
        lambda analysis, output: (
            "a `stablehlo.composite` with `CompositeKind` whose decomposition "
            f"@{excerpt(output.composite_function or '')} is missing: the pass fails (TL009)"
        ),
        rule=COMPOSITE_DECOMPOSITION_MISSING,
        message=lambda analysis, output: (
            f"{_output(output)} needs decomposition {_decomposition(output)}, "
            "which is missing; add the function. TensorizerLegalization names the output "
            "inside the composite's decomposition and fails without it."
        ),
        related=_composite_location,
        quick=False,
    ),
    Case(
        "composite",
        lambda analysis, output: _kind_composite(output),
        lambda analysis, output: (
            "a `stablehlo.composite` with `CompositeKind`: the pass names the return value of "
            f"its decomposition @{excerpt(output.composite_function or '')}, {_named_where(output)}"
        ),
        apply="name",
        inlay="named",
        quick=False,
    ),
    Case(
        "compute",
        lambda analysis, output: True,
        lambda analysis, output: (
            f"computed here: the pass names it in place, {_named_where(output)}"
        ),
        apply="name",
        inlay="named",
    ),
)


def classify(
    analysis: ChunkAnalysis,
    slot: int,
    name: str,
    use: Use,
    type_text: str | None,
    first_slots: dict[int, int],
) -> Output:
    """The output at ``slot`` with its case (the first that matches) and the op to name.

    ``first_slots`` maps each value named in place so far to its slot: a value returned
    again is a repeat (constants and zero-element values are matched before that)."""
    value = use.value
    output = Output(slot, name, use, type_text, CASES[-1], value)
    if value is not None:
        output.first_slot = first_slots.get(id(value))
    output.case = next(case for case in CASES if case.matches(analysis, output))
    op = _op(output)
    if output.case.name == "repeated":  # named again where its first slot was named
        first = analysis.outputs[output.first_slot or 0]
        output.named_op, output.named_result = first.named_op, first.named_result
        output.composite_function = first.composite_function
        return output
    if output.case.apply == "name" and op is not None and isinstance(value, OpResult):
        output.named_op, output.named_result = op, value.index
        first_slots.setdefault(id(value), slot)
        if output.case.name == "fusion":
            inner = _region_result(op, value.index)
            output.named_op, output.named_result = inner or (op, value.index)
    if op is not None and _kind_composite(output) and isinstance(value, OpResult):
        output.composite_function = analysis.read_once(composite_decomposition, op)
        function = analysis.functions.get(output.composite_function or "")
        inner = _region_result(function, value.index) if function is not None else None
        if inner is not None and output.case.apply == "name":
            output.named_op, output.named_result = inner
    return output


def _region_result(op: Operation, index: int) -> tuple[Operation, int] | None:
    """The op (and result index) producing operand ``index`` of the terminator of ``op``'s
    first region: where the pass names a fusion's or a composite's output."""
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[-1]
    if not block.operations or block.operations[-1].name not in TERMINATORS:
        return None
    terminator = block.operations[-1]
    if index >= len(terminator.operands):
        return None
    inner = terminator.operands[index].value
    if isinstance(inner, OpResult) and inner.op is not None:
        return inner.op, inner.index
    return None
