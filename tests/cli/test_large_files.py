"""`passlint check` of a .mlir file of ``STREAM_MIN`` bytes or more, through a subprocess as
users run it: the streaming reader reads it from the disk (never whole), its JSON findings
and its `--fix` are those of the whole parse, its lines are quoted under the findings, a byte
that is not UTF-8 is reported on its line, and on a terminal the progress bar moves with the
file's megabytes."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.memo import Memo
from passlint.report.json_report import render_json
from passlint.streaming import analyze_streamed

LAYER = (
    "  %{n} = stablehlo.add %{p}, %arg1 : tensor<4xf32>\n"
    "  %c{n} = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
    "  %m{n} = stablehlo.multiply %{n}, %c{n} : tensor<4xf32>\n"
)
HEADER = "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"


def large_module(folder: Path) -> Path:
    """A dump just above ``STREAM_MIN``: @main of one-line ops returning a computed value
    and an input (TL001, with its fix)."""
    lines = [HEADER, "  %0 = stablehlo.abs %arg0 : tensor<4xf32>\n"]
    size, n = sum(map(len, lines)), 1
    while size < pipeline.STREAM_MIN + 4096:
        layer = LAYER.format(n=n, p=n - 1)
        lines.append(layer)
        size += len(layer)
        n += 1
    lines.append(f"  return %m{n - 1}, %arg0 : tensor<4xf32>, tensor<4xf32>\n}}\n")
    path = folder / "dump.mlir"
    path.write_text("".join(lines))
    return path


def passlint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passlint", *args], cwd=cwd, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return large_module(tmp_path_factory.mktemp("large"))


def test_json_findings_are_the_whole_parse_s(dump: Path) -> None:
    done = passlint("check", "--format", "json", dump.name, cwd=dump.parent)
    assert done.returncode == 1, done.stderr
    text = dump.read_text()
    whole = pipeline.analyze(dump.name, text)  # (no memo: the whole text, parsed)
    assert done.stdout == render_json(whole)
    assert [f["code"] for f in json.loads(done.stdout)["findings"]] == ["TL001"]
    # (and the streaming reader is what read it)
    assert analyze_streamed(str(dump), dump.read_bytes(), None, Memo()) is not None


def test_the_text_format_quotes_the_line_of_the_finding(dump: Path) -> None:
    done = passlint("check", "--output-format", "full", dump.name, cwd=dump.parent)
    last = dump.read_text().splitlines()[-2]
    assert last in done.stdout and "TL001" in done.stdout


def test_fix_writes_what_the_whole_parse_fixes(dump: Path, tmp_path: Path) -> None:
    copy = tmp_path / "dump.mlir"
    copy.write_bytes(dump.read_bytes())
    done = passlint("check", "--fix", "--format", "json", copy.name, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    fixed = copy.read_text().splitlines()
    assert fixed[-3].strip() == "%output1_copy = mhlo.copy %arg0 : tensor<4xf32>"
    assert fixed[-2].strip().startswith("return %m") and "%output1_copy :" in fixed[-2]


def test_a_byte_that_is_not_utf8_is_reported_on_its_line(dump: Path, tmp_path: Path) -> None:
    data = bytearray(dump.read_bytes())
    at = data.index(b"\n", len(data) // 2)
    data[at:at] = b" // \xff"
    broken = tmp_path / "broken.mlir"
    broken.write_bytes(bytes(data))
    done = passlint("check", broken.name, cwd=tmp_path)
    line = data.count(b"\n", 0, at) + 1
    assert done.returncode == 2
    assert f"broken.mlir: not UTF-8 (invalid byte at line {line}); not checked" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_progress_bar_moves_with_the_megabytes_read(dump: Path) -> None:
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "passlint", "check", dump.name],
        cwd=dump.parent,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=dict(os.environ, PASSLINT_PROGRESS_DELAY="0"),
    )
    os.close(follower)
    process.communicate(timeout=120)
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
    assert f"0/1 files (1/{dump.stat().st_size // 1_000_000} MB)" in stderr
    assert stderr.endswith("\r\x1b[2K")
