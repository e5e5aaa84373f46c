"""`--fix` and `--diff` through a subprocess, on copies of tests/data/cli/tree."""

from __future__ import annotations

import filecmp
import os
import stat
from pathlib import Path

from cli_testing import INPUT_MLIR, TREE, TREE_FIXED, assert_no_traceback, passlint


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_fix_is_byte_exact_and_reports_what_remains(tree: Path) -> None:
    os.chmod(tree / "input.mlir", 0o640)
    result = passlint("check", "--fix", "--extend-select", "PL100", ".", cwd=tree)
    assert result.returncode == 1  # E009 remains
    assert result.stdout == (
        "Fixed 5 findings.\n"
        "broken.mlir:3:46: E009 Expected ')' to close the '(' opened here; add it before the "
        "end of the statement.\n"
        "zero.mlir:3:12: TL006 Output 0 ('output0') has zero elements; the pass replaces it, "
        "nothing to change. Stage B of the StableHLO variant makes it a "
        "`stablehlo.custom_call @AwsNeuronZeroSizedOp` carrying `neuron.actual_shape` "
        "(tensor<0x4xf32>).\n"
        "Found 2 findings (1 error, 1 information) in 7 files.\n"
    )
    assert _files(tree) == _files(TREE_FIXED)  # byte for byte, and no temporary files left
    assert stat.S_IMODE(os.stat(tree / "input.mlir").st_mode) == 0o640
    again = passlint("check", "--fix", "--extend-select", "PL100", ".", cwd=tree)
    assert again.stdout.splitlines()[-1] == "Found 2 findings (1 error, 1 information) in 7 files."
    assert _files(tree) == _files(TREE_FIXED)


def test_fix_clean_exit_0(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "--fix", "input.mlir", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == "Fixed 1 finding.\nAll checks passed (1 file checked).\n"
    fixed = passlint("check", "--fix", "--format", "json", "--quiet", ".", cwd=tmp_path)
    assert (fixed.returncode, fixed.stderr) == (0, "")


def test_fix_keeps_crlf_and_other_bytes(tmp_path: Path) -> None:
    text = INPUT_MLIR.replace("\n", "\r\n").replace("module {", "module { // é ✓")
    (tmp_path / "crlf.mlir").write_bytes(text.encode())
    result = passlint("check", "--fix", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    data = (tmp_path / "crlf.mlir").read_bytes()
    assert data.startswith("module { // é ✓\r\n".encode())
    assert b"%output0_copy = mhlo.copy %arg0" in data


def test_fix_does_not_follow_symlinks_out_of_the_tree(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "model.mlir").write_text(INPUT_MLIR)
    project = tmp_path / "project"
    project.mkdir()
    (project / "inner.mlir").write_text(INPUT_MLIR)
    os.symlink(outside / "model.mlir", project / "link.mlir")
    os.symlink("inner.mlir", project / "alias.mlir")  # inside: the target is fixed once
    result = passlint("check", "--fix", ".", cwd=project)
    assert_no_traceback(result)
    assert result.returncode == 0  # the linked file is neither checked nor written
    assert (outside / "model.mlir").read_text() == INPUT_MLIR
    assert result.stderr == (
        "passlint: warning: link.mlir: links outside the workspace "
        f"(to {(outside / 'model.mlir').resolve()}); skipped\n"
    )
    assert (project / "link.mlir").is_symlink() and (project / "alias.mlir").is_symlink()
    assert (project / "inner.mlir").read_text().count("mhlo.copy") == 1
    assert result.stdout == "Fixed 1 finding.\nAll checks passed (1 file checked).\n"


def test_diff_prints_and_changes_nothing(tree: Path) -> None:
    result = passlint("check", "--diff", "input.mlir", "nested/twice.mlir", cwd=tree)
    assert result.returncode == 1
    assert result.stdout == (
        "--- a/input.mlir\n"
        "+++ b/input.mlir\n"
        "@@ -1,5 +1,6 @@\n"
        " module {\n"
        "   func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "-    return %arg0 : tensor<4xf32>\n"
        "+    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n"
        "+    return %output0_copy : tensor<4xf32>\n"
        "   }\n"
        " }\n"
        "--- a/nested/twice.mlir\n"
        "+++ b/nested/twice.mlir\n"
        "@@ -1,5 +1,7 @@\n"
        " module @jit_input_twice attributes {mhlo.num_partitions = 1 : i32, "
        "mhlo.num_replicas = 1 : i32} {\n"
        "   func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> "
        '{jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}) {\n'
        "-    return %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>\n"
        "+    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n"
        "+    %output1_copy = mhlo.copy %arg0 : tensor<4xf32>\n"
        "+    return %output0_copy, %output1_copy : tensor<4xf32>, tensor<4xf32>\n"
        "   }\n"
        " }\n"
    )
    assert result.stderr == "passlint: would fix 3 findings\n"
    assert not filecmp.dircmp(tree, TREE).diff_files
    assert _files(tree) == _files(TREE)
    # --fix --diff: the diff wins, nothing is written.
    both = passlint("check", "--fix", "--diff", "input.mlir", cwd=tree)
    assert both.returncode == 1 and both.stdout.startswith("--- a/input.mlir")
    assert _files(tree) == _files(TREE)
    assert passlint("check", "--diff", "--exit-zero", "input.mlir", cwd=tree).returncode == 0


def test_diff_without_fixes(tree: Path) -> None:
    result = passlint("check", "--diff", "clean.mlir", "broken.mlir", cwd=tree)
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr == "passlint: no fixes to apply\n"
    quiet = passlint("check", "--diff", "--quiet", "clean.mlir", cwd=tree)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_diff_of_a_file_without_final_newline(tmp_path: Path) -> None:
    (tmp_path / "a.mlir").write_text(INPUT_MLIR.rstrip("\n"))
    result = passlint("check", "--diff", "a.mlir", cwd=tmp_path)
    assert result.stdout.endswith(" }\n\\ No newline at end of file\n")
