"""`passlint check` on pl sources, through a subprocess: text and JSON, files and folders."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "pl"


def run(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passlint", "check", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_text_format_for_a_file(tmp_path: Path) -> None:
    shutil.copy(DATA / "softmax_prepare.py", tmp_path)
    result = run(tmp_path, "softmax_prepare.py")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "softmax_prepare.py:14:50: VS001 Kernel 'softmax_prepare' cannot bind 'VALID'; add it "
        "as a leading parameter."
    )
    assert lines[-1].startswith("Found 1 finding")


def test_json_format_for_a_file(tmp_path: Path) -> None:
    shutil.copy(DATA / "late_scalar_param.py", tmp_path)
    result = run(tmp_path, "--format", "json", "late_scalar_param.py")
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    [finding] = document["findings"]
    assert finding["code"] == "VS005"
    assert finding["name"] == "scalar-param-after-use"
    assert finding["severity"] == "error"
    assert finding["range"] == {
        "start": {"line": 17, "column": 9},
        "end": {"line": 17, "column": 40},
    }
    assert finding["fix"]["title"] == "Move parameter 'LATE_VALID' in front of 'x'"
    assert len(finding["fix"]["edits"]) == 2


def test_folder_with_cross_file_kernel_and_non_pl_files(tmp_path: Path) -> None:
    folder = tmp_path / "proj"
    shutil.copytree(DATA / "cross_file", folder)
    (folder / "helper.py").write_text("import os\nprint(os.getcwd())\n")
    (folder / "broken_plain.py").write_text("def (:\n")
    result = run(tmp_path, "--format", "json", "proj")
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert [(Path(f["path"]).name, f["code"]) for f in findings] == [("kernels.py", "VS001")]
    # every edit's file named as the finding's is (the other file's, found through the
    # workspace, too): relative to the working folder, or in full when the path given is
    edited = [e["path"] for e in findings[0]["fix"]["edits"]]
    assert edited == ["proj/kernels.py", "proj/program.py", "proj/program.py"]
    absolute = json.loads(run(tmp_path, "--format", "json", str(folder)).stdout)["findings"]
    real = os.path.realpath(folder)
    assert [e["path"] for e in absolute[0]["fix"]["edits"]] == [
        f"{real}/kernels.py",
        f"{real}/program.py",
        f"{real}/program.py",
    ]
    text = run(tmp_path, "proj")
    assert text.returncode == 1
    assert text.stdout.splitlines()[-1].startswith("Found 1 finding")
    assert "2 files" in text.stdout.splitlines()[-1]


def test_a_folder_named_with_two_dots_is_below_the_working_folder(tmp_path: Path) -> None:
    """``..proj`` is a folder here, not the parent: JSON and ``--diff`` name its files
    relative to the working folder, as they name a finding's file."""
    shutil.copytree(DATA / "cross_file", tmp_path / "..proj")
    findings = json.loads(run(tmp_path, "--format", "json", "..proj").stdout)["findings"]
    assert [e["path"] for e in findings[0]["fix"]["edits"]] == [
        "..proj/kernels.py",
        "..proj/program.py",
        "..proj/program.py",
    ]
    diff = run(tmp_path, "--diff", "..proj").stdout
    assert "--- a/..proj/program.py\n+++ b/..proj/program.py\n" in diff


def test_clean_folder_and_cases_folder(tmp_path: Path) -> None:
    shutil.copytree(DATA / "clean", tmp_path / "clean")
    result = run(tmp_path, "clean")
    # nothing for the pass; but two views without a layout, which Python rejects (VS009),
    # and a valid_shape reading a parameter, where Python raises NameError first (VS006)
    assert result.returncode == 1, result.stdout + result.stderr
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [
        ["clean/physical_dims.py:13:62:", "VS009"],
        ["clean/physical_dims.py:14:38:", "VS009"],
        ["clean/scalar_params.py:17:98:", "VS006"],
        ["Found", "3"],
    ]
    shutil.copy(DATA / "valid_shape_cases.py", tmp_path)
    result = run(tmp_path, "--format", "json", "valid_shape_cases.py")
    codes = [f["code"] for f in json.loads(result.stdout)["findings"]]
    assert codes == ["VS001"] + ["VS002"] + ["VS001"] * 6 + ["VS003", "VS004"]


