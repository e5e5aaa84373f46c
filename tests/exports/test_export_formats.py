"""The jax export corpus in the other formats passlint reads (tests/data/formats/, written by
bench/export_formats.py from tests/data/exports/): each file gives the TL codes of the same
program as .mlir text (test_export_codes.EXPECTED), through `passlint check` as a user runs
it over the folder. The HLO files are read without jax; the bytecode files need jaxlib's
MLIR bindings (the `bytecode` extra; without it, the check says so)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_export_codes import EXPECTED, EXPORTS

FORMATS = EXPORTS.parent / "formats"
HLO_SUFFIXES = (".hlo", ".hlo.pb", ".hlo_module.pb")
BYTECODE_SUFFIXES = (".mlirbc", ".portable.mlirbc")
HAS_JAXLIB = importlib.util.find_spec("jaxlib") is not None

# Where XLA's HLO of a program is another program than its .mlir: jaxlib's MLIR-to-HLO
# conversion writes a splat constant as a `broadcast` of a scalar `constant` (the rewrite
# stage A of the StableHLO variant makes, so there is nothing left to report), and returns a
# Shardy-sharded result through an `xla.sdy.FuncResultSharding` custom-call (a buffer of its
# own, not the parameter).
HLO_DIFFERENT: dict[str, list[str]] = {
    "jax__constant_splat": [],
    "jax__shardy_input_returned": [],
}


def _stem(name: str) -> str:
    """``jax__<case>`` of a corpus file (the longest suffix first: ``.portable.mlirbc``)."""
    for suffix in sorted((*HLO_SUFFIXES, *BYTECODE_SUFFIXES), key=len, reverse=True):
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    raise AssertionError(f"not a corpus file: {name}")


def _suffix(name: str) -> str:
    return name.removeprefix(_stem(name))


CORPUS = sorted(p.name for p in FORMATS.glob("jax__*"))


@dataclass(frozen=True)
class Checked:
    """What `passlint check --output-format json` said of the folder: codes per file, and
    its standard error."""

    codes: dict[str, list[str]]
    stderr: str


@pytest.fixture(scope="module")
def checked() -> Checked:
    command = [sys.executable, "-m", "passlint", "check", "--output-format", "json"]
    result = subprocess.run(
        [*command, "--exit-zero", str(FORMATS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # (without jaxlib the bytecode files are not checked: exit 2)
    assert result.returncode == (0 if HAS_JAXLIB else 2), result.stderr
    found: dict[str, list[str]] = {name: [] for name in CORPUS}
    for finding in json.loads(result.stdout)["findings"]:
        found[Path(finding["path"]).name].append(finding["code"])
    return Checked(found, result.stderr)


def test_every_program_is_in_every_format_jaxlib_writes() -> None:
    stems = {p.stem for p in EXPORTS.glob("jax__*.mlir") if not p.stem.endswith("__generic")}
    assert {_stem(name) for name in CORPUS} == stems
    readme = (FORMATS / "README.md").read_text(encoding="utf-8")
    for stem in stems:
        for suffix in (*HLO_SUFFIXES, *BYTECODE_SUFFIXES):
            assert (stem + suffix in CORPUS) or f"`{stem}.mlir`" in readme, stem + suffix


@pytest.mark.parametrize("name", [n for n in CORPUS if _suffix(n) in HLO_SUFFIXES])
def test_hlo_gives_the_codes_of_the_mlir(name: str, checked: Checked) -> None:
    stem = _stem(name)
    expected = HLO_DIFFERENT.get(stem, EXPECTED[stem + ".mlir"])
    assert checked.codes[name] == expected


@pytest.mark.parametrize("name", [n for n in CORPUS if _suffix(n) in BYTECODE_SUFFIXES])
def test_bytecode_gives_the_codes_of_the_mlir(name: str, checked: Checked) -> None:
    """Read by jaxlib (the bytecode extra); without it, the file is not checked, and the
    check says what to install."""
    if not HAS_JAXLIB:
        assert f"{name}: reading MLIR bytecode needs jaxlib's MLIR bindings" in checked.stderr
        return
    assert checked.codes[name] == EXPECTED[_stem(name) + ".mlir"]
