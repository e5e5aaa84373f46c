"""passlint against the real pass's stored verdicts on passlint's pl corpus
(tests/data/pl/oracle/truth.json, written by tests/oracle/regenerate.py with the oracle), so
that the comparison runs everywhere, without the oracle.

``KNOWN`` lists the files where passlint disagrees today, each with the disagreement; they
are strict expected failures, so a change that makes passlint agree fails until it takes
its file off the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle.compare import compare_file
from oracle.oracle_run import pl_files, predictions
from oracle.regenerate import CORPUS, STORED
from oracle.truth import Truth, load

KNOWN: dict[str, str] = {
    "oracle/nesting.py": "kernels of programs built in a builder, a test method or under "
    "with/for/if/try are not analysed; the bare call of a kernel nested in a test function "
    "is not found",
    "oracle/outlined.py": "the kernel the pipeline outlines from `with pl.at(...)` is not predicted",
    "oracle/rejected.py": "rejections inside builders are not reported (compound-only slot: "
    "VS002; parser: conflicting bindings VS003, late scalar VS005)",
    "oracle/scoping.py": "kernels in closures, builders and test methods are not analysed",
    "oracle/uses_shared_kernels.py": "calls of a kernel imported under an alias (`from m import "
    "k as other`) are not found, in a module-level program too",
    "oracle/submit.py": "the submit that omits the pl.Out, in a builder's program, is not "
    "reported (VS004)",
}

FILES = [str(p.relative_to(CORPUS)) for p in pl_files(CORPUS, ["."])]


@pytest.fixture(scope="module")
def stored() -> Truth:
    return load(STORED)


@pytest.mark.parametrize(
    "rel",
    [
        pytest.param(rel, marks=pytest.mark.xfail(reason=KNOWN[rel], strict=True))
        if rel in KNOWN
        else rel
        for rel in FILES
    ],
)
def test_passlint_agrees_with_the_stored_truth(rel: str, stored: Truth) -> None:
    text, prediction = predictions(CORPUS, [CORPUS / rel])[rel]
    report = compare_file(rel, text, stored.file(rel), prediction)
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
