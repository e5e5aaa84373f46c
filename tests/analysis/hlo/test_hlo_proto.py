"""The HLO proto front end: the wire-format reader (``wire``), the module read from an
``HloProto``/``HloModuleProto`` (``proto``) into the IR of HLO text, its findings (the TL
codes and messages of the same program's text, no position, no fix), and hostile input:
E011 with a byte offset, never an exception, in linear time."""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Iterable
from pathlib import Path

import pytest
from linear_time import assert_doubling_linear

from passlint.analysis.findings import Position, Range, Severity
from passlint.analysis.hlo.ir import HloFile
from passlint.analysis.hlo.parser import parse_hlo
from passlint.analysis.hlo.proto import read_hlo_proto, read_module_proto, read_proto_file
from passlint.analysis.hlo.wire import MAX_DEPTH, Message, WireError, varint
from passlint.config import Settings
from passlint.pipeline import analyze, analyze_hlo_proto

PROTOS = Path(__file__).resolve().parents[2] / "data" / "hlo" / "proto"
PROGRAMS = ("returns_parameter", "returns_constant", "returned_twice", "clean")
NOWHERE = Range(Position(0, 0), Position(0, 0))
MASK = (1 << 64) - 1


# A small encoder, to write the messages a test needs.
def enc(value: int) -> bytes:
    value &= MASK
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def number(field: int, value: int) -> bytes:
    return enc(field << 3) + enc(value)


def run(field: int, payload: bytes) -> bytes:
    return enc(field << 3 | 2) + enc(len(payload)) + payload


def packed(field: int, values: Iterable[int]) -> bytes:
    return run(field, b"".join(enc(value) for value in values))


def shape(element_type: int = 11, dims: Iterable[int] = (), dynamic: Iterable[int] = ()) -> bytes:
    return number(2, element_type) + packed(3, dims) + packed(6, dynamic)


def tuple_shape(*elements: bytes) -> bytes:
    return number(2, 13) + b"".join(run(4, element) for element in elements)


def instruction(
    name: str,
    opcode: str,
    id_: int,
    shape_: bytes,
    operands: Iterable[int] = (),
    parameter: int | None = None,
    literal: bytes | None = None,
) -> bytes:
    data = run(1, name.encode()) + run(2, opcode.encode()) + run(3, shape_) + number(35, id_)
    data += packed(36, operands)
    if parameter is not None:
        data += number(9, parameter)
    if literal is not None:
        data += run(8, literal)
    return data


def computation(name: str, id_: int, root_id: int, *instructions: bytes) -> bytes:
    body = run(1, name.encode()) + number(5, id_) + number(6, root_id)
    return body + b"".join(run(2, i) for i in instructions)


def module(*computations: bytes, entry_id: int | None = None, entry_name: str = "") -> bytes:
    data = run(1, b"m") + b"".join(run(3, c) for c in computations)
    if entry_id is not None:
        data += number(6, entry_id)
    if entry_name:
        data += run(2, entry_name.encode())
    return data


F32_2 = shape(11, [2])


def returning(*instructions: bytes, root_id: int) -> bytes:
    """A module whose one (entry) computation returns ``root_id``."""
    return module(computation("main", 1, root_id, *instructions), entry_id=1)


def codes(data: bytes, path: str = "m.hlo_module.pb") -> list[tuple[str, str]]:
    return [(f.code, f.message) for f in analyze_hlo_proto(path, data, Settings())]


def summary(parsed: HloFile) -> list[tuple[object, ...]]:
    """What the passes read of a module, per instruction (shape text without layout)."""
    rows: list[tuple[object, ...]] = []
    for c in parsed.computations:
        for i in c.instructions:
            text = re.sub(r"\{[^{}]*\}", "", i.shape.text)
            operands = tuple(o.key for o in i.operands)
            literal = i.literal if i.opcode == "parameter" else None
            rows.append((c.name, c.is_entry, i.key, i.opcode, text, operands, literal, i.is_root))
    return rows


# --- the wire format -----------------------------------------------------------------------


def test_varints_of_one_to_ten_bytes() -> None:
    for value in (0, 1, 127, 128, 300, 2**63, MASK):
        data = enc(value)
        assert varint(data, 0, len(data)) == (value, len(data))
    assert len(enc(MASK)) == 10


