"""LSP's base protocol cut from a byte stream whatever it holds (``framing.Framer``): every
malformed header is skipped with one reason and the next message is found, however the
stream is split into reads; nothing is allocated ahead of the bytes that arrive."""

from __future__ import annotations

import random
import tracemalloc

import pytest
from linear_time import assert_doubling_linear

from passlint.server.framing import MAX_BODY, MAX_HEADER_LINE, Framer, Skipped


def message(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def cut(stream: bytes, sizes: list[int]) -> list[bytes | str]:
    """What a Framer makes of ``stream`` read in pieces of ``sizes`` (cycled)."""
    framer, out, at, turn = Framer(), [], 0, 0
    while at < len(stream):
        size = sizes[turn % len(sizes)]
        out += framer.feed(stream[at : at + size])
        at, turn = at + size, turn + 1
    out += framer.finish()
    return [item.reason if isinstance(item, Skipped) else item for item in out]


SPLITS = [[1], [7], [2, 13, 1], [4096], [1 << 20]]

CASES = [
    (
        "absurd length",
        b"Content-Length: 1000000000000\r\n\r\n",
        [f"Content-Length 1000000000000 is more than {MAX_BODY} bytes; skipped"],
    ),
    (
        "just above the limit",
        b"Content-Length: %d\r\n\r\n" % (MAX_BODY + 1),
        [f"Content-Length {MAX_BODY + 1} is more than {MAX_BODY} bytes; skipped"],
    ),
    (
        "negative length",
        b"Content-Length: -5\r\n\r\n",
        ["Content-Length '-5' is not a byte count; skipped"],
    ),
    (
        "not a number",
        b"Content-Length: twelve\r\n\r\n{}",
        [
            "Content-Length 'twelve' is not a byte count; skipped",
            "2 bytes that are no message header; skipped",
        ],
    ),
    (
        "no length",
        b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}",
        [
            "a message without Content-Length; skipped",
            "2 bytes that are no message header; skipped",
        ],
    ),
    ("garbage line", b"\x00\xffgarbage\r\n", ["11 bytes that are no message header; skipped"]),
    (
        "garbage glued to a header",
        b"\x1b[31mnoise",
        ["10 bytes that are no message header; skipped"],
    ),
    (
        "a line that never ends",
        b"x" * (3 * MAX_HEADER_LINE),
        [f"{3 * MAX_HEADER_LINE} bytes that are no message header; skipped"],
    ),
    (
        "a body without header",
        b'{"jsonrpc": "2.0", "method": "exit"}\r\n',
        ["38 bytes that are no message header; skipped"],
    ),
    ("an empty body", b"Content-Length: 0\r\n\r\n", [b""]),
]


@pytest.mark.parametrize("sizes", SPLITS, ids=str)
@pytest.mark.parametrize(("name", "bad", "reported"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_header_costs_only_itself(
    name: str, bad: bytes, reported: list[bytes | str], sizes: list[int]
) -> None:
    stream = message(b'{"before": 1}') + bad + message(b'{"after": 2}')
    assert cut(stream, sizes) == [b'{"before": 1}', *reported, b'{"after": 2}']


def test_headers_as_clients_write_them() -> None:
    body = b'{"jsonrpc":"2.0"}'
    variants = [
        b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
        b"Content-Type: application/vscode-jsonrpc\r\nContent-Length: %d\r\n\r\n",
        b"content-length:%d\n\n",  # lower case, no blank, bare line feeds
        b"\r\nContent-Length:  %d \r\n\r\n",  # a blank line before, blanks around the value
    ]
    for header in variants:
        assert cut(header % len(body) + body, [1]) == [body]
        assert cut(header % len(body) + body, [1 << 16]) == [body]


def test_random_splits_give_the_same_messages() -> None:
    parts = [message(b'{"n": %d}' % n) for n in range(50)]
    parts[10:10] = [b"junk\r\n", b"Content-Length: -1\r\n\r\n"]
    parts[30:30] = [b"Content-Length: 99999999999999999999999\r\n\r\n", b"\xff" * 20000]
    stream = b"".join(parts)
    whole = cut(stream, [len(stream)])
    assert [m for m in whole if isinstance(m, bytes | bytearray)] == [
        b'{"n": %d}' % n for n in range(50)
    ]
    chance = random.Random(25)
    for _ in range(20):
        sizes = [chance.randint(1, 300) for _ in range(64)]
        assert cut(stream, sizes) == whole


def test_a_large_declared_length_allocates_only_what_arrives() -> None:
    framer = Framer()
    tracemalloc.start()
    try:
        assert framer.feed(b"Content-Length: %d\r\n\r\n" % MAX_BODY) == []
        for _ in range(16):
            assert framer.feed(b"x" * 65536) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert framer.body_remaining == MAX_BODY - 16 * 65536
    assert peak < 8 << 20  # the 1 MiB that came (and its copies), not the 2 GiB declared
    assert framer.finish() == [
        Skipped(f"the stream ended {MAX_BODY - 16 * 65536} bytes before a body did")
    ]


def cut_in_chunks(stream: bytes, chunk: int) -> None:
    """Cut ``stream`` into messages, read ``chunk`` bytes at a time."""
    framer = Framer()
    for at in range(0, len(stream), chunk):
        framer.feed(stream[at : at + chunk])
    framer.finish()


SHAPES = {  # name: (the stream for size n, the bytes read at a time)
    "messages": (lambda n: message(b'{"a": 1}') * n, 1 << 16),
    "garbage lines": (lambda n: b"junk line\r\n" * (3 * n), 1 << 16),
    "bad headers": (lambda n: b"Content-Length: -1\r\n\r\n" * (2 * n), 1 << 16),
    "a line that never ends, read in small pieces": (lambda n: b"x" * (6 * n), 100),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_cutting_costs_linear_time(shape: str) -> None:
    make, chunk = SHAPES[shape]
    assert_doubling_linear(make, lambda stream: cut_in_chunks(stream, chunk), 4_000, repeats=5)
