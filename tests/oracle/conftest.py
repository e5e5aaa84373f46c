"""The differential suite (marker ``oracle``) runs only where an oracle is configured: a
Python in which pypto's real pass is built (``PASSLINT_PYPTO_PYTHON``) and, for pypto's own
tests and examples, a checkout (``PASSLINT_PYPTO_CHECKOUT``). Otherwise it is skipped, saying
why. Its agreement figures are printed at the end of the run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from oracle.oracle_run import CHECKOUT_ENV, SUMMARIES, oracle_python


@pytest.fixture(scope="session")
def oracle() -> str:
    python, why = oracle_python()
    if python is None:
        pytest.skip(why)
    return python


@pytest.fixture(scope="session")
def pypto_checkout() -> Path:
    checkout = os.environ.get(CHECKOUT_ENV)
    if not checkout:
        pytest.skip(f"no pypto checkout configured: set {CHECKOUT_ENV} (see docs/differential.md)")
    root = Path(checkout).resolve()
    if not (root / "tests").is_dir():
        pytest.skip(f"{CHECKOUT_ENV}={checkout} has no tests/ folder")
    return root


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SUMMARIES:
        terminalreporter.section("differential tests against pypto's real pass")
        for text in SUMMARIES:
            terminalreporter.write_line(text)
