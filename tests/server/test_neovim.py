"""Debian's Neovim, headless, against the real server: diagnostic, quick fix, file fixed.

Skipped only when ``nvim`` is missing outside CI; with ``CI=true`` a missing Neovim fails
(`.ci/run` installs it through apt).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import DATA, EXPECTED, HERE


def test_neovim_quick_fix(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nvim is missing in CI: .ci/run should have installed it")
        pytest.skip("nvim is not installed")
    target = tmp_path / "aliased.mlir"
    shutil.copy(DATA / "mlir/aliased.mlir", target)
    result = tmp_path / "result.txt"
    env = {
        **os.environ,
        "PASSLINT_FILE": str(target),
        "PASSLINT_ROOT": str(tmp_path),
        "PASSLINT_RESULT": str(result),
        "PASSLINT_PYTHON": sys.executable,
    }
    completed = subprocess.run(
        [nvim, "--headless", "--clean", "-n", "-c", f"luafile {HERE / 'neovim_fix.lua'}"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )
    lines = result.read_text().splitlines() if result.exists() else []
    report = dict(line.split("=", 1) for line in lines)
    assert completed.returncode == 0, (report, completed.stderr.decode(errors="replace"))
    assert report["code"] == "TL001"
    assert report["source"] == "passlint"
    assert (report["line"], report["col"]) == ("3", "15")
    assert report["preferred"] == "true"
    assert report["cleared"] == "true"
    assert target.read_text() == (EXPECTED / "mlir/aliased.mlir").read_text()
