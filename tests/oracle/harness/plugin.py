"""pytest plugin for the oracle's Python: records every program the collected test files
build (``recorder.install``), tags each event with the running test, and bounds each test's
time so one slow test cannot stall a recording (``PASSLINT_ORACLE_TEST_SECONDS``)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest
import recorder


class _TooSlow(Exception):
    pass


def pytest_configure(config: Any) -> None:
    recorder.install()


def pytest_collectstart(collector: Any) -> None:
    recorder.set_context(f"collect {collector.nodeid}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    recorder.set_context(item.nodeid)
    seconds = float(os.environ.get("PASSLINT_ORACLE_TEST_SECONDS", "60"))

    def too_slow(signum: int, frame: Any) -> None:
        raise _TooSlow(f"stopped after {seconds:g} s by the oracle recorder")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        recorder.set_context(None)
