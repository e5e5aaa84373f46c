"""`passlint check` on HLO text through a subprocess: `.hlo` files, XLA dumps (`.txt` starting
with `HloModule`), other `.txt` files left alone, JSON output, `--fix` and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_testing import assert_no_traceback, passlint

DATA = Path(__file__).resolve().parents[1] / "data" / "hlo"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("outputs.hlo", "root_parameter.hlo", "broken.hlo", "dump.txt", "notes.txt"):
        shutil.copy(DATA / name, tmp_path / name)
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe not text")
    return tmp_path


def test_check_a_folder_of_hlo_files(folder: Path) -> None:
    result = passlint("check", "--format", "json", ".", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    found = [(f["path"], f["code"], f["range"]["start"]["line"]) for f in findings]
    assert found == [
        ("broken.hlo", "E010", 5),
        ("broken.hlo", "E010", 8),
        ("dump.txt", "TL002", 7),
        ("outputs.hlo", "TL001", 16),
        ("outputs.hlo", "TL002", 16),
        ("outputs.hlo", "TL006", 16),
        ("outputs.hlo", "TL003", 16),
        ("outputs.hlo", "TL007", 16),
        ("root_parameter.hlo", "TL001", 4),
    ]
    tl001 = next(f for f in findings if f["path"] == "outputs.hlo" and f["code"] == "TL001")
    assert tl001["name"] == "output-aliases-input"
    assert tl001["range"]["start"]["column"] == 114
    assert tl001["fix"]["edits"][1]["new_text"] == "x.1.copy"
    assert "notes.txt" not in result.stdout and "binary.txt" not in result.stderr


def test_check_one_file_in_text_format(folder: Path) -> None:
    result = passlint("check", "root_parameter.hlo", cwd=folder)
    assert result.returncode == 1
    assert result.stdout.startswith(
        "root_parameter.hlo:4:8: TL001 Output 0 ('output0') returns parameter `x`; copy it "
        "before the ROOT."
    )


def test_fix_writes_the_copies_and_a_second_check_is_clean(folder: Path) -> None:
    result = passlint("check", "--fix", "outputs.hlo", "root_parameter.hlo", cwd=folder)
    assert_no_traceback(result)
    assert (folder / "outputs.hlo").read_text() == (DATA / "outputs.fixed.hlo").read_text()
    again = passlint(
        "check", "--select", "TL001,TL002,TL003", "outputs.hlo", "root_parameter.hlo", cwd=folder
    )
    assert again.returncode == 0, again.stdout
    before = {p.name: p.read_text() for p in folder.iterdir() if p.suffix == ".hlo"}
    passlint("check", "--fix", "outputs.hlo", "root_parameter.hlo", cwd=folder)
    assert {p.name: p.read_text() for p in folder.iterdir() if p.suffix == ".hlo"} == before


def test_a_txt_file_that_is_not_hlo_is_not_checked(folder: Path) -> None:
    result = passlint("check", "notes.txt", "binary.txt", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 0, result.stderr
    assert "0 files checked" in result.stdout