def test_a_varint_of_eleven_bytes_is_an_error_at_its_offset() -> None:
    data = b"\x08" + b"\xff" * 10 + b"\x01"
    with pytest.raises(WireError) as raised:
        list(Message(data, 0, len(data)).fields())
    assert raised.value.offset == 1 and "longer than 10 bytes" in raised.value.reason


def test_a_ten_byte_varint_past_64_bits_is_an_error() -> None:
    data = b"\xff" * 9 + b"\x02"
    with pytest.raises(WireError, match="larger than 64 bits"):
        varint(data, 0, len(data))


@pytest.mark.parametrize(
    ("data", "offset", "reason"),
    [
        (b"\x0a\x05abc", 0, "a length of 5 bytes runs past the end"),
        (b"\x08", 1, "a varint runs past the end"),
        (b"\x09\x01\x02", 0, "a 8-byte value runs past the end"),
        (b"\x0d\x01", 0, "a 4-byte value runs past the end"),
        (b"\x08\x01\x0b", 2, "is a group (wire type 3)"),
        (b"\x0c", 0, "is a group (wire type 4)"),
        (b"\x0e", 0, "wire type 6 is not"),
        (b"\x00\x01", 0, "field number 0 is out of range"),
    ],
)
def test_malformed_fields(data: bytes, offset: int, reason: str) -> None:
    with pytest.raises(WireError) as raised:
        list(Message(data, 0, len(data)).fields())
    assert raised.value.offset == offset and reason in raised.value.reason


def test_unknown_fields_of_every_wire_type_are_skipped() -> None:
    unknown = number(99, 7) + enc(98 << 3 | 1) + b"\0" * 8 + run(97, b"xyz")
    unknown += enc(96 << 3 | 5) + b"\0" * 4
    data = unknown + run(1, b"m")
    fields = list(Message(data, 0, len(data)).fields())
    assert [f.number for f in fields] == [99, 98, 97, 96, 1]
    inner = computation("main", 1, 5, instruction("p", "parameter", 5, F32_2, parameter=0))
    assert codes(unknown + module(inner + unknown, entry_id=1))[0][0] == "TL001"


# --- the module ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_proto_reads_as_the_text_parses(name: str) -> None:
    text = parse_hlo((PROTOS / f"{name}.hlo").read_text(encoding="utf-8"))
    module_proto = (PROTOS / f"{name}.hlo_module.pb").read_bytes()
    wrapped = (PROTOS / f"{name}.hlo.pb").read_bytes()
    assert summary(read_module_proto(module_proto)) == summary(text)
    assert summary(read_hlo_proto(wrapped)) == summary(text)
    assert summary(read_proto_file("x.hlo.pb", wrapped)) == summary(text)
    # (a bare HloModuleProto saved as .hlo.pb: it has field 2, which HloProto reserves)
    assert summary(read_proto_file("x.hlo.pb", module_proto)) == summary(text)


EXPECTED = {
    "returns_parameter": [
        (
            "TL001",
            "Output 0 ('output0') returns parameter `x.1`; copy it before the ROOT. The "
            "tensorizer needs a distinct, writable buffer per output, so TensorizerLegalization "
            "inserts an identity `mhlo.copy` named 'output0' (a `copy` instruction in HLO).",
        )
    ],
    "returns_constant": [
        (
            "TL002",
            "Output 1 ('output1') returns constant `constant.2`; copy it before the ROOT. "
            "Constants are read-only, so TensorizerLegalization inserts an identity `mhlo.copy` "
            "named 'output1' (not a splat, so stage A leaves it a constant).",
        )
    ],
    "returned_twice": [
        (
            "TL003",
            "Output 1 ('output1') returns `sin.1` again (output 0); copy it for this output. "
            "The second name would overwrite the first in the same `neuron.symName` slot and "
            "both outputs would share one buffer.",
        )
    ],
    "clean": [],
}


@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("suffix", [".hlo.pb", ".hlo_module.pb"])
def test_findings_are_those_of_the_text_without_position_or_fix(name: str, suffix: str) -> None:
    path = str(PROTOS / f"{name}{suffix}")
    findings = analyze_hlo_proto(path, (PROTOS / f"{name}{suffix}").read_bytes())
    assert [(f.code, f.message) for f in findings] == EXPECTED[name]
    for finding in findings:
        assert finding.path == path and finding.range == NOWHERE
        assert finding.fix is None and finding.related == ()
    hlo = PROTOS / f"{name}.hlo"
    text = analyze(str(hlo), hlo.read_text(encoding="utf-8"))
    assert [(f.code, f.message) for f in text] == EXPECTED[name]


