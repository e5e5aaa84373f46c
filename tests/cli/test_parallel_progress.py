"""Parallel analysis (same results as one process) and the progress bar (terminal only)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from cli_testing import CLEAN_MLIR, INPUT_MLIR, TREE

from passlint.config import Settings
from passlint.progress import Progress
from passlint.runner import PARALLEL_MIN_FILES, Job, check_files, worker_count


def test_workers_and_single_process_agree(tmp_path: Path) -> None:
    paths = []
    for index in range(40):
        path = tmp_path / f"m{index:02}.mlir"
        path.write_text(INPUT_MLIR if index % 3 else CLEAN_MLIR)
        paths.append(str(path))
    paths += [str(p) for p in sorted(TREE.rglob("*")) if p.suffix in (".mlir", ".py")]
    job = Job(Settings(), (str(tmp_path), str(TREE)))
    single = check_files(paths, job, workers=1)
    parallel = check_files(paths, job, workers=2)
    assert [(r.path, r.findings, r.checked, r.error) for r in single] == [
        (r.path, r.findings, r.checked, r.error) for r in parallel
    ]
    assert sum(len(r.findings) for r in single) > 26


def test_worker_count(tmp_path: Path) -> None:
    few = [str(tmp_path / f"{i}.mlir") for i in range(3)]
    for path in few:
        Path(path).write_text(CLEAN_MLIR)
    assert worker_count(few) == 1  # process start-up would cost more than it saves
    many = [str(tmp_path / f"{i}.mlir") for i in range(PARALLEL_MIN_FILES)]
    expected = min(len(os.sched_getaffinity(0)), len(many))
    assert worker_count(many) == (expected if expected > 1 else 1)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_waits_for_a_moment_then_draws_and_erases() -> None:
    now = [0.0]
    stream = _Terminal()
    progress = Progress(4, stream, delay=0.5, clock=lambda: now[0])
    progress.advance()
    assert stream.getvalue() == ""  # a quick run prints nothing
    now[0] = 1.0
    progress.advance()
    assert stream.getvalue() == "\r\x1b[2K[###############---------------] 2/4 files"
    progress.close()
    assert stream.getvalue().endswith("\r\x1b[2K")


def test_progress_of_a_large_file_moves_with_its_bytes() -> None:
    """One file that takes a while moves the bar as it is read (each redraw clears the line:
    its text may get shorter)."""
    now = [1.0]
    stream = _Terminal()
    progress = Progress(2, stream, delay=0.5, clock=lambda: now[0])
    progress.advance()
    now[0] = 1.5
    progress.reading(150_000_000, 200_000_000)
    assert stream.getvalue().endswith(
        "\r\x1b[2K[##########################----] 1/2 files (150/200 MB)"
    )
    now[0] = 2.0
    progress.advance()
    assert stream.getvalue().endswith("\r\x1b[2K[##############################] 2/2 files")


def test_progress_never_draws_off_a_terminal_or_when_quiet() -> None:
    plain = io.StringIO()
    progress = Progress(2, plain, delay=0)
    progress.advance(2)
    progress.close()
    assert plain.getvalue() == ""
    terminal = _Terminal()
    quiet = Progress(2, terminal, enabled=False, delay=0)
    quiet.advance(2)
    assert terminal.getvalue() == ""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal_stderr_only(tmp_path: Path) -> None:
    for index in range(80):
        (tmp_path / f"m{index:02}.mlir").write_text(CLEAN_MLIR)
    leader, follower = pty.openpty()
    environment = dict(os.environ, PASSLINT_PROGRESS_DELAY="0")
    process = subprocess.Popen(
        [sys.executable, "-m", "passlint", "check", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=environment,
    )
    os.close(follower)
    stdout, _ = process.communicate(timeout=60)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    stderr = b"".join(chunks).decode()
    assert process.returncode == 0
    assert "80/80 files" in stderr and stderr.endswith("\r\x1b[2K")
    assert stdout == b"All checks passed (80 files checked).\n"  # stdout stays clean
    # Redirected stderr: no bar even with no delay.
    quiet = subprocess.run(
        [sys.executable, "-m", "passlint", "check", "."],
        cwd=tmp_path,
        capture_output=True,
        env=environment,
    )
    assert quiet.stderr == b""
