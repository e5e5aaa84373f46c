"""Files that are not what their names say: a checked folder holding a link to /dev/zero, a
FIFO, a socket, links out of the workspace. `passlint check` reads regular files only, bounded
by the bytes it reads (``stat`` says 0 for a device), and says one line per path it refused;
the rest is checked as usual. The workspace is the paths given and the project found from
them, never the working folder by itself."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from security_testing import run

from passlint.filesystem import Boundary, Refused, TooLarge, read_regular

INPUT_MLIR = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    return %arg0 : tensor<4xf32>\n  }\n}\n"
)


def check(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = run(["-m", "passlint", "check", *args], cwd, cwd / "marker.txt")
    assert "Traceback" not in result.stderr
    return result


def test_a_folder_with_a_device_link_a_fifo_and_a_module_is_checked_at_once(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "model.mlir").write_text(INPUT_MLIR)
    os.symlink("/dev/zero", ws / "zero.mlir")
    os.symlink("/dev/urandom", ws / "random.py")
    os.mkfifo(ws / "fifo.py")
    os.mkfifo(ws / "fifo.mlir")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(ws / "socket.mlir"))
    try:
        started = time.monotonic()
        result = check(["ws"], tmp_path)
        took = time.monotonic() - started
    finally:
        listener.close()
    assert result.returncode == 1
    assert result.stdout.startswith("ws/model.mlir:3:12: TL001")
    assert sorted(result.stderr.splitlines()) == [
        "passlint: warning: ws/fifo.mlir: a FIFO, not a regular file; skipped",
        "passlint: warning: ws/fifo.py: a FIFO, not a regular file; skipped",
        "passlint: warning: ws/random.py: links outside the workspace (to /dev/urandom); skipped",
        "passlint: warning: ws/socket.mlir: a socket, not a regular file; skipped",
        "passlint: warning: ws/zero.mlir: links outside the workspace (to /dev/zero); skipped",
    ]
    assert took < 5  # (about 0.3 s: the interpreter's start and one module)


def test_named_special_files_are_errors_never_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.mlir")
    (tmp_path / "model.mlir").write_text(INPUT_MLIR)
    result = check(["fifo.mlir", "/dev/zero", "model.mlir"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "passlint: fifo.mlir: a FIFO, not a regular file; not checked",
        "passlint: /dev/zero: a character device, not a regular file; not checked",
    ]
    assert "model.mlir:3:12: TL001" in result.stdout


def test_legalize_and_standard_input_read_no_more_than_the_limit(tmp_path: Path) -> None:
    result = run(["-m", "passlint", "legalize", "/dev/zero"], tmp_path, tmp_path / "m")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "passlint: cannot read /dev/zero: a character device, not a regular file\n"
    )
    (tmp_path / "pyproject.toml").write_text("[tool.passlint]\nmax-file-size = 1000\n")
    with open("/dev/zero", "rb") as zero:
        piped = subprocess.run(
            [sys.executable, "-m", "passlint", "check", "-", "--stdin-filename", "x.mlir"],
            cwd=tmp_path,
            stdin=zero,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert piped.returncode == 2
    assert piped.stderr == (
        "passlint: x.mlir (standard input): more than max-file-size (1000 bytes)\n"
    )


def test_a_fifo_as_configuration_or_gitignore_is_not_read(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / ".gitignore")
    os.mkfifo(tmp_path / "passlint.toml")  # not a file: no configuration
    (tmp_path / "model.mlir").write_text(INPUT_MLIR)
    result = check(["."], tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("model.mlir:3:12: TL001")


def test_one_file_checked_from_a_big_folder_lists_nothing_else(tmp_path: Path) -> None:
    """Checked from the folder that holds it, outside any project, a file is its own
    workspace: the folder around it (a home or temporary folder, a FIFO in it) is not
    indexed."""
    os.mkfifo(tmp_path / "stuck.py")
    (tmp_path / "kernel.py").write_text(
        "import pypto.language as pl\n\nV = pl.dynamic('V')\n\n\n"
        "@pl.function(type=pl.FunctionType.InCore)\n"
        "def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V])]):\n"
        "    return x\n"
    )
    result = check(["kernel.py"], tmp_path)
    assert result.returncode == 1
    assert result.stderr == ""
    assert result.stdout.startswith("kernel.py:7:")


def test_read_regular_counts_the_bytes_it_reads(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"12345")
    assert read_regular(str(tmp_path / "a"), 5) == b"12345"
    with pytest.raises(TooLarge) as large:
        read_regular(str(tmp_path / "a"), 4)
    assert (large.value.limit, large.value.size) == (4, 5)
    with pytest.raises(Refused, match="a character device, not a regular file"):
        read_regular("/dev/zero", 10)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(Refused, match="a FIFO, not a regular file"):
        read_regular(str(tmp_path / "fifo"), 10)


def test_the_boundary_refuses_every_way_out(tmp_path: Path) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    (ws / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret").write_text("secret")
    (ws / "sub" / "inside").write_text("inside")
    os.symlink(outside / "secret", ws / "file_link")
    os.symlink(outside, ws / "folder_link")
    os.symlink("sub/inside", ws / "inner_link")
    boundary = Boundary([ws])
    assert boundary.read(ws / "inner_link", 100) == b"inside"
    assert boundary.real(ws / "sub" / ".." / "inner_link") == str((ws / "sub" / "inside").resolve())
    for path in (
        ws / "file_link",
        ws / "folder_link" / "secret",
        ws / ".." / "outside" / "secret",
        Path("/etc/passwd"),
    ):
        with pytest.raises(Refused, match="outside the workspace"):
            boundary.read(path, 100)
