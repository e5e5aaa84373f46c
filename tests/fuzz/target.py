"""The CI fuzz target: mutants of every MLIR, pl and HLO seed (tests/data, examples/), checked in
a few long-lived worker processes, with a watchdog.

    python tests/fuzz/target.py [--seed N] [--mutants N] [--workers N] [--out DIR]

Mutant ``i`` of seed ``N`` is the same on every machine (fuzz_inputs.mutant). Each worker
(fuzz_worker) checks each mutant as the property tests do and, for one mutant in 50 of
each language, whether doubling it at most about doubles its cost. A worker stuck on one
step for more than ``--hang`` seconds is killed and replaced. A crash (an exception out of
passlint), a property failure, a hang or a non-linear case fails the run (exit 1): each is
printed with its input, saved under ``--out``, and the command that runs it again.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

# Run as a script: tests/fuzz is on the path; tests/ (ir_dump) is added.
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from fuzz_inputs import LANGUAGES, Seeds, load_seeds, mutant
from fuzz_worker import Done, Failure, Started, is_sampled, serve, stage_input

STARTUP = 120.0  # seconds a new worker may take to import passlint and start its first step
EXTENSIONS = {"mlir": "mlir", "pl": "py", "hlo": "hlo"}
SHOWN = 300  # characters of a failing input printed (all of it is saved)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tests/fuzz/target.py", description=__doc__)
    parser.add_argument("--seed", type=int, default=0, help="which run (default 0)")
    parser.add_argument("--mutants", type=int, default=5000, help="how many (default 5000)")
    parser.add_argument("--only", type=int, nargs="+", help="run just these mutant indices")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--linear-every", type=int, default=50, help="linearity check per N of each language"
    )
    parser.add_argument("--hang", type=float, default=5.0, help="seconds per step (default 5)")
    parser.add_argument(
        "--deadline", type=float, default=300.0, help="seconds for the whole run (default 300)"
    )
    parser.add_argument("--out", type=Path, help="folder for failing inputs (default: temp)")
    parser.add_argument(
        "--plugin",
        help="a Python file each worker runs first (the target's own tests plant faults)",
    )
    return parser.parse_args(argv)


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    index: int | None = None
    step: Started | None = None
    since: float = field(default_factory=time.monotonic)


class _Pool:
    """Worker processes fed one mutant index at a time, each step timed by the watchdog."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []
        self.failures: list[Failure] = []
        self.finished: list[int] = []  # the mutant indices checked (or failed), in order

    def _start(self) -> _Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(
            target=serve,
            args=(child, self.args.seed, self.args.linear_every, self.args.plugin),
            daemon=True,
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    def _stop(self, worker: _Worker) -> None:
        worker.process.kill()
        worker.process.join()
        worker.connection.close()

    def _replace(self, worker: _Worker, failure: Failure) -> None:
        self.failures.append(failure)
        self.finished.append(failure.index)
        self._stop(worker)
        self.workers[self.workers.index(worker)] = self._start()

    def run(self, indices: Sequence[int], deadline: float) -> bool:
        """Check every index; False when the deadline came first."""
        pending = deque(indices)
        shown = 0
        self.workers = [self._start() for _ in range(max(1, min(self.args.workers, len(pending))))]
        try:
            while pending or any(w.index is not None for w in self.workers):
                if time.monotonic() > deadline:
                    return False
                for worker in self.workers:
                    if worker.index is None and pending:
                        worker.index, worker.step = pending.popleft(), None
                        worker.since = time.monotonic()
                        worker.connection.send(worker.index)
                busy = [w.connection for w in self.workers if w.index is not None]
                for connection in wait(busy, timeout=0.2):
                    self._receive(next(w for w in self.workers if w.connection is connection))
                self._watch()
                if len(self.finished) >= shown + 1000:
                    shown = len(self.finished)
                    print(f"fuzz: {shown}/{len(indices)} mutants", flush=True)
            return True
        finally:
            for worker in self.workers:
                self._stop(worker)

    def _receive(self, worker: _Worker) -> None:
        assert worker.index is not None
        try:
            message = worker.connection.recv()
        except (EOFError, OSError):
            code = worker.process.exitcode
            step = worker.step or Started(worker.index, "check", 0)
            detail = f"the worker process died (exit code {code}) on this input"
            self._replace(worker, Failure("crash", worker.index, step.stage, step.level, detail))
            return
        if isinstance(message, Started):
            worker.step, worker.since = message, time.monotonic()
        elif isinstance(message, Done):
            self.failures.extend(message.failures)
            self.finished.append(message.index)
            worker.index, worker.step = None, None

    def _watch(self) -> None:
        now = time.monotonic()
        for worker in list(self.workers):
            if worker.index is None:
                continue
            limit = self.args.hang if worker.step is not None else STARTUP
            if now - worker.since <= limit:
                continue
            step = worker.step or Started(worker.index, "check", 0)
            detail = f"no answer after {now - worker.since:.1f} s (the bound is {limit:g} s)"
            self._replace(worker, Failure("hang", worker.index, step.stage, step.level, detail))


def _rerun(args: argparse.Namespace, index: int) -> str:
    plugin = f" --plugin {args.plugin}" if args.plugin else ""
    return f"{sys.executable} {Path(__file__).resolve()} --seed {args.seed} --only {index}{plugin}"


def _report(failure: Failure, seeds: Seeds, args: argparse.Namespace, out: Path) -> None:
    item = mutant(seeds, args.seed, failure.index)
    name = f"{failure.kind}-seed{args.seed}-mutant{failure.index}-{failure.stage}"
    path = out / f"{name}.{EXTENSIONS[item.language]}"
    text = stage_input(item, failure.stage, failure.level)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    where = failure.stage if failure.stage == "check" else f"{failure.stage}, level {failure.level}"
    print(f"FAIL {failure.kind}: mutant {failure.index} ({item.language}, {where})")
    shown = repr(text[:SHOWN]) + (f" and {len(text) - SHOWN} more" if len(text) > SHOWN else "")
    print(f"  input ({len(text)} characters): {path}")
    print(f"  text: {shown}")
    print(f"  re-run: {_rerun(args, failure.index)}")
    print(f"  or: passlint check --format full {path}")
    print("  " + failure.detail.rstrip().replace("\n", "\n  "))


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="passlint-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    seeds = load_seeds()
    indices = list(args.only) if args.only else list(range(args.mutants))
    started = time.monotonic()
    pool = _Pool(args)
    finished = pool.run(indices, started + args.deadline)
    elapsed = time.monotonic() - started
    for failure in sorted(pool.failures, key=lambda f: (f.index, f.stage)):
        _report(failure, seeds, args, out)
    counts = Counter(failure.kind for failure in pool.failures)
    languages = Counter(LANGUAGES[index % 3] for index in pool.finished)
    sampled = sum(1 for index in pool.finished if is_sampled(index, args.linear_every))
    print(
        f"fuzz: {len(pool.finished)} mutants ({languages['mlir']} MLIR, {languages['pl']} pl, "
        f"{languages['hlo']} HLO) of {len(seeds.mlir)} MLIR, {len(seeds.pl)} pl and "
        f"{len(seeds.hlo)} HLO seeds, seed {args.seed}, "
        f"{len(pool.workers)} workers, {elapsed:.1f} s: {counts['crash']} crashes, "
        f"{counts['property']} property failures, {counts['hang']} hangs, "
        f"{counts['nonlinear']} non-linear ({sampled} linearity samples)"
    )
    if not finished:
        print(f"FAIL: the deadline ({args.deadline:g} s) came before {len(indices)} mutants")
    if pool.failures:
        print(f"failing inputs saved under {out}")
    return 0 if finished and not pool.failures else 1


if __name__ == "__main__":
    sys.exit(main())
