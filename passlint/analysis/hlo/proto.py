"""An XLA HLO module read from its protocol buffer into the IR the HLO text parser makes
(``ir.HloFile``), so the passes read it unchanged: a ``*.hlo.pb`` file holds an ``HloProto``
(what ``--xla_dump_hlo_as_proto`` writes: the module in its field 1, ``hlo_module``), a
``*.hlo_module.pb`` file a bare ``HloModuleProto`` (``as_serialized_hlo_module_proto()``).

Only what the findings need is read: the module's name and entry computation, each
computation's name, instructions and ROOT, each instruction's name, opcode, shape, operands
(resolved from their ids within the computation, as XLA does), parameter number, and
whether a constant is a splat (from its literal's elements, compared in place; nothing else
of a literal is decoded). There is no text: every span is ``(0, 0)``. Anything malformed
raises ``wire.WireError`` with the byte offset.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from passlint.analysis.hlo.ir import Computation, HloFile, Instruction, Operand, Shape, Span
from passlint.analysis.hlo.wire import LENGTH, VARINT, Field, Message, WireError, expect, int64
from passlint.analysis.source import SourceText

HLO_PROTO_SUFFIX = ".hlo.pb"  # an HloProto (a ``.hlo_module.pb`` file: an HloModuleProto)
NOWHERE: Span = (0, 0)


class Number:
    """Field numbers, from openxla/xla ``xla/service/hlo.proto`` and ``xla/xla_data.proto``
    (message.field_name = number)."""

    HLO_MODULE = 1  # HloProto.hlo_module
    MODULE_NAME = 1  # HloModuleProto.name
    ENTRY_NAME = 2  # HloModuleProto.entry_computation_name
    COMPUTATIONS = 3  # HloModuleProto.computations
    ENTRY_ID = 6  # HloModuleProto.entry_computation_id
    COMPUTATION_NAME = 1  # HloComputationProto.name
    INSTRUCTIONS = 2  # HloComputationProto.instructions
    COMPUTATION_ID = 5  # HloComputationProto.id
    ROOT_ID = 6  # HloComputationProto.root_id
    INSTRUCTION_NAME = 1  # HloInstructionProto.name
    OPCODE = 2  # HloInstructionProto.opcode
    SHAPE = 3  # HloInstructionProto.shape
    LITERAL = 8  # HloInstructionProto.literal
    PARAMETER_NUMBER = 9  # HloInstructionProto.parameter_number
    INSTRUCTION_ID = 35  # HloInstructionProto.id
    OPERAND_IDS = 36  # HloInstructionProto.operand_ids
    ELEMENT_TYPE = 2  # ShapeProto.element_type (a PrimitiveType)
    DIMENSIONS = 3  # ShapeProto.dimensions
    TUPLE_SHAPES = 4  # ShapeProto.tuple_shapes
    IS_DYNAMIC_DIMENSION = 6  # ShapeProto.is_dynamic_dimension


# PrimitiveType (xla_data.proto) -> the name HLO text writes (``primitive_util``'s lower-case
# enum names); TUPLE (13) is a tuple shape.
TUPLE = 13
ELEMENT_TYPES = {
    0: "invalid", 1: "pred",
    2: "s8", 3: "s16", 4: "s32", 5: "s64", 21: "s4", 26: "s2", 30: "s1",
    6: "u8", 7: "u16", 8: "u32", 9: "u64", 22: "u4", 27: "u2", 31: "u1",
    10: "f16", 11: "f32", 12: "f64", 16: "bf16", 15: "c64", 18: "c128",
    19: "f8e5m2", 20: "f8e4m3fn", 23: "f8e4m3b11fnuz", 24: "f8e5m2fnuz", 25: "f8e4m3fnuz",
    28: "f8e4m3", 29: "f8e3m4", 32: "f4e2m1fn", 33: "f8e8m0fnu",
    14: "opaque", 17: "token", 34: "buffer",
}  # fmt: skip

# LiteralProto's element fields -> the ``struct`` format of one element (None: varints).
# Field numbers from xla_data.proto's LiteralProto: preds 2, s32s 4, s64s 5, u32s 6, u64s 7
# (varints); f32s 8, f64s 9, c64s 12, c128s 18 (packed fixed-width); the rest ``bytes``:
# u8s 3, s8s 15, f16s 11, bf16s 13, u16s 16, s16s 17, and the 8-bit and smaller types
# (f8e5m2s 19, f8e4m3fns 20, s4s 21, u4s 22, f8e4m3b11fnuzs 23, f8e5m2fnuzs 24,
# f8e4m3fnuzs 25, s2s 26, u2s 27, f8e4m3s 28, f8e3m4s 29, s1s 30, u1s 31, f4e2m1fns 32,
# f8e8m0fnus 33), one byte an element.
LITERAL_ELEMENTS: dict[int, str | None] = {
    2: None, 4: None, 5: None, 6: None, 7: None,
    8: "<f", 9: "<d", 12: "<ff", 18: "<dd",
    3: "<B", 15: "<b", 11: "<e", 13: "<H", 16: "<H", 17: "<h",
    **{number: "<B" for number in (19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33)},
}  # fmt: skip
_UNBOUNDED = -(1 << 63)  # a dynamic dimension with no bound: ``?``


@dataclass
class _Read:
    """One instruction as read, before its operand ids are resolved to names."""

    instruction: Instruction
    id: int
    operand_ids: list[int] = field(default_factory=list)
    offset: int = 0  # where its message starts, for errors


def read_proto_file(path: str, data: bytes) -> HloFile:
    """The module of a ``.hlo.pb`` file (an ``HloProto``) or of any other (an
    ``HloModuleProto``)."""
    return read_hlo_proto(data) if path.endswith(HLO_PROTO_SUFFIX) else read_module_proto(data)


def read_hlo_proto(data: bytes) -> HloFile:
    """The module of an ``HloProto``; a bare ``HloModuleProto`` saved under its name is read
    as one (it has an ``entry_computation_name``, field 2, which ``HloProto`` reserves)."""
    top = Message(data, 0, len(data))
    module = None
    for item in top.fields():
        if item.number == Number.ENTRY_NAME:
            return _module(top)
        if item.number == Number.HLO_MODULE:
            module = top.nested(item)
    if module is None:
        raise WireError(0, "no `hlo_module` (field 1): the file is not an HloProto")
    return _module(module)


def read_module_proto(data: bytes) -> HloFile:
    """The module of an ``HloModuleProto``."""
    return _module(Message(data, 0, len(data)))


def _module(message: Message) -> HloFile:
    parsed = HloFile(SourceText(""))
    ids: list[int] = []
    entry_id: int | None = None
    entry_name: str | None = None
    for item in message.fields():
        if item.number == Number.MODULE_NAME:
            parsed.name, parsed.name_span = message.text(item), NOWHERE
        elif item.number == Number.ENTRY_NAME:
            entry_name = message.text(item)
        elif item.number == Number.ENTRY_ID:
            entry_id = _int(item)
        elif item.number == Number.COMPUTATIONS:
            computation, computation_id = _computation(message.nested(item))
            parsed.computations.append(computation)
            ids.append(computation_id)
    if not parsed.computations:
        raise WireError(message.start, "the module has no computation")
    _mark_entry(parsed.computations, ids, entry_id, entry_name)
    return parsed


def _mark_entry(
    computations: list[Computation],
    ids: list[int],
    entry_id: int | None,
    entry_name: str | None,
) -> None:
    """The entry computation: by id (as XLA reads the proto), else by name; if neither
    names one, ``HloFile.entry`` takes the last."""
    by_id = [c for c, i in zip(computations, ids, strict=True) if i == entry_id]  # (None: none)
    by_name = [c for c in computations if c.name == entry_name]
    for found in (by_id, by_name):
        if found:
            found[0].is_entry = True
            return


def _computation(message: Message) -> tuple[Computation, int]:
    computation = Computation(NOWHERE, "", NOWHERE, is_entry=False)
    computation_id, root_id = 0, 0
    reads: list[_Read] = []
    for item in message.fields():
        if item.number == Number.COMPUTATION_NAME:
            computation.name = message.text(item)
        elif item.number == Number.COMPUTATION_ID:
            computation_id = _int(item)
        elif item.number == Number.ROOT_ID:
            root_id = _int(item)
        elif item.number == Number.INSTRUCTIONS:
            reads.append(_instruction(message.nested(item), item.offset))
    _resolve(computation, reads, root_id)
    return computation, computation_id


def _resolve(computation: Computation, reads: list[_Read], root_id: int) -> None:
    """Operand ids to names, the ROOT from ``root_id`` (else the last instruction is)."""
    by_id = {read.id: read.instruction for read in reads}
    for read in reads:
        instruction = read.instruction
        for operand_id in read.operand_ids:
            operand = by_id.get(operand_id)
            if operand is None:
                raise WireError(
                    read.offset,
                    f"operand id {operand_id} of instruction '{instruction.name}' names no "
                    f"instruction of computation '{computation.name}'",
                )
            instruction.operands.append(Operand(NOWHERE, operand.name))
        computation.instructions.append(instruction)
        computation.by_name.setdefault(instruction.key, instruction)
    root = by_id.get(root_id)
    if root is not None:
        root.root_span = NOWHERE


def _instruction(message: Message, offset: int) -> _Read:
    instruction = Instruction(NOWHERE, "", NOWHERE, Shape(NOWHERE, ""), "", NOWHERE)
    read = _Read(instruction, 0, offset=offset)
    literal: Message | None = None
    for item in message.fields():
        if item.number == Number.INSTRUCTION_NAME:
            instruction.name = message.text(item)
        elif item.number == Number.OPCODE:
            instruction.opcode = message.text(item)
        elif item.number == Number.SHAPE:
            instruction.shape = _shape(message.nested(item))
        elif item.number == Number.PARAMETER_NUMBER:
            instruction.literal = str(_int(item))  # as ``parameter(N)`` holds it
        elif item.number == Number.INSTRUCTION_ID:
            read.id = _int(item)
        elif item.number == Number.OPERAND_IDS:
            read.operand_ids.extend(int64(value) for value in message.integers(item))
        elif item.number == Number.LITERAL:
            literal = message.nested(item)
    if instruction.opcode == "parameter" and instruction.literal is None:
        instruction.literal = "0"  # (proto3 leaves a 0 out)
    if instruction.opcode == "constant":
        instruction.literal = None
        count = instruction.shape.num_elements
        instruction.splat = literal is not None and count != 1 and is_splat(literal, count)
    return read


def _int(item: Field) -> int:
    expect(item, VARINT)
    return int64(item.value)


def _shape(message: Message) -> Shape:
    """A ``ShapeProto`` with its HLO text (no layout): ``f32[2,<=3]``, ``(f32[2], s32[])``."""
    element_type = 0
    dims: list[int] = []
    dynamic: list[bool] = []
    elements: list[Shape] = []
    for item in message.fields():
        if item.number == Number.ELEMENT_TYPE:
            element_type = _int(item)
        elif item.number == Number.DIMENSIONS:
            dims.extend(int64(value) for value in message.integers(item))
        elif item.number == Number.IS_DYNAMIC_DIMENSION:
            dynamic.extend(bool(value) for value in message.integers(item))
        elif item.number == Number.TUPLE_SHAPES:
            elements.append(_shape(message.nested(item)))
    if element_type == TUPLE:
        text = "(" + ", ".join(element.text for element in elements) + ")"
        return Shape(NOWHERE, text, None, (), tuple(elements))
    name = ELEMENT_TYPES.get(element_type, f"type{element_type}")
    written = tuple(
        _dimension(size, index < len(dynamic) and dynamic[index]) for index, size in enumerate(dims)
    )
    return Shape(NOWHERE, f"{name}[{','.join(written)}]", name, written)


def _dimension(size: int, dynamic: bool) -> str:
    if not dynamic:
        return str(size)
    return "?" if size == _UNBOUNDED else f"<={size}"


def is_splat(literal: Message, count: int | None) -> bool:
    """Whether a ``LiteralProto``'s elements are all equal (and there are ``count`` of them,
    when it is known), as ``literals.is_splat_constant`` reads a constant's text: numbers by
    value, every NaN alike. A literal whose elements are in two fields (not XLA's) is not."""
    values: Iterator[object] | None = None
    for item in literal.fields():
        if item.number not in LITERAL_ELEMENTS:
            continue  # (the shape, a tuple's elements, sparse indices)
        if values is not None:
            return False
        values = _elements(literal, item)
    if values is None:
        return False
    first = next(values, None)
    if first is None:
        return False
    seen = 1
    for value in values:
        if value != first:
            return False
        seen += 1
    return count is None or seen == count


def _elements(literal: Message, item: Field) -> Iterator[object]:
    form = LITERAL_ELEMENTS[item.number]
    if form is None:
        if item.wire_type not in (VARINT, LENGTH):
            expect(item, LENGTH)
        return iter(literal.integers(item))
    return (tuple(_same_nan(x) for x in element) for element in literal.fixed(item, form))


def _same_nan(value: object) -> object:
    return "nan" if isinstance(value, float) and math.isnan(value) else value
