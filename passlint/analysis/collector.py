"""Pausing Python's cyclic garbage collector while a front end builds its model.

IRs and syntax trees are graphs of many small objects with back links; the collector would
scan the growing graph again and again while it is built, which costs more than building it.

With ``promote``, what was built is moved straight into the oldest generation when the
collector runs again (``gc.freeze`` then ``gc.unfreeze``: two list splices) instead of being
scanned by the young generations' passes first, which costs a third of a cold pl analysis.
Objects promoted so skip the young generations' count, which is what normally leads to a
full collection; so a full collection is run here once the objects promoted since the last
one reach a quarter of what that one left alive (and ``FULL_AFTER`` at least), CPython's own
rule: cyclic garbage among them (models an edit superseded) is freed at the usual pace.
Promoting suits results that live on in caches and leave little cyclic garbage (pl
models); an MLIR IR is not promoted, as the IR an edit supersedes is millions of objects in
cycles, which the young generations free sooner. Only a large build is promoted
(``PROMOTE_AFTER`` objects): the re-analysis of an edit reuses cached pieces and builds
little, and promoting that would only keep the garbage of the version it replaces for the
next full collection (an editing session of the 4,600-line pl file grew 25 MB more so, and
its slowest edits were slower).

At exit, everything is frozen: the interpreter's last full collection then has nothing to
scan, and models in reference cycles are left to the operating system instead of being
freed one object at a time (a one-file `passlint check` of a 4,600-line pl file spent
40-60 ms of its 0.2 s there).
"""

from __future__ import annotations

import atexit
import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FULL_AFTER = 250_000  # promoted objects before a full collection, at least
PROMOTE_AFTER = 50_000  # objects a build made before it is promoted

_lock = threading.Lock()
_promoted = 0  # since the last full collection run here
_survivors = 0  # tracked objects that collection left


@contextmanager
def collector_paused(promote: bool = False) -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        collect = promote and gc.get_count()[0] >= PROMOTE_AFTER and _promote()
        if was_enabled:
            gc.enable()
            if collect:
                _collect_all()


@contextmanager
def settled() -> Iterator[None]:
    """One MLIR file of a batch run: the collector is paused while it is analysed, and what
    survives the analysis is frozen (``gc.freeze``) before the collector runs again.

    The file's IR is freed by then (its cycles broken): what survives is what it added to
    the parse caches and its findings, long-lived and acyclic (an analysis leaves no cyclic
    garbage). Left to the collector, every such object is scanned by the young generations'
    passes and then by each full collection, which found nothing to free in a check of the
    upstream StableHLO tests and cost 0.1-0.15 s of its 2 s; frozen, none is scanned, and a
    cache entry dropped later is freed by reference counting. An analysis that raises is
    not frozen (its traceback holds the IR in cycles, garbage once the error is reported).
    What the pl analysis promotes is unfrozen by its next promotion (``gc.unfreeze``), so
    its garbage is still found by the full collections that pays for."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if was_enabled:
            gc.enable()


def _promote() -> bool:
    """Move every tracked object to the oldest generation; is a full collection due?"""
    global _promoted
    with _lock:
        _promoted += gc.get_count()[0]  # objects made since the last collection
        gc.freeze()  # every tracked object -> the permanent generation ...
        gc.unfreeze()  # ... -> the oldest generation, unscanned
        if _promoted < max(FULL_AFTER, _survivors // 4):
            return False
        _promoted = 0
        return True


atexit.register(gc.freeze)


def _collect_all() -> None:
    global _survivors
    gc.collect()
    with _lock:
        gc.freeze()  # counting the permanent generation costs less than listing objects
        _survivors = gc.get_freeze_count()
        gc.unfreeze()
