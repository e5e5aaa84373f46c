"""passlint against the real pass's stored verdicts on passlint's pl corpus
(tests/data/pl/oracle/truth.json, written by tests/oracle/regenerate.py with the oracle), so
that the comparison runs everywhere, without the oracle. Every file must agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle.compare import KNOWN_DIVERGENCES, compare_file, sites_by_file
from oracle.oracle_run import pl_files, predictions
from oracle.predict import Prediction
from oracle.regenerate import CORPUS, STORED
from oracle.truth import Truth, load

FILES = [str(p.relative_to(CORPUS)) for p in pl_files(CORPUS, ["."])]


@pytest.fixture(scope="module")
def stored() -> Truth:
    return load(STORED)


@pytest.fixture(scope="module")
def predicted() -> dict[str, tuple[str, Prediction]]:
    """passlint's predictions for the whole corpus (a file's call sites of kernels defined
    in other files are found from those kernels' analyses)."""
    return predictions(CORPUS, [CORPUS / rel for rel in FILES])


@pytest.mark.parametrize("rel", FILES)
def test_passlint_agrees_with_the_stored_truth(
    rel: str, stored: Truth, predicted: dict[str, tuple[str, Prediction]]
) -> None:
    text, prediction = predicted[rel]
    report = compare_file(
        rel, text, stored.file(rel), prediction, sites_by_file(predicted).get(rel, [])
    )
    assert not report.disagreements, report.text()


def test_every_corpus_program_has_a_verdict(stored: Truth) -> None:
    """Each file of the oracle corpus was run: it built programs or kernels, or the pass
    or the parser rejected them."""
    for path in sorted((CORPUS / "oracle").glob("*.py")):
        found = stored.file(str(path.relative_to(CORPUS)))
        assert found.programs or found.built_kernels or found.rejections, path.name


def test_stored_truth_is_portable() -> None:
    assert load(STORED).root == "."
    assert Path(STORED).read_text(encoding="utf-8").find(str(CORPUS)) == -1


def test_each_known_divergence_still_occurs(
    stored: Truth, predicted: dict[str, tuple[str, Prediction]]
) -> None:
    """The list of known divergences (``compare.KNOWN_DIVERGENCES``) holds only what the
    comparison still finds: a divergence passlint no longer has must leave the list."""
    for rel, line, kind in KNOWN_DIVERGENCES:
        text, prediction = predicted[rel]
        report = compare_file(
            rel, text, stored.file(rel), prediction, sites_by_file(predicted).get(rel, [])
        )
        assert list(report.known) == [(rel, line, kind)], report.text()
