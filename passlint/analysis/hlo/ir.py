"""The HLO module as parsed: computations of instructions, each node with its character span
(``span``: start and end offsets; ``HloFile.range`` gives its 0-based line/column range)."""

from __future__ import annotations

from dataclasses import dataclass, field

from passlint.analysis.findings import Range
from passlint.analysis.source import SourceText

Span = tuple[int, int]


@dataclass
class Shape:
    """``f32[2,3]{1,0}``, ``token[]``, ``(f32[2], s32[])``: its text and what it holds."""

    span: Span
    text: str
    element_type: str | None = None  # None for a tuple
    dims: tuple[str, ...] = ()  # as written: ``2``, ``?``, ``<=4``
    elements: tuple[Shape, ...] = ()  # a tuple's element shapes

    @property
    def is_tuple(self) -> bool:
        return self.element_type is None

    @property
    def num_elements(self) -> int | None:
        """The element count of an array shape: 0 when a dimension is 0 (a dynamic one too),
        None for a tuple, a dynamic dimension or a count past ``_MAX_COUNT`` (no array is
        that large: such a dimension is not read as a number)."""
        if self.is_tuple:
            return None
        static = [dim for dim in self.dims if dim.isascii() and dim.isdigit()]
        if any(not dim.strip("0") for dim in static):
            return 0
        if len(static) < len(self.dims):
            return None
        count = 1
        for dim in static:
            if len(dim) > _MAX_DIGITS:
                return None
            count *= int(dim)
            if count > _MAX_COUNT:
                return None
        return count


_MAX_COUNT = 2**64
_MAX_DIGITS = 20


@dataclass
class Operand:
    """One operand of an instruction: the instruction it names (``x.1``, ``%x.1``), with
    the shape older dumps write before it."""

    span: Span  # the name alone
    name: str  # as written (with ``%`` if the text has it)
    shape: Shape | None = None

    @property
    def key(self) -> str:
        """The name without ``%``: how instructions are looked up."""
        return self.name.removeprefix("%")


@dataclass
class Attribute:
    """``name=value`` after the operands; the value is kept as text."""

    span: Span
    name: str
    value: str
    value_span: Span


@dataclass
class Instruction:
    """``[ROOT] name = shape opcode(operands), attributes``."""

    span: Span  # from ``ROOT`` (or the name) to the end of the last attribute
    name: str  # as written
    name_span: Span
    shape: Shape
    opcode: str
    opcode_span: Span
    operands: list[Operand] = field(default_factory=list)
    literal: str | None = None  # the parenthesised text of ``constant(...)``/``parameter(N)``
    attributes: list[Attribute] = field(default_factory=list)
    root_span: Span | None = None  # the ``ROOT`` keyword
    splat: bool | None = None  # a constant read from a proto: its literal is a splat

    @property
    def key(self) -> str:
        return self.name.removeprefix("%")

    @property
    def is_root(self) -> bool:
        return self.root_span is not None


@dataclass
class Computation:
    """``[ENTRY] name [(params) -> shape] { instructions }``."""

    span: Span
    name: str
    name_span: Span
    is_entry: bool
    module: int = 0  # which module of the file (a lit test's ``// -----`` parts), from 0
    instructions: list[Instruction] = field(default_factory=list)
    by_name: dict[str, Instruction] = field(default_factory=dict)  # keyed without ``%``

    @property
    def root(self) -> Instruction | None:
        """The ``ROOT`` instruction, else the last one (as XLA's parser takes it)."""
        for instruction in reversed(self.instructions):
            if instruction.is_root:
                return instruction
        return self.instructions[-1] if self.instructions else None


@dataclass
class SyntaxIssue:
    """Where the text is not HLO, and what to do."""

    span: Span
    message: str


@dataclass
class HloFile:
    """A parsed HLO text: its module header, computations and syntax issues."""

    source: SourceText
    name: str | None = None
    name_span: Span | None = None
    attributes: list[Attribute] = field(default_factory=list)
    computations: list[Computation] = field(default_factory=list)
    issues: list[SyntaxIssue] = field(default_factory=list)

    @property
    def entry(self) -> Computation | None:
        """The first module's entry computation (``entries``)."""
        entries = self.entries()
        return entries[0] if entries else None

    def entries(self) -> list[Computation]:
        """Each module's entry computation, in order: its ``ENTRY`` computation, else its
        last one (as XLA's parser takes them)."""
        found: dict[int, Computation] = {}
        for computation in self.computations:
            known = found.get(computation.module)
            if known is None or not known.is_entry:
                found[computation.module] = computation
        return list(found.values())

    def range(self, span: Span) -> Range:
        """The 0-based line/column range of ``span``."""
        return self.source.range(*span)

    def instruction_names(self) -> set[str]:
        """Every instruction name of the module (without ``%``): HLO names are module-wide."""
        return {key for computation in self.computations for key in computation.by_name}