def test_settings_select_and_regrade_proto_findings() -> None:
    data = (PROTOS / "returns_parameter.hlo_module.pb").read_bytes()
    assert analyze_hlo_proto("a.hlo_module.pb", data, Settings(ignore=("TL001",))) == []
    graded = analyze_hlo_proto(
        "a.hlo_module.pb", data, Settings(severity={"TL001": Severity.ERROR})
    )
    assert [f.severity.label for f in graded] == ["error"]
    small = analyze_hlo_proto("a.hlo_module.pb", data, Settings(max_file_size=10))
    assert [f.code for f in small] == ["PL001"]


def test_shapes_are_written_as_hlo_text_writes_them() -> None:
    dynamic = shape(11, [4, -(2**63), 3], [1, 1, 0])
    pair = tuple_shape(shape(11, [2]), shape(4), tuple_shape(shape(17), shape(16, [1])))
    parsed = read_module_proto(
        returning(
            instruction("a", "parameter", 1, dynamic, parameter=0),
            instruction("b", "parameter", 2, pair, parameter=1),
            instruction("c", "parameter", 3, shape(1, [0]), parameter=2),
            instruction("d", "parameter", 4, shape(20, [1]), parameter=3),
            instruction("t", "tuple", 5, tuple_shape(), operands=[1, 2, 3, 4]),
            root_id=5,
        )
    )
    texts = [i.shape.text for i in parsed.computations[0].instructions]
    assert texts == [
        "f32[<=4,?,3]",
        "(f32[2], s32[], (token[], bf16[1]))",
        "pred[0]",
        "f8e4m3fn[1]",
        "()",
    ]
    first = parsed.computations[0].instructions[0].shape
    assert first.dims == ("<=4", "?", "3") and first.num_elements is None
    assert [i.literal for i in parsed.computations[0].instructions[:4]] == ["0", "1", "2", "3"]


def test_operands_root_and_entry_are_resolved_by_id() -> None:
    helper = computation("helper", 7, 1, instruction("h", "parameter", 1, F32_2, parameter=0))
    main = computation(
        "main",
        3,
        10,
        instruction("x", "parameter", 10, F32_2, parameter=0),
        instruction("y", "sine", 11, F32_2, operands=[10]),
    )
    parsed = read_module_proto(module(main, helper, entry_id=3))
    assert parsed.entry is not None and parsed.entry.name == "main"
    root = parsed.entry.root
    assert root is not None and root.key == "x"  # (root_id, not the last instruction)
    assert [o.key for o in parsed.entry.instructions[1].operands] == ["x"]
    by_name = read_module_proto(module(helper, main, entry_name="helper"))
    assert by_name.entry is not None and by_name.entry.name == "helper"


def test_an_operand_id_naming_nothing_is_e011() -> None:
    data = returning(instruction("y", "sine", 2, F32_2, operands=[9]), root_id=2)
    [(code, message)] = codes(data)
    assert code == "E011"
    assert "Operand id 9 of instruction 'y' names no instruction of computation 'main'" in message


def _constant(literal: bytes, count: int = 3) -> list[str]:
    data = returning(
        instruction("c", "constant", 1, shape(11, [count]), literal=literal),
        instruction("t", "tuple", 2, tuple_shape(), operands=[1]),
        root_id=2,
    )
    return [code for code, _ in codes(data)]


def test_a_constant_is_a_splat_when_its_literal_elements_are_equal() -> None:
    def f32s(*values: float) -> bytes:
        return run(8, struct.pack(f"<{len(values)}f", *values))

    assert _constant(f32s(2, 2, 2)) == ["TL007"]
    assert _constant(f32s(1, 2, 3)) == ["TL002"]
    assert _constant(f32s(float("nan"), float("nan"), float("nan"))) == ["TL007"]
    assert _constant(f32s(2, 2)) == ["TL002"]  # (fewer elements than the shape holds)
    assert _constant(packed(4, [-1, -1, -1])) == ["TL007"]  # s32s, varints
    assert _constant(packed(4, [-1, 1, -1])) == ["TL002"]
    assert _constant(run(3, b"\x05\x05\x05")) == ["TL007"]  # u8s, bytes
    assert _constant(b"") == ["TL002"]  # (no elements: not known to be a splat)
    assert _constant(f32s(5), count=1) == ["TL007"]  # one element
    assert _constant(f32s(1, 1, 1) + run(3, b"\x01\x01\x01")) == ["TL002"]  # two fields


