"""A small reader of the protocol buffer wire format, for files nobody vouches for.

A message is a run of fields, each a key (a varint: field number and wire type) and a value:
a varint (0), 8 bytes (1), a length-delimited run (2) or 4 bytes (5); the group wire types
(3 and 4) are obsolete and rejected. ``fields`` yields each field of a message; a
length-delimited value is given as its place in the input (``start``, ``end``), never
copied, so reading a message costs time linear in its bytes (a nested message is read only
when its reader asks) and memory in proportion to what the caller keeps. Every read is
bounds-checked, a varint has at most 10 bytes, and ``Message.nested`` refuses nesting deeper
than ``MAX_DEPTH``. What is malformed raises ``WireError`` with the byte offset.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

VARINT, FIXED64, LENGTH, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5
MAX_VARINT_BYTES = 10
MAX_DEPTH = 100  # as the protobuf library's default recursion limit
_MAX_FIELD = (1 << 29) - 1
_INT64_SIGN = 1 << 63


class WireError(ValueError):
    """The bytes are not a protocol buffer: ``offset`` is where, ``reason`` what is wrong."""

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(f"byte {offset}: {reason}")
        self.offset = offset
        self.reason = reason


@dataclass(frozen=True)
class Field:
    """One field: its number, wire type, where its key starts, and its value: the number
    for a varint or a fixed-width value, else the place of the bytes (``start``, ``end``)."""

    number: int
    wire_type: int
    offset: int
    value: int = 0
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class Message:
    """A message: the bytes ``data[start:end]``, ``depth`` levels below the outermost."""

    data: bytes
    start: int
    end: int
    depth: int = 0

    def fields(self) -> Iterator[Field]:
        """Each field in order (unknown ones too: the caller skips what it does not read)."""
        at = self.start
        while at < self.end:
            field, at = _field(self.data, at, self.end)
            yield field

    def nested(self, field: Field) -> Message:
        """The message a length-delimited ``field`` holds."""
        expect(field, LENGTH)
        if self.depth + 1 > MAX_DEPTH:
            raise WireError(field.offset, f"messages nested more than {MAX_DEPTH} deep")
        return Message(self.data, field.start, field.end, self.depth + 1)

    def text(self, field: Field) -> str:
        """A ``string`` field's text (undecodable bytes replaced, as they are only shown)."""
        expect(field, LENGTH)
        return self.data[field.start : field.end].decode("utf-8", "replace")

    def integers(self, field: Field) -> Iterator[int]:
        """The values of a repeated integer field: one varint, or a packed run of them."""
        if field.wire_type == VARINT:
            yield field.value
            return
        expect(field, LENGTH)
        at = field.start
        while at < field.end:
            value, at = varint(self.data, at, field.end)
            yield value

    def fixed(self, field: Field, form: str) -> Iterator[tuple[Any, ...]]:
        """The elements of a packed fixed-width field (or a ``bytes`` field of fixed-width
        elements), each unpacked by the ``struct`` format ``form`` (``<f``: one float), read
        in place; a single fixed-width value (not packed) is one element."""
        if field.wire_type in (FIXED32, FIXED64):
            size = 4 if field.wire_type == FIXED32 else 8
            if struct.calcsize(form) != size:
                raise WireError(field.offset, f"field {field.number} has a {size}-byte value")
            yield struct.unpack(form, field.value.to_bytes(size, "little"))
            return
        expect(field, LENGTH)
        if (field.end - field.start) % struct.calcsize(form):
            raise WireError(field.offset, f"field {field.number} has a partial last element")
        yield from struct.iter_unpack(form, memoryview(self.data)[field.start : field.end])


def expect(field: Field, wire_type: int) -> None:
    """Raise ``WireError`` unless ``field`` has ``wire_type``."""
    if field.wire_type != wire_type:
        raise WireError(
            field.offset,
            f"field {field.number} has wire type {field.wire_type}, expected {wire_type}",
        )


def int64(value: int) -> int:
    """A varint read as a signed 64-bit integer (two's complement)."""
    return value - (1 << 64) if value & _INT64_SIGN else value


def varint(data: bytes, at: int, end: int) -> tuple[int, int]:
    """The varint at ``at`` (before ``end``) and the offset after it."""
    value = 0
    for index in range(MAX_VARINT_BYTES):
        if at + index >= end:
            raise WireError(at, "a varint runs past the end of its message")
        byte = data[at + index]
        value |= (byte & 0x7F) << (7 * index)
        if byte < 0x80:
            if value >> 64:
                raise WireError(at, "a varint is larger than 64 bits")
            return value, at + index + 1
    raise WireError(at, f"a varint is longer than {MAX_VARINT_BYTES} bytes")


def _field(data: bytes, at: int, end: int) -> tuple[Field, int]:
    """The field whose key is at ``at`` and the offset after its value."""
    key, after = varint(data, at, end)
    number, wire_type = key >> 3, key & 7
    if not 1 <= number <= _MAX_FIELD:
        raise WireError(at, f"field number {number} is out of range")
    if wire_type == VARINT:
        value, after = varint(data, after, end)
        return Field(number, wire_type, at, value), after
    if wire_type in (FIXED64, FIXED32):
        size = 8 if wire_type == FIXED64 else 4
        if after + size > end:
            raise WireError(at, f"a {size}-byte value runs past the end of its message")
        value = int.from_bytes(data[after : after + size], "little")
        return Field(number, wire_type, at, value), after + size
    if wire_type == LENGTH:
        length, start = varint(data, after, end)
        if length > end - start:
            raise WireError(at, f"a length of {length} bytes runs past the end of its message")
        return Field(number, wire_type, at, start=start, end=start + length), start + length
    if wire_type in (START_GROUP, END_GROUP):
        raise WireError(at, f"field {number} is a group (wire type {wire_type}), not supported")
    raise WireError(at, f"wire type {wire_type} is not a protocol buffer wire type")
