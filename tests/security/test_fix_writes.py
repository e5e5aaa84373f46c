"""`--fix` writes atomically (a temporary file in the same folder, then a rename; never a
half-written file) and never follows symbolic links out of the checked tree."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from security_testing import DATA, run

from passlint import fixing

INPUT_MLIR = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    return %arg0 : tensor<4xf32>\n  }\n}\n"
)


def passlint(args: list[str], cwd: Path) -> tuple[int, str, str]:
    result = run(["-m", "passlint", *args], cwd, cwd / "marker.txt")
    assert "Traceback" not in result.stderr
    return result.returncode, result.stdout, result.stderr


def leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".passlint")]


def test_write_replaces_the_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "m.mlir"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    before = target.stat().st_ino
    fixing.write_atomically(str(target), "new ✓\n")
    assert target.read_text(encoding="utf-8") == "new ✓\n"
    assert target.stat().st_ino != before  # a new file renamed over the old one
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_a_failed_write_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "m.mlir"
    target.write_text("old\n")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        fixing.write_atomically(str(target), "new\n")
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []


def test_fix_through_a_linked_folder_outside_is_refused(tmp_path: Path) -> None:
    outside, project = tmp_path / "outside", tmp_path / "project"
    outside.mkdir()
    project.mkdir()
    (outside / "model.mlir").write_text(INPUT_MLIR)
    (project / "inner.mlir").write_text(INPUT_MLIR)
    os.symlink(outside, project / "linked")  # discovery follows it once: it is checked ...
    status, stdout, stderr = passlint(["check", "--fix", "."], project)
    assert status == 1
    assert "linked/model.mlir:3:12: TL001" in stdout
    assert "outside the checked tree" in stderr  # ... but never written
    assert (outside / "model.mlir").read_text() == INPUT_MLIR
    assert "mhlo.copy" in (project / "inner.mlir").read_text()
    assert (project / "linked").is_symlink()
    assert leftovers(tmp_path) == []


def test_a_caller_linked_from_outside_is_neither_read_nor_written(tmp_path: Path) -> None:
    """The VS001 fix edits the kernel and its call sites; a caller that is a link to a file
    outside the tree is not read by cross-file resolution, so the fix never reaches it."""
    outside, project = tmp_path / "outside", tmp_path / "project"
    outside.mkdir()
    project.mkdir()
    cross = DATA / "pl" / "cross_file"
    shutil.copy(cross / "kernels.py", project / "kernels.py")
    shutil.copy(cross / "program.py", outside / "program.py")
    os.symlink(outside / "program.py", project / "program.py")
    program = (outside / "program.py").read_text()
    status, stdout, stderr = passlint(["check", "--fix", "kernels.py"], project)
    assert (status, stderr) == (0, "")
    assert stdout.startswith("Fixed 1 finding.")
    assert "VALID_COLS: pl.Scalar[pl.INDEX]" in (project / "kernels.py").read_text()
    assert (outside / "program.py").read_text() == program
    assert (project / "program.py").is_symlink()
    assert leftovers(tmp_path) == []


def test_fix_writes_the_target_of_a_link_inside_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "real.mlir").write_text(INPUT_MLIR)
    os.symlink("real.mlir", tmp_path / "link.mlir")
    status, _, stderr = passlint(["check", "--fix", "link.mlir"], tmp_path)
    assert (status, stderr) == (0, "")
    assert (tmp_path / "link.mlir").is_symlink()
    assert "mhlo.copy" in (tmp_path / "real.mlir").read_text()
    assert leftovers(tmp_path) == []
