"""Fixtures of the docs' recipes: the wheel of this checkout and a virtual environment that
has only that wheel installed (built once per test session)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from recipes import build_distributions, new_venv


@pytest.fixture(scope="session")
def distributions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build_distributions(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="session")
def wheel_bin(tmp_path_factory: pytest.TempPathFactory, distributions: tuple[Path, Path]) -> Path:
    """The bin folder of a fresh virtual environment with the wheel installed."""
    bin_folder = new_venv(tmp_path_factory.mktemp("wheel-env") / "venv")
    subprocess.run(
        [str(bin_folder / "pip"), "install", "-q", str(distributions[0])],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return bin_folder
