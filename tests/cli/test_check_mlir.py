"""`passlint check` on .mlir files, through a subprocess: JSON shape, text format, exit codes.

The TL pass adds findings of its own on valid files; these tests select or filter the E codes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "mlir"
ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "passlint", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of mixed valid and invalid .mlir files (and a file that is not checked)."""
    (tmp_path / "valid").mkdir()
    for name in ("jax__identity.mlir", "handmade__mhlo_fusion_hybrid.mlir"):
        (tmp_path / "valid" / name).write_text((DATA / name).read_text())
    (tmp_path / "broken.mlir").write_text((DATA / "invalid" / "broken_statements.mlir").read_text())
    (tmp_path / "truncated.mlir").write_text((DATA / "invalid" / "truncated.mlir").read_text())
    (tmp_path / "empty.mlir").write_text("")
    (tmp_path / "notes.txt").write_text("%0 = (\n")
    return tmp_path


EXPECTED_E = [
    (
        "broken.mlir",
        "E009",
        3,
        31,
        3,
        32,
        "Unbalanced ')': no opening bracket matches it; remove it or add the opener.",
    ),
    ("broken.mlir", "E001", 5, 8, 5, 9, "Unexpected '='; expected an operation name."),
    (
        "broken.mlir",
        "E009",
        6,
        42,
        6,
        42,
        "Expected ')' to close the '(' opened here; add it before the end of the statement.",
    ),
    (
        "truncated.mlir",
        "E009",
        4,
        1,
        4,
        1,
        "Expected '}' to close the region opened here; add it at the end.",
    ),
    (
        "truncated.mlir",
        "E009",
        4,
        1,
        4,
        1,
        "Expected '}' to close the region opened here; add it at the end.",
    ),
]


def syntax_errors(findings: list[dict[str, object]]) -> list[tuple[object, ...]]:
    out = []
    for f in findings:
        if not str(f["code"]).startswith("E"):
            continue
        rng = f["range"]
        assert isinstance(rng, dict)
        out.append(
            (
                Path(str(f["path"])).name,
                f["code"],
                rng["start"]["line"],
                rng["start"]["column"],
                rng["end"]["line"],
                rng["end"]["column"],
                f["message"],
            )
        )
    return sorted(out, key=lambda t: (str(t[0]), t[2], t[3]))


def test_json_on_a_mixed_folder(folder: Path) -> None:
    result = run("check", "--format", "json", ".", cwd=folder)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert set(document) == {"version", "findings"}
    assert document["version"] == 1
    assert syntax_errors(document["findings"]) == EXPECTED_E
    for finding in document["findings"]:
        assert set(finding) == {"path", "code", "name", "severity", "message", "range", "fix"}
        assert set(finding["range"]) == {"start", "end"}
        for end in ("start", "end"):
            assert set(finding["range"][end]) == {"line", "column"}
            assert finding["range"][end]["line"] >= 1 and finding["range"][end]["column"] >= 1
        fix = finding["fix"]
        assert fix is None or (
            set(fix) == {"title", "preferred", "edits"} and isinstance(fix["edits"], list)
        )
        for edit in fix["edits"] if fix else []:
            assert set(edit) == {"path", "range", "new_text"}
    first = next(f for f in document["findings"] if f["code"] == "E009")
    assert first == {
        "path": first["path"],
        "code": "E009",
        "name": "unbalanced-brackets",
        "severity": "error",
        "message": "Unbalanced ')': no opening bracket matches it; remove it or add the opener.",
        "range": {"start": {"line": 3, "column": 31}, "end": {"line": 3, "column": 32}},
        "fix": None,
    }
    assert Path(first["path"]).name == "broken.mlir"
    # No E finding for valid files, the empty file, or files that are not checked.
    assert {Path(f["path"]).name for f in document["findings"] if f["code"][0] == "E"} == {
        "broken.mlir",
        "truncated.mlir",
    }


def test_json_with_select_only_has_e_codes(folder: Path) -> None:
    result = run("check", "--format", "json", "--select", "E", str(folder), cwd=folder)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert {f["code"] for f in document["findings"]} == {"E001", "E009"}
    assert syntax_errors(document["findings"]) == EXPECTED_E


def test_clean_files_exit_zero(folder: Path) -> None:
    result = run("check", "--format", "json", "--select", "E", "valid", "empty.mlir", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"version": 1, "findings": []}
    text = run("check", "--select", "E", "valid", cwd=folder)
    assert text.returncode == 0
    assert text.stdout == "All checks passed (2 files checked).\n"


def test_text_format(folder: Path) -> None:
    result = run("check", "--select", "E", "broken.mlir", "truncated.mlir", cwd=folder)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:-1] == [
        f"{path}:{line}:{column}: {code} {message}"
        for path, code, line, column, _, _, message in EXPECTED_E
    ]
    assert lines[-1].startswith("Found 5 findings (")
    assert lines[-1].endswith(" in 2 files.")


def test_check_alias_and_python_module(folder: Path) -> None:
    alias = run("--check", "--format", "json", "--select", "E", ".", cwd=folder)
    check = run("check", "--format", "json", "--select", "E", ".", cwd=folder)
    assert alias.returncode == check.returncode == 1
    assert json.loads(alias.stdout) == json.loads(check.stdout)


def test_unknown_flag_is_a_usage_error(folder: Path) -> None:
    result = run("check", "--no-such-flag", ".", cwd=folder)
    assert result.returncode == 2
    assert "--no-such-flag" in result.stderr


def test_missing_path_is_a_usage_error(folder: Path) -> None:
    result = run("check", "--format", "json", "missing.mlir", cwd=folder)
    assert result.returncode == 2
    assert "missing.mlir" in result.stderr
    result = run("--check", "missing.mlir", "valid", cwd=folder)
    assert result.returncode == 2


def test_undecodable_file_is_reported_and_exits_two(folder: Path) -> None:
    (folder / "binary.mlir").write_bytes(b"\xff\xfe\x00garbage")
    result = run("check", "--select", "E", "binary.mlir", "valid", cwd=folder)
    assert result.returncode == 2
    assert "binary.mlir" in result.stderr


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="permissions do not apply")
def test_unreadable_file_exits_two(folder: Path) -> None:
    locked = folder / "locked.mlir"
    locked.write_text("module {\n}\n")
    locked.chmod(0)
    try:
        result = run("check", "locked.mlir", cwd=folder)
    finally:
        locked.chmod(0o644)
    assert result.returncode == 2
    assert "locked.mlir" in result.stderr


def test_binary_garbage_in_a_mlir_file_is_syntax_errors(folder: Path) -> None:
    (folder / "garbage.mlir").write_text("\x01\x02 func.func @f() {\n")
    result = run("check", "--format", "json", "--select", "E", "garbage.mlir", cwd=folder)
    assert result.returncode == 1
    found = syntax_errors(json.loads(result.stdout)["findings"])
    assert found[0] == (
        "garbage.mlir",
        "E001",
        1,
        1,
        1,
        2,
        "Unexpected character '\\x01'; remove it.",
    )
