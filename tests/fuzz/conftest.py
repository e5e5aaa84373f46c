"""Hypothesis profiles for the fuzz tests, and the counts the run reports.

``ci`` (the default) is bounded so the whole fuzz folder stays well under two minutes on two
cores and tries the same inputs on every run (``derandomize``: a red build is reproducible).
``nightly`` (``HYPOTHESIS_PROFILE=nightly``) tries ~25x more, freshly random each night.
Every target counts the inputs it tried and the crashes it saw; the terminal summary prints
them (a crash also fails its test, so a green run reports zero).
"""

from __future__ import annotations

import os

import pytest
from fuzz_counts import CRASHES, TRIED
from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,  # each property checks its own time bound (2 s per input)
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}
settings.register_profile("ci", max_examples=400, derandomize=True, **_COMMON)
settings.register_profile("nightly", max_examples=1500, **_COMMON)
settings.register_profile("dev", max_examples=10, derandomize=True, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TRIED:
        return
    profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    terminalreporter.section(f"fuzzing ({profile} profile)")
    for target in sorted(TRIED):
        terminalreporter.write_line(
            f"{target:<28} {TRIED[target]:>7} inputs tried, {CRASHES[target]} crashes"
        )
    terminalreporter.write_line(
        f"{'total':<28} {sum(TRIED.values()):>7} inputs tried, {sum(CRASHES.values())} crashes"
    )
