"""A progress bar on standard error, for runs a person sits and waits for.

It draws only when the stream is a terminal, and only once the run has taken more than
``delay`` seconds (so quick runs print nothing extra); it redraws at most ten times a second
and erases itself when done, leaving the terminal as it found it. Output meant for other
programs (stdout, a redirected stderr, CI logs) never contains it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TextIO

DEFAULT_DELAY = 0.5  # seconds: "more than a moment"
_REDRAW = 0.1
_WIDTH = 30


class Progress:
    def __init__(
        self,
        total: int,
        stream: TextIO,
        *,
        enabled: bool = True,
        delay: float = DEFAULT_DELAY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = total
        self.done = 0
        self.stream = stream
        self.enabled = enabled and total > 0 and _is_terminal(stream)
        self.delay = delay
        self.clock = clock
        self.started = clock()
        self.drawn = False
        self.last_draw = float("-inf")
        self.part: tuple[int, int] | None = None  # bytes read of the file being read

    def advance(self, count: int = 1) -> None:
        self.done += count
        self.part = None
        self._draw()

    def reading(self, done: int, total: int) -> None:
        """``done`` of the ``total`` bytes of the file being read are read (a large file is
        shown by its bytes, so one file that takes a while moves the bar too)."""
        self.part = (done, total)
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < self.delay:
            return
        if now - self.last_draw < _REDRAW and self.done < self.total:
            return
        self.last_draw = now
        fraction = self.done / self.total
        text = f"{self.done}/{self.total} files"
        if self.part is not None and self.part[1] > 0:
            done, total = self.part
            fraction += done / total / self.total
            text += f" ({done // 1_000_000}/{total // 1_000_000} MB)"
        filled = min(_WIDTH, int(_WIDTH * fraction))
        bar = "#" * filled + "-" * (_WIDTH - filled)
        self.stream.write(f"\r\x1b[2K[{bar}] {text}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Erase the bar (if it was drawn)."""
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.drawn = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def delay_from_environment() -> float:
    """``PASSLINT_PROGRESS_DELAY`` (seconds) overrides the delay; tests set it to 0."""
    value = os.environ.get("PASSLINT_PROGRESS_DELAY")
    try:
        return DEFAULT_DELAY if value is None else max(0.0, float(value))
    except ValueError:
        return DEFAULT_DELAY
