"""The CI fuzz target (tests/fuzz/target.py) finds what it is there to find: on a tiny
budget, with a fault planted in its workers (``--plugin``), it reports a crash, a hang and
a quadratic cost, saves each input, says how to run it again, and fails the run; and a run
without faults passes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
TARGET = REPOSITORY / "tests" / "fuzz" / "target.py"

# Each fault is planted by the plugin each worker runs before its first mutant.
PLUGIN = """\
import os
import time

import fuzz_worker
from passlint import pipeline

PLANT = os.environ["PASSLINT_FUZZ_PLANT"]
analyze = pipeline.analyze
work = fuzz_worker.passlint_work


def planted_analyze(path, text, *args, **kwargs):
    if PLANT == "crash" and path.endswith(".mlir"):
        raise RuntimeError("planted crash")
    if PLANT == "hang" and path.endswith(".py"):
        time.sleep(3600)
    return analyze(path, text, *args, **kwargs)


def quadratic_work(item, text):
    # CPU time growing with the square of the size (the linearity check's clock)
    work(item, text)
    until = time.process_time() + (len(text) / 40_000) ** 2
    while time.process_time() < until:
        pass


pipeline.analyze = planted_analyze
if PLANT == "quadratic":
    fuzz_worker.passlint_work = quadratic_work
"""


def fuzz(
    tmp_path: Path, *args: str, plant: str | None = None
) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = tmp_path / "found"
    command = [sys.executable, str(TARGET), "--out", str(out), "--workers", "2", *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if plant:
        plugin = tmp_path / "plant.py"
        plugin.write_text(PLUGIN)
        command += ["--plugin", str(plugin)]
        env["PASSLINT_FUZZ_PLANT"] = plant
    result = subprocess.run(
        command, cwd=REPOSITORY, capture_output=True, text=True, env=env, timeout=300
    )
    return result, out


def summary(result: subprocess.CompletedProcess[str]) -> str:
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("fuzz: ")]
    return line


def test_a_run_without_faults_passes(tmp_path: Path) -> None:
    result, out = fuzz(tmp_path, "--mutants", "24", "--linear-every", "4")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.fullmatch(
        r"fuzz: 24 mutants \(8 MLIR, 8 pl, 8 HLO\) of \d+ MLIR, \d+ pl and \d+ HLO seeds, seed 0, "
        r"2 workers, "
        r"[\d.]+ s: 0 crashes, 0 property failures, 0 hangs, 0 non-linear "
        r"\(6 linearity samples\)",
        summary(result),
    )
    assert "FAIL" not in result.stdout
    assert list(out.iterdir()) == []


def test_a_planted_crash_is_reported_saved_and_reproduced(tmp_path: Path) -> None:
    result, out = fuzz(tmp_path, "--mutants", "6", plant="crash")
    assert result.returncode == 1
    assert ": 2 crashes, 0 property failures, 0 hangs, 0 non-linear" in summary(result)
    assert "FAIL crash: mutant 0 (mlir, check)\n" in result.stdout
    assert "RuntimeError: planted crash" in result.stdout
    saved = out / "crash-seed0-mutant0-check.mlir"
    assert saved.read_bytes()  # (a mutant of an MLIR seed, whichever the seed is)
    (rerun,) = re.findall(r"re-run: (.* --only 0 .*)", result.stdout)
    again = subprocess.run(
        [*rerun.split(), "--out", str(tmp_path / "again")],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        env={**os.environ, "PASSLINT_FUZZ_PLANT": "crash"},
        timeout=300,
    )
    assert again.returncode == 1
    assert ": 1 crashes," in summary(again)
    assert (tmp_path / "again" / saved.name).read_bytes() == saved.read_bytes()


def test_a_planted_hang_is_killed_and_the_run_goes_on(tmp_path: Path) -> None:
    result, out = fuzz(tmp_path, "--mutants", "6", "--hang", "1", plant="hang")
    assert result.returncode == 1
    # the pl mutants hang; each stuck worker is replaced and the others still run
    assert "fuzz: 6 mutants (2 MLIR, 2 pl, 2 HLO)" in summary(result)
    assert ": 0 crashes, 0 property failures, 2 hangs, 0 non-linear" in summary(result)
    assert "FAIL hang: mutant 1 (pl, check)\n" in result.stdout
    assert "no answer after 1." in result.stdout
    inputs = fuzz_inputs()
    saved = (out / "hang-seed0-mutant1-check.py").read_text(encoding="utf-8")
    assert saved == inputs.mutant(inputs.load_seeds(), 0, 1).text  # the pl mutant that hung


def fuzz_inputs() -> Any:
    """The fuzz target's input module (tests/fuzz/fuzz_inputs.py)."""
    sys.path.insert(0, str(TARGET.parent))
    try:
        import fuzz_inputs
    finally:
        sys.path.remove(str(TARGET.parent))
    return fuzz_inputs


def whole_text_doublings() -> list[str]:
    """The first MLIR and the first pl mutant of run 0 whose doubling doubles the whole text
    (not ``runs``, which lengthens only its runs: the planted cost, a square of the text's
    length, may then grow less than the bound). Which seed a mutant starts from depends on
    the corpus, which grows."""
    inputs = fuzz_inputs()
    seeds = inputs.load_seeds()
    found: dict[str, int] = {}
    index = 0
    while not {"mlir", "pl"} <= found.keys():
        item = inputs.mutant(seeds, 0, index)
        if item.doubling != "runs":
            found.setdefault(item.language, index)
        index += 1
    return [str(found["mlir"]), str(found["pl"])]


def test_a_planted_quadratic_cost_is_reported(tmp_path: Path) -> None:
    # (a generous --hang: the fourfold input's quadratic cost takes seconds on a busy machine)
    only = whole_text_doublings()
    assert only[0] == "0"  # the measurement checked below
    result, out = fuzz(
        tmp_path, "--only", *only, "--linear-every", "1", "--hang", "60", plant="quadratic"
    )
    assert result.returncode == 1
    assert ": 0 crashes, 0 property failures, 0 hangs, 2 non-linear" in summary(result)
    assert "FAIL nonlinear: mutant 0 (mlir, doubled, level " in result.stdout
    # failures are printed by mutant index: the first measurement is mutant 0's
    (sizes, _) = re.findall(
        r"^  doubling \(\w+\) the mutant doubled \d+ times, "
        r"(\d+) -> (\d+) -> (\d+) characters, costs [\d.]+ s -> [\d.]+ s -> [\d.]+ s CPU "
        r"\(([\d.]+)x, ([\d.]+)x; the bound is 3x above 0.2 s\)$",
        result.stdout,
        re.MULTILINE,
    )
    base, twice, again, first, second = sizes
    assert int(base) < int(twice) < int(again)
    assert float(first) > 3 and float(second) > 3
    saved = out / "nonlinear-seed0-mutant0-doubled.mlir"
    assert len(saved.read_bytes().decode("utf-8")) == int(again)  # (CRLF kept)
