"""Pausing Python's cyclic garbage collector while a front end builds its model.

IRs and syntax trees are graphs of many small objects with back links; the collector would
scan the growing graph again and again while it is built, which costs more than building it.
Reference cycles are collected as usual once the collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
