"""@main's outputs as the pass sees them, the data every reader of its analysis shares: each
output with its case (``Output``) and each chunk's outputs with what was read to classify
them (``ChunkAnalysis``). ``analysis`` fills them in; ``cases`` holds the table."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeVar, cast

from passlint.analysis.mlir.ir import Attribute, BlockArgument, Chunk, Operation, Use, Value
from passlint.analysis.mlir.types import ShapedType

if TYPE_CHECKING:  # an output's case: the table reads outputs, outputs name their case
    from passlint.passes.tensorizer_legalization.cases import Case

Variant = Literal["mhlo", "stablehlo"]
T = TypeVar("T")


@dataclass
class Output:
    """One operand of @main's return: its slot, name, source and what the pass does."""

    slot: int
    name: str
    use: Use
    type_text: str | None
    case: Case
    value: Value | None
    first_slot: int | None = None  # a value returned again: the slot that returned it first
    named_op: Operation | None = None  # the op whose neuron.symName gets this name
    named_result: int = 0
    copy_name: str | None = None  # fresh SSA name for the copy, when one is inserted
    composite_function: str | None = None  # decomposition name, for composites

    @property
    def shaped(self) -> ShapedType | None:
        value = self.value
        if isinstance(value, BlockArgument) and value.type_text:
            return value.shaped_type
        return self.use.user.shaped_type(self.type_text) if self.type_text else None


@dataclass
class ChunkAnalysis:
    chunk: Chunk
    pipeline: str  # "auto", "mhlo" or "stablehlo": what decides the variant
    main: Operation | None
    ret: Operation | None = None
    outputs: list[Output] = field(default_factory=list)
    output_names: Attribute | None = None
    names: list[str | None] | None = None  # output_names as read (None entries: not strings)
    functions: dict[str, Operation] = field(default_factory=dict)
    known_variant: Variant | None = None  # the variant, once read (or given)
    # What the case table read of the ops outputs return, by reader and op (``read_once``)
    read: dict[tuple[Callable[[Operation], object], int], object] = field(default_factory=dict)

    def read_once(self, reader: Callable[[Operation], T], op: Operation) -> T:
        """``reader(op)``, read once per op: an op returned at many slots was read again
        for each (a multi-megabyte constant, scanned whole to tell whether it is a splat)."""
        key = (reader, id(op))
        if key not in self.read:
            self.read[key] = reader(op)
        return cast(T, self.read[key])

    @property
    def variant(self) -> Variant:
        """The chunk's variant (``variant_of``), read when first asked for: a chunk without
        @main (most test chunks) never needs it, and it walks every op."""
        if self.known_variant is None:
            self.known_variant = variant_of(self.chunk, self.pipeline)
        return self.known_variant

    @property
    def variant_name(self) -> str:
        """The variant as users write it: ``MHLO`` or ``StableHLO``."""
        return "MHLO" if self.variant == "mhlo" else "StableHLO"


def variant_of(chunk: Chunk, pipeline: str, more: Iterable[str] = ()) -> Variant:
    """MHLO when the chunk uses mhlo.* ops and no stablehlo.*, StableHLO otherwise; ``more``:
    the dialects of ops the chunk has beside its IR (the streaming reader's hole lines).

    ``mhlo.copy`` does not count: both variants insert it, so a fixed module keeps its variant.
    """
    if pipeline in ("mhlo", "stablehlo"):
        return pipeline  # type: ignore[return-value]
    dialects = {
        op.dialect for top in chunk.operations for op in top.walk() if op.name != "mhlo.copy"
    }
    dialects.update(more)
    return "mhlo" if "mhlo" in dialects and "stablehlo" not in dialects else "stablehlo"
