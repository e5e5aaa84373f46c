"""`passlint check` on MLIR bytecode through a subprocess: `*.mlirbc` files (a module as MLIR
wrote it, a StableHLO portable artifact) are found, read as bytes and turned into text by
jaxlib's MLIR bindings, whose findings they give at the text's positions, with that text's
line shown and no fix (`--fix` never writes one); bytes MLIR cannot read are E012; without
jaxlib the file is not checked and the error names the extra to install."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest
from cli_testing import assert_no_traceback, passlint

DATA = Path(__file__).resolve().parents[1] / "data" / "bytecode"
NO_JAX = Path(__file__).resolve().parents[1] / "server" / "no_jax"
HAS_JAXLIB = importlib.util.find_spec("jaxlib") is not None
needs_jaxlib = pytest.mark.skipif(not HAS_JAXLIB, reason="jaxlib (the bytecode extra)")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("identity.mlirbc", "identity.portable.mlirbc", "not_bytecode.mlirbc"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def without_jax() -> dict[str, str]:
    """An environment whose Python cannot import jax or jaxlib (as without the extra)."""
    return {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(NO_JAX), os.environ.get("PYTHONPATH")]))
    }


@needs_jaxlib
def test_bytecode_and_portable_artifacts_give_the_findings_of_their_text(folder: Path) -> None:
    result = passlint("check", "--format", "json", ".", cwd=folder)
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    found = [(f["path"], f["code"], f["range"]["start"]["line"]) for f in findings]
    assert found == [
        ("identity.mlirbc", "TL001", 5),
        ("identity.portable.mlirbc", "TL001", 5),
        ("not_bytecode.mlirbc", "E012", 1),
    ]
    assert all(f["fix"] is None for f in findings)
    text = passlint("check", "--output-format", "full", "identity.mlirbc", cwd=folder)
    assert "identity.mlirbc:5:12: TL001 Output 0 ('output0') returns input `%arg0`" in text.stdout
    assert "return %arg0" in text.stdout  # (the line of jaxlib's text, shown under it)


def test_bytes_that_are_no_bytecode_are_e012(folder: Path) -> None:
    """Read without jaxlib: the first bytes already say it is not bytecode."""
    result = passlint("check", "not_bytecode.mlirbc", cwd=folder, env=without_jax())
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[0] == (
        "not_bytecode.mlirbc:1:1: E012 The MLIR bytecode cannot be read; write it again, or "
        "read it with the jaxlib that wrote it. MLIR's reader says: not MLIR bytecode (it does "
        "not start with ML\\xefR)."
    )


def test_without_jaxlib_the_file_is_not_checked_and_the_extra_is_named(folder: Path) -> None:
    result = passlint("check", "identity.mlirbc", cwd=folder, env=without_jax())
    assert_no_traceback(result)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "identity.mlirbc: reading MLIR bytecode needs jaxlib's MLIR bindings" in result.stderr
    assert "install them with `pip install jax==0.10.2 jaxlib==0.10.2`" in result.stderr
    assert "; not checked" in result.stderr


@needs_jaxlib
def test_sarif_gives_no_region_and_fix_writes_nothing(folder: Path) -> None:
    result = passlint("check", "--format", "sarif", "identity.mlirbc", cwd=folder)
    [finding] = json.loads(result.stdout)["runs"][0]["results"]
    [location] = finding["locations"]
    assert "region" not in location["physicalLocation"] and "fixes" not in finding
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    fixed = passlint("check", "--fix", ".", cwd=folder)
    assert_no_traceback(fixed)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_discovery_and_max_file_size(folder: Path) -> None:
    shown = passlint("check", "--show-files", ".", cwd=folder)
    assert shown.stdout.split() == [
        "identity.mlirbc",
        "identity.portable.mlirbc",
        "not_bytecode.mlirbc",
    ]
    (folder / "pyproject.toml").write_text("[tool.passlint]\nmax-file-size = 10\n")
    result = passlint("check", "identity.mlirbc", cwd=folder, env=without_jax())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "identity.mlirbc: skipped:" in result.stderr
