"""Promoting what a front end built straight to the oldest generation exempts nothing from
collection: a full collection runs once enough objects were promoted, and frees cycles."""

from __future__ import annotations

import gc
import weakref

import pytest

from passlint.analysis import collector
from passlint.analysis.collector import collector_paused


class Node:
    """A container the collector tracks (and that can be in a cycle)."""

    loop: Node | None = None


@pytest.fixture
def fresh_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    assert gc.isenabled()
    monkeypatch.setattr(collector, "FULL_AFTER", 5_000)
    monkeypatch.setattr(collector, "PROMOTE_AFTER", 0)
    monkeypatch.setattr(collector, "_promoted", 0)
    monkeypatch.setattr(collector, "_survivors", 0)


@pytest.mark.usefixtures("fresh_counts")
def test_promoted_cycles_are_freed_by_the_full_collection_that_follows() -> None:
    with collector_paused(promote=True):
        cycle = Node()
        cycle.loop = cycle
        alive = weakref.ref(cycle)
        del cycle
    assert alive() is not None  # garbage, but promoted: no young collection frees it
    kept = []
    with collector_paused(promote=True):
        kept = [Node() for _ in range(6_000)]  # more than FULL_AFTER promoted
    assert alive() is None
    assert collector._promoted == 0 and collector._survivors >= len(kept)


@pytest.mark.usefixtures("fresh_counts")
def test_no_full_collection_before_enough_objects_were_promoted() -> None:
    collections = gc.get_stats()[2]["collections"]
    with collector_paused(promote=True):
        kept = [Node() for _ in range(1_000)]
    assert gc.get_stats()[2]["collections"] == collections
    assert 1_000 <= collector._promoted < 5_000
    assert len(kept) == 1_000


def test_a_small_build_is_not_promoted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The re-analysis of an edit builds little: its garbage is left to the young
    generations, which free it at once."""
    monkeypatch.setattr(collector, "PROMOTE_AFTER", 10_000)
    monkeypatch.setattr(collector, "_promoted", 0)
    gc.collect()
    with collector_paused(promote=True):
        cycle = Node()
        cycle.loop = cycle
        alive = weakref.ref(cycle)
        del cycle
    assert collector._promoted == 0
    gc.collect(1)  # the young generations
    assert alive() is None


def test_without_promote_the_collector_is_left_as_it_was() -> None:
    before = gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled() == before
