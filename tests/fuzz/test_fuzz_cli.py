"""`passlint check` in a subprocess on folders of fuzzed files: never a traceback, exit
status 0, 1 or 2, valid JSON; `--fix` likewise, and what it writes still parses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fuzz_counts import CRASHES, TRIED
from fuzz_gen import mlir_module, mutated_mlir, mutated_pl, pl_source
from hypothesis import given, settings
from hypothesis import strategies as st

# One example is a folder of files and two passlint processes: a 50th of the other targets'
# example count (8 folders in the ci profile, 30 nightly).
EXAMPLES = max(3, settings().max_examples // 50)


@st.composite
def folder(draw: st.DrawFn) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    texts = st.one_of(mutated_mlir(), mlir_module())
    for i in range(draw(st.integers(1, 12))):
        files[f"m{i}.mlir"] = draw(texts).encode("utf-8", "surrogatepass")
    for i in range(draw(st.integers(1, 12))):
        files[f"k{i}.py"] = draw(st.one_of(mutated_pl(), pl_source())).encode(
            "utf-8", "surrogatepass"
        )
    for name in draw(st.lists(st.sampled_from(sorted(files)), max_size=3, unique=True)):
        data = bytearray(files[name])  # raw byte flips: possibly not UTF-8 any more
        for _ in range(draw(st.integers(1, 3))):
            if data:
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        files[name] = bytes(data)
    return files


def passlint(*args: str, cwd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passlint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


@settings(max_examples=EXAMPLES)
@given(folder())
def test_check_and_fix_on_a_folder_of_fuzzed_files(files: dict[str, bytes]) -> None:
    TRIED["cli folders"] += 1
    TRIED["cli files"] += len(files)
    with tempfile.TemporaryDirectory() as root:
        for name, data in files.items():
            Path(root, name).write_bytes(data)
        Path(root, "pyproject.toml").write_text(
            '[tool.passlint]\nextend-select = ["PL", "TL005"]\n'
        )
        checked = passlint("check", "--format", "json", ".", cwd=root)
        fixed = passlint("check", "--fix", "--quiet", ".", cwd=root)
        for result in (checked, fixed):
            if "Traceback" in result.stderr + result.stdout or result.returncode not in (0, 1, 2):
                CRASHES["cli folders"] += 1
            assert "Traceback" not in result.stderr + result.stdout, result.stderr
            assert result.returncode in (0, 1, 2), result.stderr
        report = json.loads(checked.stdout)
        assert report["version"] == 1
        for finding in report["findings"]:
            assert finding["range"]["start"]["line"] >= 1
        # --fix never made a file that parsed before stop parsing
        after = passlint("check", "--format", "json", "--select", "E", ".", cwd=root)
        before_errors = {f["path"] for f in report["findings"] if f["code"].startswith("E")}
        after_errors = {f["path"] for f in json.loads(after.stdout)["findings"]}
        assert after_errors <= before_errors
