"""How the CPU time of a run grows with its input: the one measure of the linear-time tests.

A run is timed with ``time.process_time()`` with the collector paused (when it runs depends
on what earlier tests left alive, not on the input). The small and the large input are
timed in turns, the median of a few runs each, so a change of the machine's load falls on
both; their ratio is scaled to one doubling of the input (the geometric mean over the
doublings between them). The machine is shared, so a ratio above ``BOUND`` is measured again,
a few times: a quadratic path fails every try (3-4x at the sizes these tests find).

A found size is compared with four times it, two doublings: a step in the cost per item
between two sizes is then spread over both. A single doubling across such a step measured
2.2-2.4x for runs whose cost per item is the same at 1,024 and at 32,768 items (a return
of 512 -> 1,024 outputs, in CI and here after other tests); a quadratic path still costs
9-16x over the two.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

BOUND = 2.2  # the most doubling the input may multiply the time by (issue 25)
SHORTEST_RUN = 0.05  # seconds one run of the small input takes, at least
REPEATS = 3
TRIES = 3

T = TypeVar("T")
Run = Callable[[], object]


def cpu_seconds(run: Run, before: Callable[[], None] | None = None) -> float:
    """The CPU time of ``run()``, after ``before()`` (untimed; forgetting caches)."""
    if before is not None:
        before()
    gc.disable()
    try:
        started = time.process_time()
        run()
        return time.process_time() - started
    finally:
        gc.enable()


def large_enough(
    build: Callable[[int], T],
    run: Callable[[T], object],
    n: int,
    before: Callable[[], None] | None = None,
    shortest: float = SHORTEST_RUN,
) -> int:
    """The first size, doubling from ``n``, at which one run of ``build(size)`` takes
    ``shortest`` seconds (a first run, untimed, loads what any run needs)."""
    run(build(n))
    while cpu_seconds(_bound(run, build(n)), before) < shortest:
        n *= 2
    return n


def _bound(run: Callable[[T], object], made: T) -> Run:
    return lambda: run(made)


def ratio(
    small: Run,
    large: Run,
    size_ratio: float = 2.0,
    repeats: int = REPEATS,
    before: Callable[[], None] | None = None,
) -> float:
    """How much more ``large`` costs than ``small``, per doubling of the input (``large``'s
    input is ``size_ratio`` times ``small``'s, ``log2(size_ratio)`` doublings)."""
    large()  # (the memory it takes, asked of the system once)
    gc.collect()  # (once: a full collection reads the test run's whole heap, a second or more)
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        times[0].append(cpu_seconds(small, before))
        times[1].append(cpu_seconds(large, before))
    low, high = statistics.median(times[0]), statistics.median(times[1])
    assert low >= SHORTEST_RUN / 2, f"the small input takes {low * 1000:.0f} ms: make it larger"
    return float((high / low) ** (1 / math.log2(size_ratio)))


def assert_linear(
    small: Run,
    large: Run,
    size_ratio: float = 2.0,
    repeats: int = REPEATS,
    before: Callable[[], None] | None = None,
) -> None:
    """``ratio`` is at most ``BOUND`` in one of ``TRIES`` measurements."""
    found = [ratio(small, large, size_ratio, repeats, before)]
    while found[-1] > BOUND and len(found) < TRIES:
        found.append(ratio(small, large, size_ratio, repeats, before))
    assert found[-1] <= BOUND, f"doubling the input cost {[round(r, 2) for r in found]} x the time"


def assert_doubling_linear(
    build: Callable[[int], T],
    run: Callable[[T], object],
    n: int,
    repeats: int = REPEATS,
    before: Callable[[], None] | None = None,
) -> None:
    """``run`` on ``build(4 size)`` costs at most ``BOUND`` squared times ``run`` on
    ``build(size)`` (``BOUND`` per doubling), at the size ``large_enough`` finds from ``n``."""
    n = large_enough(build, run, n, before)
    assert_linear(_bound(run, build(n)), _bound(run, build(4 * n)), 4.0, repeats, before)
