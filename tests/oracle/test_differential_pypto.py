"""passlint against pypto's real MaterializeValidShapeSymbols pass, over the pass's own
repository: every program its tests/ and examples/ build (docs/differential.md).

Opt-in (marker ``oracle``): needs ``PASSLINT_PYPTO_PYTHON`` and ``PASSLINT_PYPTO_CHECKOUT``;
``PASSLINT_ORACLE_TRUTH`` may name ground truth already recorded for that checkout (recording
runs pypto's whole test suite, which takes a long time).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from oracle.compare import compare
from oracle.oracle_run import SUMMARIES, TRUTH_ENV, check_fixes, pl_files, predictions, record
from oracle.truth import Truth, load

pytestmark = pytest.mark.oracle

FOLDERS = ["tests", "examples"]
# pypto's system tests build their programs only for a platform; --codegen-only stops them
# before they need a device or its toolchain.
OPTIONS = ("--pytest-args", "tests/st=--platform=a2a3sim --codegen-only")


@pytest.fixture(scope="module")
def truth(oracle: str, pypto_checkout: Path, tmp_path_factory: pytest.TempPathFactory) -> Truth:
    recorded = os.environ.get(TRUTH_ENV)
    if recorded:
        found = load(recorded)
        if Path(found.root).resolve() != pypto_checkout:
            pytest.fail(
                f"{TRUTH_ENV}={recorded} was recorded for {found.root}, not {pypto_checkout}"
            )
        return found
    out = tmp_path_factory.mktemp("oracle") / "truth.json"
    return record(oracle, pypto_checkout, [pypto_checkout / f for f in FOLDERS], out, OPTIONS)


def test_the_oracle_built_the_programs(truth: Truth) -> None:
    """Silence is worth something only where programs were built: a recorder that no longer
    sees pypto's programs (its front end changed) must not make the comparison pass."""
    assert truth.summary["programs"] > 0, "the oracle recorded no program"
    assert not truth.document.get("recorder_errors"), truth.document["recorder_errors"][:3]


def test_passlint_agrees_with_the_pass(truth: Truth, pypto_checkout: Path) -> None:
    files = pl_files(pypto_checkout, FOLDERS)
    report = compare(truth, predictions(pypto_checkout, files))
    SUMMARIES.append(f"pypto checkout {pypto_checkout}:\n{report.text()}")
    print(report.text())
    assert not report.disagreements, report.text()


def test_fixed_files_leave_the_pass_nothing_to_add(
    oracle: str, truth: Truth, pypto_checkout: Path, tmp_path: Path
) -> None:
    target = tmp_path / "fixed"
    changed, disagreements = check_fixes(
        oracle, pypto_checkout, FOLDERS, truth, target, "pypto checkout", OPTIONS
    )
    if not changed:
        pytest.skip("passlint fixes nothing in this checkout")
    assert not disagreements, disagreements
