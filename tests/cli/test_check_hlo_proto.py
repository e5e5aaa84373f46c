"""`passlint check` on HLO protocol buffers through a subprocess: `*.hlo.pb` (an `HloProto`)
and `*.hlo_module.pb` (an `HloModuleProto`) are found and read as bytes (other `.pb` files
are not), their findings are printed at 1:1 in text, JSON and SARIF (no region: a binary
file), an unreadable one is E011, `max-file-size` skips a large one, and `--fix` never
writes one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_testing import assert_no_traceback, passlint

PROTOS = Path(__file__).resolve().parents[1] / "data" / "hlo" / "proto"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in (
        "returns_parameter.hlo.pb",
        "returns_constant.hlo_module.pb",
        "returned_twice.hlo.pb",
        "clean.hlo_module.pb",
        "truncated.hlo.pb",
    ):
        shutil.copy(PROTOS / name, tmp_path / name)
    (tmp_path / "model.pb").write_bytes(b"\xff\x00 not an HLO proto")
    return tmp_path


def test_check_a_folder_of_protos_as_json(folder: Path) -> None:
    result = passlint("check", "--format", "json", ".", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    found = [(f["path"], f["code"], f["range"]["start"]["line"]) for f in findings]
    assert found == [
        ("returned_twice.hlo.pb", "TL003", 1),
        ("returns_constant.hlo_module.pb", "TL002", 1),
        ("returns_parameter.hlo.pb", "TL001", 1),
        ("truncated.hlo.pb", "E011", 1),
    ]
    for finding in findings:
        assert finding["fix"] is None and finding["range"]["start"]["column"] == 1
    assert "model.pb" not in result.stdout + result.stderr


def test_the_text_output_names_the_file_and_the_instruction(folder: Path) -> None:
    result = passlint("check", "returns_parameter.hlo.pb", "truncated.hlo.pb", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "returns_parameter.hlo.pb:1:1: TL001 Output 0 ('output0') returns parameter `x.1`; "
        "copy it before the ROOT."
    )
    assert lines[1] == (
        "truncated.hlo.pb:1:1: E011 The HLO proto cannot be read at byte 0; write it again "
        "with XLA. A length of 787 bytes runs past the end of its message."
    )
    assert "\x00" not in result.stdout  # (no line of a binary file is shown)


def test_sarif_gives_the_file_without_a_region(folder: Path) -> None:
    result = passlint("check", "--format", "sarif", "returned_twice.hlo.pb", cwd=folder)
    assert_no_traceback(result)
    [run] = json.loads(result.stdout)["runs"]
    [finding] = run["results"]
    assert finding["ruleId"] == "TL003"
    [location] = finding["locations"]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "returned_twice.hlo.pb"
    assert "region" not in location["physicalLocation"] and "fixes" not in finding


def test_a_clean_proto_passes_and_counts_as_checked(folder: Path) -> None:
    result = passlint("check", "clean.hlo_module.pb", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    shown = passlint("check", "--show-files", ".", cwd=folder)
    assert shown.stdout.split() == [
        "clean.hlo_module.pb",
        "returned_twice.hlo.pb",
        "returns_constant.hlo_module.pb",
        "returns_parameter.hlo.pb",
        "truncated.hlo.pb",
    ]


def test_fix_leaves_the_protos_byte_identical(folder: Path) -> None:
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    result = passlint("check", "--fix", ".", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 1
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    diff = passlint("check", "--diff", ".", cwd=folder)
    assert diff.stdout == "" and diff.returncode == 0, diff.stdout + diff.stderr


def test_max_file_size_skips_a_large_proto(folder: Path) -> None:
    (folder / "pyproject.toml").write_text("[tool.passlint]\nmax-file-size = 100\n")
    result = passlint("check", "returns_constant.hlo_module.pb", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "returns_constant.hlo_module.pb: skipped: 787 bytes" in result.stderr
    assert "more than max-file-size (100)" in result.stderr


def test_select_and_ignore_apply_to_protos(folder: Path) -> None:
    result = passlint("check", "--format", "json", "--ignore", "TL001,E011", ".", cwd=folder)
    assert_no_traceback(result)
    codes = [f["code"] for f in json.loads(result.stdout)["findings"]]
    assert codes == ["TL003", "TL002"]


def test_a_link_out_of_the_workspace_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "ws").mkdir()
    shutil.copy(PROTOS / "returns_parameter.hlo.pb", tmp_path / "out" / "p.hlo.pb")
    (tmp_path / "ws" / "link.hlo.pb").symlink_to(tmp_path / "out" / "p.hlo.pb")
    result = passlint("check", ".", cwd=tmp_path / "ws")
    assert_no_traceback(result)
    assert result.returncode == 0 and "TL001" not in result.stdout
    assert "link.hlo.pb: links outside the workspace" in result.stderr
