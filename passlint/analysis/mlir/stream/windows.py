"""The windows the streaming reader reads: a megabyte of a file at a time, cut after a line
break, each with its lines' shapes' keys (``fast.lines.normalize``) and the lines a number
may be out of range on (``integers.candidate_lines``).

Those two are pure functions of the window's text and a third of the reader's time; with
``helper``, a second process (forked: it shares the source) works them out for the windows
ahead while the reader reads the one before, and the reader works them out itself should the
helper stop. Either way each window is the same.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.mlir.fast.lines import normalize
from passlint.analysis.mlir.integers import candidate_lines

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from passlint.analysis.mlir.stream.scan import Source

WINDOW = 1 << 20  # bytes read and decoded at once, at least (then on to a line break)


@dataclass
class Window:
    """``source[at:stop]`` as text, its normalized text and the starts of the lines a number
    may be out of range on (``None`` until worked out)."""

    at: int
    stop: int
    text: str | None = None
    keys: str | None = None
    doubtful: frozenset[int] | None = None


def bounds(source: Source) -> Iterator[tuple[int, int]]:
    """``[at, stop)`` of each window of ``source``."""
    size = len(source)
    at = 0
    while at < size:
        cut = source.find(b"\n", min(at + WINDOW, size))
        stop = size if cut < 0 else cut + 1
        yield at, stop
        at = stop


def worked_out(window: Window, text: str) -> Window:
    """``window`` with its text, keys and doubtful lines (the keys of text that is read)."""
    window.text = text
    if window.keys is None or window.doubtful is None:
        window.keys = normalize(text)
        window.doubtful = frozenset(start for start, _ in candidate_lines(text, 0, len(text)))
    return window


def windows(source: Source, helper: bool = False) -> Iterator[Window]:
    """The windows of ``source``, in order, without their text (the reader decodes it); with
    ``helper``, their keys worked out ahead by a second process when one can be forked."""
    if not helper or not hasattr(os, "fork"):
        for at, stop in bounds(source):
            yield Window(at, stop)
        return
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_work, args=(source, sender), daemon=True)
    try:
        process.start()
    except OSError:
        yield from windows(source)
        return
    sender.close()
    try:
        expected = bounds(source)
        for at, stop in expected:
            found = _receive(receiver)
            if found is None or (found.at, found.stop) != (at, stop):
                yield Window(at, stop)
                yield from (Window(a, s) for a, s in expected)
                return
            yield found
    finally:
        receiver.close()
        if process.is_alive():
            process.terminate()
        process.join()


def _receive(receiver: Connection) -> Window | None:
    """The helper's next window, or None when it has stopped."""
    with contextlib.suppress(EOFError, OSError):
        found = receiver.recv()
        return found if isinstance(found, Window) else None
    return None


def _work(source: Source, sender: Connection) -> None:
    """The helper: each window's keys and doubtful lines, sent in order (a window that is not
    UTF-8 ends it: the reader reports it)."""
    try:
        for at, stop in bounds(source):
            try:
                text = source[at:stop].decode("utf-8")
            except UnicodeDecodeError:
                return
            window = worked_out(Window(at, stop), text)
            window.text = None  # (the reader has its own: only the keys are sent)
            sender.send(window)
    except (OSError, BrokenPipeError):
        return
    finally:
        sender.close()
