"""Fixtures for the CLI tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_testing import TREE


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A fresh copy of tests/data/cli/tree."""
    target = tmp_path / "tree"
    shutil.copytree(TREE, target)
    return target
