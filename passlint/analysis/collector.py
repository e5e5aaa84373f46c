"""Pausing Python's cyclic garbage collector while a front end builds its model.

IRs and syntax trees are graphs of many small objects with back links; the collector would
scan the growing graph again and again while it is built, which costs more than building it.

With ``promote``, what was built is moved straight into the oldest generation when the
collector runs again (``gc.freeze`` then ``gc.unfreeze``: two list splices) instead of being
scanned by the young generations' passes first, which costs a fifth of a pl analysis.
Nothing is exempted from collection: cycles among those objects are collected by the next
full collection. It suits results that live on in caches and leave little cyclic garbage
(pl models); an MLIR IR is not promoted, as the IR an edit supersedes is millions of
objects in cycles, which would then wait for a full collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(promote: bool = False) -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if promote:
            gc.freeze()  # every tracked object -> the permanent generation ...
            gc.unfreeze()  # ... -> the oldest generation, unscanned
        if was_enabled:
            gc.enable()
