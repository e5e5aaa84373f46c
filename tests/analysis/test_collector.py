"""Promoting what a front end built straight to the oldest generation exempts nothing from
collection: a full collection runs once enough objects were promoted, and frees cycles. A
batch run freezes what each MLIR file's analysis leaves alive."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from passlint import runner
from passlint.analysis import collector
from passlint.analysis.collector import collector_paused
from passlint.analysis.mlir import statements
from passlint.config import Settings
from passlint.memo import Memo
from passlint.runner import Job, check_files

DATA = Path(__file__).resolve().parents[1] / "data" / "mlir"


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


def test_a_settled_analysis_freezes_what_survives_it() -> None:
    """An MLIR file of a batch run: what its analysis leaves alive is frozen, never scanned
    again; the collector is paused meanwhile and runs again after."""
    gc.collect()
    try:
        with collector.settled():
            assert not gc.isenabled()
            kept = Node()
        assert gc.isenabled() and gc.get_freeze_count() > 0
        assert kept not in gc.get_objects()  # frozen: in no generation the collector scans
    finally:
        gc.unfreeze()


def test_an_analysis_that_raises_is_not_frozen() -> None:
    """Its traceback holds what it built in cycles: that is left to the collector."""
    gc.collect()
    with pytest.raises(ValueError), collector.settled():
        cycle = Node()
        cycle.loop = cycle
        alive = weakref.ref(cycle)
        del cycle
        raise ValueError
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.collect()
    assert alive() is None


def test_a_batch_check_of_mlir_files_freezes_what_they_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the files of a batch leave alive (the parse caches in the run's memo) is frozen
    after each one: no collection scans it again, and none of the oldest generation runs
    between them."""
    text = (DATA / "handmade__mhlo_fusion_hybrid.mlir").read_text(encoding="utf-8")
    paths = []
    for n in range(40):
        path = tmp_path / f"m{n}.mlir"
        path.write_text(text.replace("@main", f"@main{n}", 1), encoding="utf-8")
        paths.append(str(path))
    job = Job(Settings(), (str(tmp_path),))
    generations: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    made: list[Memo] = []  # the run's memo, kept for the test

    def run_memo() -> Memo:
        made.append(Memo())
        return made[-1]

    monkeypatch.setattr(runner, "Memo", run_memo)
    gc.collect()
    gc.callbacks.append(record)
    try:
        results = check_files(paths, job, workers=1)
        scanned = {id(item) for item in gc.get_objects()}
        (memo,) = made
        cached = list(memo.mlir.templates.values())
    finally:
        gc.callbacks.remove(record)
        gc.unfreeze()
    assert all(result.checked and not result.error for result in results)
    assert cached and not any(id(template) in scanned for template in cached)
    assert 2 not in generations


def test_a_batch_freezes_no_cyclic_garbage(tmp_path: Path) -> None:
    """The analyses leave none (nor does loading the LALR tables on the first statement):
    nothing frozen is garbage."""
    path = tmp_path / "m.mlir"
    path.write_text((DATA / "handmade__mhlo_fusion_hybrid.mlir").read_text(encoding="utf-8"))
    statements._runner.cache_clear()
    gc.collect()
    try:
        check_files([str(path)] * 3, Job(Settings(), (str(tmp_path),)), workers=1)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
