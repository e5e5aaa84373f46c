"""Bad inputs: unreadable files, non-UTF-8 bytes, symlink loops, a folder of 10,000 files.
Each gives a clear one-line message, no traceback, and the other files are still checked."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from cli_testing import CLEAN_MLIR, INPUT_MLIR, assert_no_traceback, passlint


def test_non_utf8_mlir_is_an_error_and_the_rest_is_checked(tmp_path: Path) -> None:
    (tmp_path / "a.mlir").write_bytes(b"module {\n  // caf\xe9\n}\n")
    (tmp_path / "b.mlir").write_text(INPUT_MLIR)
    result = passlint("check", ".", cwd=tmp_path)
    assert_no_traceback(result)
    assert result.returncode == 2
    assert result.stderr == "passlint: a.mlir: not UTF-8 (invalid byte at line 2); not checked\n"
    assert result.stdout.startswith("b.mlir:3:12: TL001")
    assert "in 1 file, and 1 error (see stderr)." in result.stdout


def test_non_utf8_python_is_skipped_unless_it_is_pl(tmp_path: Path) -> None:
    (tmp_path / "latin1.py").write_bytes(b"# caf\xe9\nprint(1)\n")
    clean = passlint("check", ".", cwd=tmp_path)
    assert (clean.returncode, clean.stderr) == (0, "")
    (tmp_path / "kernel.py").write_bytes(b"import pypto.language as pl\n# caf\xe9\n")
    bad = passlint("check", ".", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr == "passlint: kernel.py: not UTF-8 (invalid byte at line 2); not checked\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc/self/mem")
def test_read_error_is_reported_and_the_rest_is_checked(tmp_path: Path) -> None:
    # Reading /proc/self/mem from offset 0 fails with EIO, even for root. Named, the link's
    # target is part of the workspace; met in a folder, it is a link out of it.
    os.symlink("/proc/self/mem", tmp_path / "mem.mlir")
    (tmp_path / "z.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "mem.mlir", "z.mlir", cwd=tmp_path)
    assert_no_traceback(result)
    assert result.returncode == 2
    assert result.stderr == "passlint: mem.mlir: cannot read: Input/output error\n"
    assert result.stdout.startswith("z.mlir:3:12: TL001")
    walked = passlint("check", ".", cwd=tmp_path)
    assert walked.returncode == 1
    assert walked.stderr.startswith("passlint: warning: mem.mlir: links outside the workspace")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_permission_denied(tmp_path: Path) -> None:
    (tmp_path / "secret.mlir").write_text(INPUT_MLIR)
    os.chmod(tmp_path / "secret.mlir", 0)
    (tmp_path / "z.mlir").write_text(INPUT_MLIR)
    result = passlint("check", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "passlint: secret.mlir: cannot read: Permission denied\n"
    assert "z.mlir:3:12" in result.stdout


def test_symlink_loops_and_broken_links(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.mlir").write_text(INPUT_MLIR)
    os.symlink("..", tmp_path / "sub" / "up")  # a loop back to the top
    os.symlink("self.mlir", tmp_path / "self.mlir")  # a link to itself
    os.symlink("gone", tmp_path / "dangling.mlir")
    result = passlint("check", ".", cwd=tmp_path)
    assert_no_traceback(result)
    assert result.returncode == 1  # findings; the links are warnings, not errors
    assert result.stderr.splitlines() == [
        "passlint: warning: dangling.mlir: broken symbolic link; skipped",
        "passlint: warning: self.mlir: broken symbolic link; skipped",
        f"passlint: warning: sub/up: symbolic link loop (points back to {tmp_path.resolve()});"
        " not followed",
    ]
    assert result.stdout.count("TL001") == 1
    named = passlint("check", "dangling.mlir", "sub", cwd=tmp_path)
    assert named.returncode == 2
    assert "passlint: dangling.mlir: broken symbolic link" in named.stderr


def test_max_file_size_skips_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.passlint]\nmax-file-size = 100\n")
    (tmp_path / "big.mlir").write_text(INPUT_MLIR + "// " + "x" * 200 + "\n")
    (tmp_path / "small.mlir").write_text("module {}\n")
    result = passlint("check", ".", cwd=tmp_path)
    assert result.returncode == 0
    assert "passlint: warning: big.mlir: skipped: " in result.stderr
    assert "All checks passed (1 file checked)." in result.stdout


def test_a_folder_of_10000_files(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for index in range(10_000):
        name = f"m{index:05}.mlir"
        (folder / name).write_text(INPUT_MLIR if index % 1000 == 0 else CLEAN_MLIR)
    started = time.monotonic()
    result = passlint("check", "--statistics", "many", cwd=tmp_path)
    elapsed = time.monotonic() - started
    assert_no_traceback(result)
    assert result.returncode == 1
    assert result.stdout == (
        "   10  TL001  [*] output-aliases-input\n"
        "Found 10 findings (10 warning) in 10000 files. 10 fixable with --fix.\n"
    )
    assert result.stderr == ""  # not a terminal: no progress bar
    assert elapsed < 60
    summary = passlint("check", "--select", "E", "many", cwd=tmp_path)
    assert summary.stdout == "All checks passed (10000 files checked).\n"
