"""One worker process of the CI fuzz target (target.py): it makes the mutants it is sent,
checks each as the property tests do (fuzz_checks.check_document: the analysis, every fix
applied and re-checked, fix-all, the server's features) and, on a sample, measures whether
the input doubled costs about twice as much.

Protocol on its connection: it receives a mutant index (or ``None``: stop); before each
step it sends ``Started`` (the parent's watchdog times steps, and can rebuild the step's
input from it), after the mutant ``Done`` with the failures found."""

from __future__ import annotations

import runpy
import statistics
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection

from fuzz_checks import (
    EVERYTHING,
    MLIR_RUN,
    check_document,
    document_features,
    fix_all,
    run_memo,
    workspace_of,
)
from fuzz_inputs import ROOT, Mutant, Seeds, doubled, inflated, load_seeds, mutant

from passlint import pipeline
from passlint.passes.tensorizer_legalization.apply import legalize_text
from passlint.quick import quick_analyze

# Linearity: grow the input by doubling until one run costs MIN_BASE CPU seconds (or it has
# MAX_BASE characters), then flag a doubling that costs more than RATIO times as much and
# more than FLOOR seconds: measured once, then as the median of REPEATS runs, and the next
# doubling again.
MIN_BASE = 0.1
MAX_BASE = 2_000_000
MAX_LEVELS = 16
RATIO = 3.0
FLOOR = 0.2
REPEATS = 3


@dataclass(frozen=True)
class Failure:
    kind: str  # "crash", "property", "hang", "nonlinear"
    index: int
    stage: str  # "check", "base" or "doubled" (the linearity measurements)
    level: int  # how many times the mutant was doubled for this stage's input
    detail: str


@dataclass(frozen=True)
class Started:
    index: int
    stage: str
    level: int


@dataclass(frozen=True)
class Done:
    index: int
    failures: tuple[Failure, ...]


def is_sampled(index: int, every: int) -> bool:
    """Whether mutant ``index`` gets the linearity check: one mutant of each language in
    each ``3 * every`` (the languages take turns)."""
    return (index // 3) % every == 0


def stage_input(item: Mutant, stage: str, level: int) -> str:
    """The input of ``stage`` at ``level`` (what ``Started`` names), rebuilt."""
    text = inflated(item, level)
    return doubled(item, text, level) if stage == "doubled" else text


def serve(connection: Connection, seed: int, every: int, plugin: str | None) -> None:
    """The worker's main loop."""
    if plugin:
        runpy.run_path(plugin, run_name="passlint_fuzz_plugin")
    seeds = load_seeds()
    while True:
        index = connection.recv()
        if index is None:
            return
        connection.send(Done(index, tuple(_examine(connection, seeds, seed, index, every))))


def _examine(
    connection: Connection, seeds: Seeds, seed: int, index: int, every: int
) -> list[Failure]:
    item = mutant(seeds, seed, index)
    connection.send(Started(index, "check", 0))
    try:
        check_document(f"{item.language} target", item.path, {item.path: item.text}, ROOT)
    except AssertionError:
        return [Failure("property", index, "check", 0, traceback.format_exc())]
    except Exception:
        return [Failure("crash", index, "check", 0, traceback.format_exc())]
    if not is_sampled(index, every):
        return []
    linearity = _Linearity(connection, item)
    try:
        found = linearity.check()
    except AssertionError:  # fuzz_checks' time bound on an input under 100 KB
        return [Failure("property", index, *linearity.at, traceback.format_exc())]
    except Exception:
        return [Failure("crash", index, *linearity.at, traceback.format_exc())]
    return [found] if found else []


def passlint_work(item: Mutant, text: str) -> None:
    """What `passlint check --fix` and the server do with a whole ``text``: analyse it,
    apply every fix and analyse the result, build what the editor's features read (and the
    document's symbols and inlay hints); legalize an MLIR module. (Requests at a position
    are left out: each reads the document once, and how many of the check's fixed offsets
    hit a name changes with the text, so their total is no measure of growth.)"""
    path = item.path
    files = {path: text}
    findings = pipeline.analyze(path, text, EVERYTHING, workspace_of(files, ROOT), run_memo(path))
    fixed, _ = fix_all(files, findings)
    pipeline.analyze(path, fixed[path], EVERYTHING, workspace_of(fixed, ROOT), run_memo(path))
    document_features("linearity", path, text)
    if item.language == "mlir":
        quick_analyze(path, text, EVERYTHING, run_memo=MLIR_RUN)
        legalize_text(text)


class _Linearity:
    """One linearity measurement; ``at`` is the stage being measured."""

    def __init__(self, connection: Connection, item: Mutant) -> None:
        self.connection = connection
        self.item = item
        self.at = ("base", 0)

    def cost(self, stage: str, level: int, text: str) -> float:
        self.at = (stage, level)
        self.connection.send(Started(self.item.index, stage, level))
        started = time.process_time()
        passlint_work(self.item, text)
        return time.process_time() - started

    def median(self, stage: str, level: int, text: str) -> float:
        return statistics.median(self.cost(stage, level, text) for _ in range(REPEATS))

    def check(self) -> Failure | None:
        base, level = self.item.text, 0
        once = self.cost("base", 0, base)
        while once < MIN_BASE and len(base) < MAX_BASE and level < MAX_LEVELS:
            base = doubled(self.item, base, level)
            level += 1
            once = self.cost("base", level, base)
        twice_text = doubled(self.item, base, level)
        twice = self.cost("doubled", level, twice_text)
        if not _suspicious(once, twice):
            return None
        once = self.median("base", level, base)
        twice = self.median("doubled", level, twice_text)
        if not _suspicious(once, twice):
            return None
        # Once more, doubled again: a quadratic cost grows 4x again, a one-off step (a
        # cache filled up) does not.
        again_text = doubled(self.item, twice_text, level + 1)
        again = self.median("doubled", level + 1, again_text)
        if not _suspicious(twice, again):
            return None
        sizes = f"{len(base)} -> {len(twice_text)} -> {len(again_text)} characters"
        detail = (
            f"doubling ({self.item.doubling}) the mutant doubled {level} times, {sizes}, "
            f"costs {once:.3f} s -> {twice:.3f} s -> {again:.3f} s CPU ({twice / max(once, 1e-9):.1f}x, "
            f"{again / twice:.1f}x; the bound is {RATIO:g}x above {FLOOR:g} s)"
        )
        return Failure("nonlinear", self.item.index, "doubled", level + 1, detail)


def _suspicious(once: float, twice: float) -> bool:
    return twice > FLOOR and twice > RATIO * once
