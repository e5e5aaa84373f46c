"""``-o/--output-file PATH`` (issue 30, point 6): the report goes to the file, created or
replaced whole (its folders made, as ruff does), the exit code and the messages on stderr
unchanged; a symbolic link at PATH to a regular file is refused, unlike ruff."""

from __future__ import annotations

import json
import os
import pty
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cli_testing import CLEAN_MLIR, INPUT_MLIR, assert_no_traceback, passlint

FIXED_MLIR = INPUT_MLIR.replace(
    "    return %arg0",
    "    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n    return %output0_copy",
)


def project(tmp_path: Path) -> Path:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    (tmp_path / "clean.mlir").write_text(CLEAN_MLIR)
    return tmp_path


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "gitlab", "junit"])
def test_the_report_goes_to_the_file(tmp_path: Path, output_format: str) -> None:
    root = project(tmp_path)
    plain = passlint("check", "--output-format", output_format, cwd=root)
    to_file = passlint("check", "--output-format", output_format, "-o", "report", cwd=root)
    assert_no_traceback(to_file)
    assert (to_file.returncode, plain.returncode) == (1, 1)
    assert to_file.stdout == "" and to_file.stderr == plain.stderr
    assert (root / "report").read_text() == plain.stdout
    clean = passlint("check", "--output-file", "report", "clean.mlir", cwd=root)
    assert (clean.returncode, clean.stdout) == (0, "")
    assert (root / "report").read_text() == "All checks passed (1 file checked).\n"


def test_folders_are_made_and_a_file_is_replaced_whole(tmp_path: Path) -> None:
    root = project(tmp_path)
    report = root / "out" / "ci" / "passlint.json"
    result = passlint("check", "--format", "json", "-o", "out/ci/passlint.json", cwd=root)
    assert result.returncode == 1
    assert [f["code"] for f in json.loads(report.read_text())["findings"]] == ["TL001"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(report.stat().st_mode) == 0o666 & ~umask  # as a new file gets
    report.chmod(0o640)  # an existing file keeps its mode
    os.link(report, root / "out" / "other-name")  # and is replaced, not written through
    before = report.read_text()
    passlint("check", "--format", "json", "-o", str(report), "clean.mlir", cwd=root)
    assert json.loads(report.read_text()) == {"version": 1, "findings": []}
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert (root / "out" / "other-name").read_text() == before
    assert sorted(os.listdir(root / "out" / "ci")) == ["passlint.json"]  # no temporary left


def test_messages_stay_on_the_terminal(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "bin.mlir").write_bytes(b"\xff\xfe")
    result = passlint("check", "--format", "json", "--fix", "-o", "r.json", cwd=root)
    assert result.returncode == 2  # (bin.mlir could not be checked)
    assert result.stderr == (
        "passlint: bin.mlir: not UTF-8 (invalid byte at line 1); not checked\nFixed 1 finding.\n"
    )
    assert result.stdout == ""
    assert json.loads((root / "r.json").read_text()) == {"version": 1, "findings": []}
    assert (root / "input.mlir").read_text() == FIXED_MLIR


def test_diff_settings_and_fixed_standard_input(tmp_path: Path) -> None:
    root = project(tmp_path)
    diff = passlint("check", "--diff", "-o", "fix.diff", "input.mlir", cwd=root)
    assert (diff.returncode, diff.stdout) == (1, "")
    assert (root / "fix.diff").read_text().startswith("--- a/input.mlir\n+++ b/input.mlir\n")
    shown = passlint("check", "--show-settings", "-o", "settings.txt", cwd=root)
    assert (shown.returncode, shown.stdout) == (0, "")
    assert (root / "settings.txt").read_text().startswith("configuration")
    stdin = passlint(
        "check",
        "--fix",
        "--stdin-filename",
        "x.mlir",
        "-o",
        "report.txt",
        "-",
        cwd=root,
        stdin=INPUT_MLIR.encode(),
    )
    assert stdin.returncode == 0
    assert stdin.stdout == FIXED_MLIR  # the fixed text owns stdout; the report is the file's
    assert (root / "report.txt").read_text() == "All checks passed (1 file checked).\n"
    assert stdin.stderr == "Fixed 1 finding.\n"


def test_a_run_that_stops_early_leaves_the_file_empty(tmp_path: Path) -> None:
    """As ruff does: the file is created or replaced on every run that reads its options."""
    root = project(tmp_path)
    (root / "report.txt").write_text("an old report\n")
    (root / "passlint.toml").write_text("selct = []\n")
    result = passlint("check", "-o", "report.txt", cwd=root)
    assert result.returncode == 2
    assert result.stderr.startswith("passlint: configuration error: ")
    assert (root / "report.txt").read_text() == ""


def test_a_symbolic_link_to_a_file_is_not_followed(tmp_path: Path) -> None:
    root = project(tmp_path / "checkout")
    victim = tmp_path / "authorized_keys"
    victim.write_text("ssh-ed25519 AAAA me\n")
    os.symlink(victim, root / "gl-code-quality-report.json")
    os.symlink(tmp_path / "nothing-there", root / "dangling.json")
    (root / "folder").mkdir()
    cases = {
        "gl-code-quality-report.json": f"a symbolic link (to {victim}); not followed, "
        "name the file itself",
        "dangling.json": "a symbolic link to nothing; not followed",
        "folder": "a folder",
    }
    for name, reason in cases.items():
        result = passlint("check", "--format", "gitlab", "-o", name, cwd=root)
        assert_no_traceback(result)
        assert result.returncode == 2
        assert result.stderr == f"passlint: cannot write the report to {name}: {reason}\n"
        assert result.stdout == ""
    assert victim.read_text() == "ssh-ed25519 AAAA me\n"
    assert not (tmp_path / "nothing-there").exists()
    # The resolved path is the user's to give; a device (or a link to one) is written to.
    named = passlint("check", "--format", "gitlab", "-o", str(victim), cwd=root)
    assert named.returncode == 1 and json.loads(victim.read_text())[0]["check_name"] == "TL001"
    os.symlink("/dev/null", root / "sink")
    for sink in ("/dev/null", "sink"):
        quiet = passlint("check", "-o", sink, cwd=root)
        assert (quiet.returncode, quiet.stdout, quiet.stderr) == (1, "", "")


def test_standard_output_and_a_fifo_are_written_to(tmp_path: Path) -> None:
    root = project(tmp_path)
    plain = passlint("check", cwd=root)
    through = passlint("check", "-o", "/dev/stdout", cwd=root)  # (a pipe here)
    assert (through.returncode, through.stdout) == (1, plain.stdout)
    os.mkfifo(root / "pipe")
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append((root / "pipe").read_bytes()))
    reader.start()
    result = passlint("check", "-o", "pipe", cwd=root)
    reader.join(60)
    assert (result.returncode, result.stdout) == (1, "")
    assert read == [plain.stdout.encode()]
    assert stat.S_ISFIFO(os.lstat(root / "pipe").st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_no_colour_in_the_file_when_run_on_a_terminal(tmp_path: Path) -> None:
    root = project(tmp_path)
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    process = subprocess.Popen(
        [sys.executable, "-m", "passlint", "check", "-o", "report.txt", "input.mlir"],
        cwd=root,
        stdout=follower,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        env=environment,
    )
    os.close(follower)
    terminal = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        terminal += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 1
    assert terminal == b""
    plain = passlint("check", "input.mlir", cwd=root).stdout  # (not on a terminal)
    assert (root / "report.txt").read_text() == plain
    assert "\x1b[" not in plain and " | " not in plain  # no colour, no source lines
