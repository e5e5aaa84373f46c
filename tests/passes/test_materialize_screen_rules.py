"""The batch screen knows every rule of the pass (issue 28, point 4): ``SCREENED``, built from
the preconditions each VS rule declares (``Rule.screened``), has a line for each VS rule of
the catalog, with at least one precondition or (a standalone check's) a test of the text of
its own in ``OWN_TESTS`` (a rule added with neither fails here, instead of being skipped in a
batch of 64+ files), and for every finding of the test data the tests its rule names let the
file through."""

from __future__ import annotations

from pathlib import Path

import pytest

from passlint.analysis.workspace import Workspace
from passlint.catalog import RULES
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text
from passlint.passes.materialize_valid_shape_symbols.rules import PYTHON_SYNTAX_ERROR
from passlint.passes.materialize_valid_shape_symbols.screen import (
    OWN_TESTS,
    SCREENED,
    Precondition,
    lets_through,
    lets_through_findings_of,
    may_have_findings,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def test_the_screen_has_a_line_for_every_vs_rule_of_the_catalog() -> None:
    vs_rules = {code for code in RULES if code.startswith("VS")}
    assert vs_rules  # the catalog has the pass's rules
    assert set(SCREENED) == vs_rules | {PYTHON_SYNTAX_ERROR.code}
    assert all(tests or code in OWN_TESTS for code, tests in SCREENED.items())
    assert all(SCREENED[code] == RULES[code].screened for code in vs_rules)


def test_only_the_vs_rules_declare_screen_tests() -> None:
    assert {code for code, rule in RULES.items() if rule.screened} | set(OWN_TESTS) == {
        code for code in RULES if code.startswith("VS")
    }


def _findings_by_file() -> dict[Path, set[str]]:
    """The codes of the full (unscreened) analysis of every pl file of the test data."""
    workspace = Workspace([DATA])
    found: dict[Path, set[str]] = {}
    for path in sorted(DATA.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        file_codes = {finding.code for finding in check_text(str(path), text, workspace)}
        if file_codes:
            found[path] = file_codes
    return found


FOUND = _findings_by_file()


def test_the_test_data_has_a_finding_of_every_rule_of_the_screen() -> None:
    assert set().union(*FOUND.values()) == set(SCREENED)


@pytest.mark.parametrize("path", sorted(FOUND), ids=lambda p: str(p.relative_to(DATA)))
def test_the_screen_lets_every_file_with_a_finding_through_by_its_rules_preconditions(
    path: Path,
) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    workspace = Workspace([DATA], screen=True)
    assert may_have_findings(str(path), text, workspace)
    for code in sorted(FOUND[path]):
        assert lets_through_findings_of(code, str(path), text, workspace), code


def test_a_text_with_no_finding_is_let_through_by_no_precondition() -> None:
    text = "import pypto.language as pl\n\n\ndef plain(x: int) -> int:\n    return x\n"
    workspace = Workspace([DATA], screen=True)
    path = str(DATA / "not_there.py")
    assert not any(lets_through(p, path, text, workspace) for p in Precondition)
    assert not any(test(text) for test in OWN_TESTS.values())
    assert not may_have_findings(path, text, workspace)
