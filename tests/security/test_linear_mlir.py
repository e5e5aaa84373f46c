"""Every input shape of the MLIR front end and TensorizerLegalization costs linear time.

Each shape is a hostile or merely odd input built at a size n and at 2n; the CPU time of the
analysis (``time.process_time()``, the median of a few runs) may grow by at most ~2.2x. The
size is found by doubling from a small one until a run takes 50 ms, so a quadratic path is
caught after a few hundred milliseconds rather than after minutes. Both analyses an editor
runs are measured: the full one (``passlint check`` and the server's debounced run) and the
quick one the server gives a large document first (@main's outline).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

import pytest

from passlint.analysis import engine
from passlint.analysis.mlir import lines, main_outline, statements

LONGEST_RUN = 0.05  # seconds one run of the smaller input takes, at least
REPEATS = 3
BOUND = 2.2

HEAD = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
RETURN = "  return %arg0 : tensor<4xf32>\n"
TAIL = RETURN + "}\n"


def _fresh_caches() -> None:
    """Forget what earlier runs cached (a shape must not be timed on another's cache)."""
    statements.clear_caches()
    lines._shapes.clear()
    lines.cut_lines.clear()
    main_outline._header_cache.clear()
    main_outline._generic_cache.clear()


def _cpu(analyse: Callable[[str], object], text: str, repeats: int = REPEATS) -> float:
    """The median CPU time of ``analyse(text)``, each run with fresh caches."""
    gc.collect()
    times = []
    for _ in range(repeats):
        _fresh_caches()
        started = time.process_time()
        analyse(text)
        times.append(time.process_time() - started)
    return statistics.median(times)


def growth(build: Callable[[int], str], analyse: Callable[[str], object], n: int = 64) -> float:
    """How much longer ``analyse`` takes on ``build(2n)`` than on ``build(n)``, for the first
    n (doubling from ``n``) at which one run takes ``LONGEST_RUN``."""
    small = build(n)
    analyse(small)  # (imports, compiled patterns, the grammar's tables)
    while _cpu(analyse, small, repeats=1) < LONGEST_RUN:
        n *= 2
        small = build(n)
    return _cpu(analyse, build(2 * n)) / _cpu(analyse, small)


def check(text: str) -> object:
    return engine.analyze("shape.mlir", text)


def quick(text: str) -> object:
    answer = engine.quick_analyze("shape.mlir", text)
    assert answer is not None  # (the quick path must have done its work)
    return answer


def body(statement_lines: str) -> str:
    return HEAD + statement_lines + TAIL


# -- the shapes ----------------------------------------------------------------------------------

# Blanks at the end of a line of a statement that goes on: each position of the run was
# matched again to its end (20 KB: 18.8 s).
BLANKS: dict[str, Callable[[int], str]] = {
    "in an op's attribute dictionary": lambda n: body(
        '  %0 = "x.op"(%arg0) {a = 1,' + " " * n + "\n b = 2} : (tensor<4xf32>) -> tensor<4xf32>\n"
    ),
    "in a func's attributes": lambda n: (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {a = 1,"
        + "\t" * n
        + "\n b = 2} {\n"
        + TAIL
    ),
    "in an operand list": lambda n: body(
        '  %0 = "x.op"(%arg0,' + "\f" * n + "\n %arg0) : (tensor<4xf32>, tensor<4xf32>) -> i1\n"
    ),
    "in a signature": lambda n: (
        "func.func @main(" + " " * n + "\n%arg0: tensor<4xf32>) -> tensor<4xf32> {\n" + TAIL
    ),
}


@pytest.mark.parametrize("shape", BLANKS)
def test_blanks_at_a_line_end_inside_a_statement(shape: str) -> None:
    assert growth(BLANKS[shape], check, 1024) <= BOUND
