"""passlint against pypto's real pass over passlint's own pl corpus (tests/data/pl): the
stored ground truth is what the pass says today, passlint agrees with it, and passlint's
fixes leave the pass nothing to add. Opt-in (marker ``oracle``, ``PASSLINT_PYPTO_PYTHON``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracle.compare import compare
from oracle.oracle_run import SUMMARIES, check_fixes, pl_files, predictions, record
from oracle.regenerate import CORPUS, STORED, portable
from oracle.truth import Truth

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def fresh(oracle: str, tmp_path_factory: pytest.TempPathFactory) -> Truth:
    out = tmp_path_factory.mktemp("oracle") / "truth.json"
    return record(oracle, CORPUS, [CORPUS], out)


def test_stored_truth_is_what_the_pass_says(fresh: Truth) -> None:
    assert fresh.summary["programs"] > 0, "the oracle recorded no program"
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    assert portable(fresh.document)["files"] == stored["files"], (
        "the stored ground truth is stale: run `python tests/oracle/regenerate.py`"
    )


def test_passlint_agrees_with_the_pass(fresh: Truth) -> None:
    report = compare(fresh, predictions(CORPUS, pl_files(CORPUS, ["."])))
    SUMMARIES.append(f"passlint's corpus tests/data/pl:\n{report.text()}")
    assert not report.disagreements, report.text()


def test_fixed_corpus_leaves_the_pass_nothing_to_add(
    oracle: str, fresh: Truth, tmp_path: Path
) -> None:
    entries = sorted(p.name for p in CORPUS.iterdir() if p.name != "__pycache__")
    target = tmp_path / "fixed"
    changed, disagreements = check_fixes(
        oracle, CORPUS, entries, fresh, target, "passlint's corpus"
    )
    if not changed:
        pytest.skip("passlint fixes nothing in its corpus")
    assert not disagreements, disagreements
