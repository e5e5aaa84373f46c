"""Options of the whole test suite: ``--check-roundtrip PATH`` (repeatable) also runs the
jaxlib round trip of ``tests/passes/test_legalize_roundtrip.py`` over every ``.mlir`` file
under PATH (a user's modules, a corpus), beside the shipped fixtures."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--check-roundtrip",
        action="append",
        default=[],
        metavar="PATH",
        help="parse with jaxlib the `legalize` output of every .mlir file under PATH "
        "(a file or a folder; repeatable; needs jaxlib: pip install -e '.[bench]')",
    )
