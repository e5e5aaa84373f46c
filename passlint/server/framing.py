"""LSP's base protocol read from a byte stream, whatever the stream holds.

A message is header lines (``Content-Length: N``, perhaps ``Content-Type``), an empty line,
then N bytes of body. ``Framer`` cuts a stream into bodies and says what it skipped: a
length that is not a number, negative, or beyond ``MAX_BODY``; a header block without a
length; bytes that are no header at all. After anything skipped it looks for the next line
that starts a header (``Content-Length:``, also inside a line of garbage), so one bad message
costs only itself. Nothing is allocated ahead of the bytes that arrive: a body grows as it is
read, and a line that never ends is kept only up to ``MAX_HEADER_LINE``.

``read_messages`` drives a ``Framer`` from a reader (standard input in a thread, or a TCP
stream) and hands each body on, in a parcel the receiver takes it out of (so a didOpen of
hundreds of megabytes is let go of once decoded); what is in a body is the protocol's
business.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import BinaryIO, Protocol

log = logging.getLogger(__name__)

# The largest body read: well above the largest document passlint analyses (a 1 GB module,
# JSON-escaped, in a didOpen). A declared length beyond it is refused, never allocated.
MAX_BODY = 2 << 30
MAX_HEADER_LINE = 8192  # a longer line is no header
HEADER_CHUNK = 1 << 16  # bytes asked for while reading headers
BODY_CHUNK = 1 << 24  # at most this much of a body asked for at once

_HEADER = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_FIELD = re.compile(rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*:[ \t]*(.*?)[ \t]*")
_KEEP = len(b"content-length:") - 1  # of a line that does not end: a header may begin there


@dataclass(frozen=True)
class Skipped:
    """Bytes of the stream that were no message, and why (one line, for the log)."""

    reason: str


class Framer:
    """Bodies out of the bytes fed in, in order, with what was skipped between them."""

    def __init__(self, max_body: int = MAX_BODY) -> None:
        self.max_body = max_body
        self._pending = b""  # the start of a header line whose end has not come yet
        self._body: bytearray | None = None  # the body being read
        self._remaining = 0  # bytes of it still to come
        self._in_header = False  # header lines of a message seen, not yet its empty line
        self._length: int | None = None  # the length its headers gave
        self._problem: str | None = None  # why its headers give no usable length
        self._garbage = 0  # bytes skipped since the last header

    @property
    def body_remaining(self) -> int:
        """Bytes of the current body still to come (0 while reading headers)."""
        return self._remaining

    def feed(self, data: bytes) -> list[bytes | bytearray | Skipped]:
        out: list[bytes | bytearray | Skipped] = []
        buffer = self._pending + data if self._pending else data
        self._pending = b""
        at = 0
        while at < len(buffer):
            if self._body is not None:
                part = memoryview(buffer)[at : at + self._remaining]
                self._body += part
                self._remaining -= len(part)
                at += len(part)
                if self._remaining == 0:
                    out.append(self._body)  # (not copied: a didOpen can be a gigabyte)
                    self._body = None
                continue
            end = buffer.find(b"\n", at)
            if end < 0:
                self._pending = self._unfinished_line(buffer[at:])
                break
            self._line(buffer[at : end + 1], out)
            at = end + 1
        return out

    def finish(self) -> list[Skipped]:
        """At the end of the stream: what was left unfinished."""
        out: list[Skipped] = []
        if self._body is not None:
            out.append(Skipped(f"the stream ended {self._remaining} bytes before a body did"))
        self._garbage += len(self._pending)
        if (garbage := self._garbage_skipped()) is not None:
            out.append(garbage)
        self._pending, self._body, self._remaining = b"", None, 0
        return out

    def _unfinished_line(self, line: bytes) -> bytes:
        """What to keep of a line with no end yet: as much as may still become a header."""
        found = _HEADER.search(line)
        if found is not None and found.start() > 0:
            self._skip_block(found.start())
            line = line[found.start() :]
        if len(line) > MAX_HEADER_LINE:
            cut = len(line) - (_KEEP if found is None else 0)
            self._skip_block(cut)
            line = line[cut:]
        return line

    def _line(self, line: bytes, out: list[bytes | bytearray | Skipped]) -> None:
        """A whole line, with its line break."""
        text = line.rstrip(b"\r\n")
        if not text:
            if self._in_header:
                self._end_of_headers(out)
            return  # (blank lines between messages are harmless)
        found = _HEADER.search(text)
        if found is not None and found.start() > 0:  # a header after bytes that are none
            self._skip_block(found.start())
            line, text = line[found.start() :], text[found.start() :]
        field = _FIELD.fullmatch(text) if len(text) <= MAX_HEADER_LINE else None
        if field is None:
            self._skip_block(len(line))
            return
        if (garbage := self._garbage_skipped()) is not None:
            out.append(garbage)
        self._in_header = True
        name, value = field.groups()
        if name.lower() == b"content-length":
            self._content_length(value)

    def _content_length(self, value: bytes) -> None:
        shown = value[:40].decode("ascii", "backslashreplace")
        if not value.isdigit():
            self._length, self._problem = None, f"Content-Length {shown!r} is not a byte count"
        elif len(value) > 20 or int(value) > self.max_body:
            self._length = None
            self._problem = f"Content-Length {shown} is more than {self.max_body} bytes"
        else:
            self._length, self._problem = int(value), None

    def _end_of_headers(self, out: list[bytes | bytearray | Skipped]) -> None:
        length, problem = self._length, self._problem
        self._in_header, self._length, self._problem = False, None, None
        if length is None:
            out.append(Skipped(f"{problem or 'a message without Content-Length'}; skipped"))
        elif length == 0:
            out.append(b"")
        else:
            self._body, self._remaining = bytearray(), length

    def _skip_block(self, garbage: int) -> None:
        """Skip ``garbage`` bytes, and the headers of the message they were in."""
        self._garbage += garbage
        if self._in_header:
            self._in_header, self._length, self._problem = False, None, None

    def _garbage_skipped(self) -> Skipped | None:
        """The bytes skipped since the last header, as one report."""
        count, self._garbage = self._garbage, 0
        return Skipped(f"{count} bytes that are no message header; skipped") if count else None


class Reader(Protocol):
    def __call__(self, size: int, exact: bool) -> Awaitable[bytes]:
        """Up to ``size`` bytes (all of them when ``exact``, unless the stream ends); b""
        at the end."""
        ...


def stdin_reader(stdin: BinaryIO, executor: Executor) -> Reader:
    """Reads of ``stdin`` in ``executor`` (a blocking read must not hold the event loop)."""

    def read(size: int, exact: bool) -> bytes:
        if exact:
            return stdin.read(size)
        read1 = getattr(stdin, "read1", stdin.read)  # (what is there, without waiting for more)
        return bytes(read1(size))

    def schedule(size: int, exact: bool) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(executor, read, size, exact)

    return schedule


def stream_reader(stream: asyncio.StreamReader) -> Reader:
    """Reads of an asyncio stream (a TCP connection)."""

    async def read(size: int, exact: bool) -> bytes:
        if not exact:
            return await stream.read(size)
        try:
            return await stream.readexactly(size)
        except asyncio.IncompleteReadError as error:
            return error.partial

    return read


async def read_messages(
    read: Reader,
    deliver: Callable[[list[bytes | bytearray]], None],
    stop: threading.Event,
    framer: Framer | None = None,
) -> None:
    """Hand every body in the stream to ``deliver``, in order, until it ends or ``stop``:
    each in a one-item list, which ``deliver`` may empty (then nothing else holds it)."""
    framer = framer or Framer()
    while not stop.is_set():
        remaining = framer.body_remaining
        if remaining:
            data = await read(min(remaining, BODY_CHUNK), True)
        else:
            data = await read(HEADER_CHUNK, False)
        if not data:
            break
        items = framer.feed(data)
        del data
        items.reverse()
        while items:
            item = items.pop()
            if isinstance(item, Skipped):
                log.warning("from the client: %s", item.reason)
            else:
                parcel = [item]
                del item
                deliver(parcel)
                del parcel
            if stop.is_set():
                return
    for skipped in framer.finish():
        log.warning("from the client: %s", skipped.reason)
