"""Every VS message in the style of docs/messages.md: the first sentence says what is wrong and
what to do in at most 100 characters; a capital (or a quote) first, full stops after."""

from __future__ import annotations

from pathlib import Path

import pytest

from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

DATA = Path(__file__).resolve().parents[1] / "data" / "pl"


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.py")), ids=lambda p: str(p.relative_to(DATA)))
def test_first_sentences_are_short_and_sentences_end(path: Path) -> None:
    for finding in check_text(str(path), path.read_text(), Workspace([path.parent])):
        if not finding.code.startswith("VS"):
            continue
        message = finding.message
        cut = message.find(". ")
        first = message if cut < 0 else message[: cut + 1]
        assert len(first) <= 100, first
        assert message[0].isupper() or message[0] in "'`", message
        assert message.endswith("."), message
        if finding.fix is not None:
            assert finding.fix.title and not finding.fix.title.endswith(".")
