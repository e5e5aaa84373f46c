"""SeenTwice keeps a result from its key's second offer on, within its bounds."""

from __future__ import annotations

import pytest

from passlint.analysis.mlir.seen_twice import SeenTwice


def test_a_result_is_kept_from_the_second_offer() -> None:
    cache: SeenTwice[str, int] = SeenTwice(100)
    cache.offer("a", 1, 1)
    assert cache.get("a") is None
    cache.offer("a", 1, 1)
    assert cache.get("a") == 1 and cache.held == 1


def test_both_bounds_start_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SeenTwice, "SEEN_LIMIT", 3)
    cache: SeenTwice[str, int] = SeenTwice(2)
    for key in "abcd":
        cache.offer(key, 0, 1)
    assert cache.seen == {hash("d")}  # the fourth key started the seen ones afresh
    cache.offer("d", 0, 1)
    assert cache.get("d") == 0
    cache.offer("c", 0, 2)
    cache.offer("c", 0, 2)  # over the held bound: what was kept goes
    assert cache.get("c") == 0 and cache.get("d") is None and cache.held == 2


def test_sighted_then_kept() -> None:
    """``sighted`` says whether a key came before (recording it); ``keep`` keeps a result
    the caller computed only then."""
    cache: SeenTwice[str, int] = SeenTwice(100)
    assert not cache.sighted("a") and cache.sighted("a") and cache.get("a") is None
    cache.keep("a", 1, 3)
    assert cache.get("a") == 1 and cache.held == 3