def test_syntax_error_and_no_execution(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("import pypto.language as pl\n\ndef k(x:\n    return x\n")
    shutil.copy(DATA / "side_effect.py", tmp_path)
    marker = tmp_path / "marker.txt"
    result = run(tmp_path, ".", env={"PASSLINT_MARKER": str(marker)})
    assert result.returncode == 1, result.stderr
    assert "bad.py:3:6: E002 Python syntax error" in result.stdout
    assert "side_effect.py:14:71: VS001" in result.stdout
    assert not marker.exists()


KERNEL_USED_AS_VALUE = """\
import pypto.language as pl

R = pl.dynamic("R")
V = pl.dynamic("V")


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[R, 64], pl.FP32, pl.TensorView(valid_shape=[R, V])]):
    return x


KERNELS = [k]
"""


def test_a_fix_that_leaves_work_by_hand_is_reported_and_never_applied(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(KERNEL_USED_AS_VALUE)
    result = run(tmp_path, "--output-format", "json", "m.py")
    assert result.returncode == 1, result.stderr
    layout, finding = json.loads(result.stdout)["findings"]
    assert layout["code"] == "VS009"  # the view has no layout
    assert finding["code"] == "VS001"
    assert finding["fix"]["preferred"] is False
    assert finding["fix"]["title"].endswith("edit by hand: m.py:12:12 (k)")
    fixed = run(tmp_path, "--fix", "m.py")
    assert fixed.returncode == 1
    # only the layout (VS009) is added
    assert (tmp_path / "m.py").read_text() == KERNEL_USED_AS_VALUE.replace(
        "valid_shape=[R, V])", "valid_shape=[R, V], layout=pl.TensorLayout.ND)"
    )
    assert "fixable" not in fixed.stdout


LAYOUTLESS_PROGRAM = """\
import pypto.language as pl

Q, BLK, VALID = pl.dynamic("Q"), pl.dynamic("BLK"), pl.dynamic("VALID")


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sij: pl.Tensor[[Q, BLK], pl.FP32, pl.TensorView(valid_shape=[Q, VALID])]):
        return sij

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, sij: pl.Tensor[[Q, BLK], pl.FP32], valid_len: pl.Scalar[pl.INDEX]):
        part = pl.slice(sij, [16, 128], [0, 0], valid_shape=[16, valid_len])
        return self.kernel(part)
"""


def test_fix_applies_the_layout_and_the_vs001_fix_together(tmp_path: Path) -> None:
    (tmp_path / "prog.py").write_text(LAYOUTLESS_PROGRAM)
    found = run(tmp_path, "--output-format", "json", "prog.py")
    codes = [f["code"] for f in json.loads(found.stdout)["findings"]]
    assert codes == ["VS009", "VS001"], found.stdout
    fixed = run(tmp_path, "--fix", "prog.py")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert fixed.stdout.startswith("Fixed 2 findings.\nAll checks passed")
    assert (tmp_path / "prog.py").read_text() == LAYOUTLESS_PROGRAM.replace(
        "def kernel(self, sij: pl.Tensor[[Q, BLK], pl.FP32, pl.TensorView(valid_shape=[Q, VALID])]",
        "def kernel(self, VALID: pl.Scalar[pl.INDEX], sij: pl.Tensor[[Q, BLK], pl.FP32, "
        "pl.TensorView(valid_shape=[Q, VALID], layout=pl.TensorLayout.ND)]",
    ).replace("self.kernel(part)", "self.kernel(valid_len, part)")
    again = run(tmp_path, "--fix", "prog.py")
    assert again.stdout.startswith("All checks passed")
