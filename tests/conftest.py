"""Options of the whole test suite: ``--check-roundtrip PATH`` (repeatable) also runs the
jaxlib round trip of ``tests/passes/test_legalize_roundtrip.py`` over every ``.mlir`` file
under PATH (a user's modules, a corpus), beside the shipped fixtures; ``--stream-corpus
PATH`` compares the streaming reader with the whole parse there
(``tests/analysis/mlir/test_stream.py``)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stream-corpus",
        action="append",
        default=[],
        metavar="PATH",
        help="compare the streaming reader with the whole parse on every .mlir file under "
        "PATH (tests/analysis/mlir/test_stream.py; a file or a folder; repeatable)",
    )
    parser.addoption(
        "--check-roundtrip",
        action="append",
        default=[],
        metavar="PATH",
        help="parse with jaxlib the `legalize` output of every .mlir file under PATH "
        "(a file or a folder; repeatable; needs jaxlib: pip install -e '.[bench]')",
    )
