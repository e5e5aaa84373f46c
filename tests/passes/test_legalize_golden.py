"""`passlint legalize` against golden outputs written by hand from the pass's description
(the case table, ``cases.py``): one fixture per case of the pass, compared byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.mlir.parser import parse_file
from passlint.passes.tensorizer_legalization.analysis import analyze_chunk
from passlint.passes.tensorizer_legalization.apply import legalize_text

GOLDEN = Path(__file__).parent.parent / "data" / "legalize"
INPUTS = sorted(p for p in GOLDEN.glob("*.mlir") if not p.name.endswith(".legalized.mlir"))


def expected_of(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".mlir") + ".legalized.mlir")


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_legalize_prints_the_golden_output(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    assert legalize_text(text) == expected_of(path).read_bytes().decode("utf-8")


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_each_fixture_is_legalized_by_the_variant_its_name_says(path: Path) -> None:
    [chunk] = parse_file(path.read_text()).chunks
    variant = analyze_chunk(chunk).variant
    assert path.stem.endswith(f"_{variant}")


def test_the_fixtures_meet_every_case_of_the_pass() -> None:
    met = set()
    for path in INPUTS:
        for chunk in parse_file(path.read_text()).chunks:
            met |= {output.case.name for output in analyze_chunk(chunk).outputs}
    assert met == {
        "input",
        "zero-sized-input",
        "zero-sized",
        "constant",
        "repeated",
        "splat-constant",
        "fusion",
        "composite",
        "compute",
    }


def test_the_cli_prints_the_golden_output_byte_for_byte() -> None:
    path = GOLDEN / "custom_forms_stablehlo.mlir"
    result = subprocess.run(
        [sys.executable, "-m", "passlint", "legalize", str(path)],
        capture_output=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == expected_of(path).read_bytes()


def test_tl003_fix_copies_what_the_pass_names_twice() -> None:
    """The pass names a value returned twice twice (the golden output); passlint's TL003
    fix, its own advice, still gives the later slot a copy of its own."""
    path = GOLDEN / "duplicate_stablehlo.mlir"
    [finding] = [f for f in pipeline.analyze(path.name, path.read_text()) if f.code == "TL003"]
    assert finding.fix is not None
    assert "%second_copy = mhlo.copy %0 : tensor<4xf32>" in finding.fix.edits[0].new_text
    assert "mhlo.copy %0" not in expected_of(path).read_text()


def test_the_cli_refuses_a_module_the_pass_fails_on() -> None:
    path = GOLDEN / "blocked" / "composite_kind_missing.mlir"
    result = subprocess.run(
        [sys.executable, "-m", "passlint", "legalize", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert ":4:" in result.stderr and "TL009" in result.stderr
