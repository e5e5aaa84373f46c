"""``passlint check`` on a folder whose kernels take their symbols from helpers and sibling
modules: the batch screen (``screen.may_have_findings``) analyses those files, ``--fix``
fixes them, and a second check finds nothing. The folder is the corpus of
tests/data/pl/names/ (its outcomes under the real pass: tests/data/pl/oracle/truth.json)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols import screen

NAMES = Path(__file__).resolve().parents[2] / "data" / "pl" / "names"


def check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passlint", "check", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )


def found(result: subprocess.CompletedProcess[str]) -> list[tuple[str, str, int, int]]:
    document = json.loads(result.stdout)
    return [
        (f["path"], f["code"], f["range"]["start"]["line"], f["range"]["start"]["column"])
        for f in document["findings"]
    ]


def test_a_folder_check_reports_helper_and_sibling_symbols_and_fixes_them(tmp_path: Path) -> None:
    # unknown_shapes.py: VS008 has no fix (where a name should come from is the author's).
    shutil.copytree(NAMES, tmp_path / "names", ignore=shutil.ignore_patterns("unknown_shapes.py"))
    folder = tmp_path / "names"
    result = check(folder, "--format", "json", ".")
    assert result.returncode == 1, result.stderr
    assert found(result) == [
        ("branching_helpers.py", "VS001", 33, 72),
        ("branching_helpers.py", "VS001", 64, 72),
        ("class_body.py", "VS001", 16, 76),
        ("helpers.py", "VS001", 29, 68),
        ("helpers.py", "VS001", 68, 72),
        ("helpers.py", "VS001", 93, 64),
        ("postponed.py", "VS001", 15, 72),
        ("postponed.py", "VS001", 38, 68),
        ("postponed.py", "VS001", 60, 68),
        ("postponed.py", "VS001", 85, 68),
        ("postponed.py", "VS001", 112, 72),
        ("postponed.py", "VS001", 135, 72),
        ("uses_shape_symbols.py", "VS001", 17, 68),
    ]
    fixed = check(folder, "--fix", ".")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    again = check(folder, "--format", "json", ".")
    assert (again.returncode, found(again)) == (0, []), again.stderr


def test_the_batch_screen_keeps_a_file_whose_symbols_come_from_a_sibling(tmp_path: Path) -> None:
    # The screen reads kernel headers, never where their symbols come from.
    for name in ("shape_symbols.py", "base_symbols.py", "uses_shape_symbols.py"):
        shutil.copy(NAMES / name, tmp_path / name)
    workspace = Workspace([tmp_path], screen=True)
    path = tmp_path / "uses_shape_symbols.py"
    assert screen.may_have_findings(str(path), path.read_text(), workspace)