# --- hostile input -------------------------------------------------------------------------


def _only_e011(data: bytes, path: str = "m.hlo_module.pb") -> str:
    found = codes(data, path)
    assert [code for code, _ in found] == ["E011"], found
    return found[0][1]


def test_a_truncated_file_is_e011_with_the_byte_offset() -> None:
    data = (PROTOS / "truncated.hlo.pb").read_bytes()
    assert _only_e011(data, "t.hlo.pb") == (
        "The HLO proto cannot be read at byte 0; write it again with XLA. "
        "A length of 787 bytes runs past the end of its message."
    )


@pytest.mark.parametrize("name", PROGRAMS)
def test_every_prefix_of_a_real_proto_is_read_or_e011(name: str) -> None:
    data = (PROTOS / f"{name}.hlo_module.pb").read_bytes()
    for end in range(len(data)):
        found = codes(data[:end])
        assert all(
            code in ("E011", "TL001", "TL002", "TL003", "TL006", "TL007") for code, _ in found
        )


def test_empty_and_wrong_messages_are_e011() -> None:
    assert "The module has no computation" in _only_e011(b"")
    assert "No `hlo_module` (field 1)" in _only_e011(b"", "x.hlo.pb")
    assert "Field 1 has wire type 0, expected 2" in _only_e011(number(1, 5), "x.hlo.pb")


def test_a_varint_of_eleven_bytes_in_a_module_is_e011() -> None:
    data = run(1, b"m") + b"\x30" + b"\x80" * 10 + b"\x01"
    assert _only_e011(data).startswith("The HLO proto cannot be read at byte 4;")


def test_a_length_past_the_end_is_e011() -> None:
    data = run(1, b"m") + enc(3 << 3 | 2) + enc(2**40) + b"abc"
    message = _only_e011(data)
    assert "at byte 3;" in message and f"A length of {2**40} bytes" in message


def _nested_shape(depth: int) -> bytes:
    inner = shape(11, [2])
    for _ in range(depth):
        inner = tuple_shape(inner)
    return inner


def test_nesting_is_bounded_without_a_recursion_error() -> None:
    ok = returning(instruction("x", "parameter", 1, _nested_shape(90), parameter=0), root_id=1)
    assert [code for code, _ in codes(ok)] == ["TL001"]
    deep = returning(
        instruction("x", "parameter", 1, _nested_shape(10_000), parameter=0), root_id=1
    )
    assert f"Messages nested more than {MAX_DEPTH} deep" in _only_e011(deep)


def test_random_bytes_are_e011_or_read_never_an_exception() -> None:
    chooser = random.Random(1234)
    real = (PROTOS / "returns_constant.hlo_module.pb").read_bytes()
    for _ in range(300):
        noise = bytes(chooser.randrange(256) for _ in range(chooser.randrange(1, 200)))
        codes(noise)
        codes(noise, "x.hlo.pb")
        flipped = bytearray(real)
        for _ in range(3):
            flipped[chooser.randrange(len(flipped))] = chooser.randrange(256)
        codes(bytes(flipped))


def _wide_module(n: int) -> bytes:
    """``n`` instructions in a chain, each an operand of the next, returned with the input."""
    chain = [instruction("p", "parameter", 1, F32_2, parameter=0)]
    chain += [instruction(f"s{i}", "sine", i, F32_2, operands=[i - 1]) for i in range(2, n + 2)]
    chain.append(instruction("t", "tuple", n + 2, tuple_shape(), operands=[1, n + 1]))
    return returning(*chain, root_id=n + 2)


def test_reading_is_linear_in_the_input() -> None:
    assert_doubling_linear(_wide_module, lambda d: analyze_hlo_proto("m.hlo_module.pb", d), 256)


def test_many_operands_and_unknown_fields_are_linear() -> None:
    def build(n: int) -> bytes:
        first = instruction("p", "parameter", 1, F32_2, parameter=0)
        noise = run(99, b"x" * n) + packed(98, range(n))
        return returning(first + noise, instruction("t", "tuple", 2, F32_2, [1] * n), root_id=2)

    assert_doubling_linear(build, lambda d: analyze_hlo_proto("m.hlo_module.pb", d), 1024)
