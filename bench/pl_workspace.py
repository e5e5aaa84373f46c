"""Rows P5 and P4b (issue 15): pl analysis at workspace scale, side by side in one run.

P5   `passlint check .` in a pl workspace (its own folder the working folder), beside a bare
     `ast.parse` of the same pl files in one process (both timed as whole processes, start
     to exit); goal <= 1.0x. The workspace is a
     checkout of hw-native-sys/pypto when `--pypto PATH` names one (472 pl files, 12.6 MB
     at e2d0f78), else one generated in its shape (`generate.pl_workspace`: 500 files,
     programs inside test functions and classes, module-level kernels imported by others).
P4b  the P4 file (5,000 lines) and the softmax file (the shipped kernel and its caller
     170 times) checked inside that workspace (a git work tree: the file's project, whose
     pl files the check indexes): seconds beyond start-up (`passlint check` of a one-line
     pl file there, measured beside it); goal <= 0.100 s.
P9   peak RSS of those runs; goal <= 3x input + 100 MB.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from generate import pl_module, pl_workspace, softmax_module

# How to measure on the real workspace instead (docs/performance.md's table used e2d0f78).
PYPTO_HINT = (
    "to measure a pypto checkout instead: `git clone https://github.com/hw-native-sys/pypto`,"
    " then `--pypto PATH`"
)

# Reads and parses the files listed in the file named by its argument, one process: the
# reference of P5 (timed as a whole process, start-up and exit included, as the check is).
_BARE_PARSE = """
import ast, sys
for path in open(sys.argv[1]).read().split("\\n"):
    with open(path, "rb") as handle:
        try:
            ast.parse(handle.read(), path)
        except SyntaxError:
            pass
"""

# Runs a command and reports its wall time, peak RSS (kB) and exit status (as run.py does).
_MEASURE = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[2:], cwd=sys.argv[1], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def measured(folder: Path, *arguments: str) -> tuple[float, float]:
    """Wall time and peak RSS (MB) of `passlint check ARGUMENTS` started in ``folder`` (its
    default report, as a user runs it)."""
    command = [sys.executable, "-m", "passlint", "check", "--exit-zero", *arguments]
    elapsed, peak, status = process(folder, command)
    if status not in (0, 1):
        raise RuntimeError(f"passlint check {' '.join(arguments)} failed in {folder}")
    return elapsed, peak


def process(folder: Path, command: list[str]) -> tuple[float, float, int]:
    """Wall time, peak RSS (MB) and exit status of ``command`` started in ``folder``."""
    report = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(folder), *command],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(report[0]), int(report[1]) / 1024, int(report[2])


def pl_files(folder: Path) -> list[str]:
    """The files `passlint check` analyses in ``folder`` (its own discovery)."""
    listing = subprocess.run(
        [sys.executable, "-m", "passlint", "check", "--show-files", "."],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split("\n")
    return [str(folder / line) for line in listing if line.endswith(".py")]


def bare_parse(paths: list[str], listing: Path) -> float:
    """Seconds a process takes to read and `ast.parse` ``paths``, start to exit."""
    listing.write_text("\n".join(paths))
    elapsed, _, status = process(listing.parent, [sys.executable, "-c", _BARE_PARSE, str(listing)])
    if status != 0:
        raise RuntimeError("the bare parse failed")
    return elapsed


def workspace(pypto: Path | None, workdir: Path) -> tuple[Path, str]:
    if pypto is not None:
        return pypto.resolve(), f"pypto checkout {pypto}"
    folder = workdir / "workspace"
    pl_workspace(folder)
    (folder / ".git").mkdir()  # a work tree, as a checkout is: the project of its files
    return folder, "generated pl workspace (500 files)"


def rows(
    pypto: Path | None,
    runs: int,
    row: Callable[[str, str, str, str, bool | None], str],
) -> list[str]:
    """The P5, P4b and P9 rows, as ``row`` renders them."""
    workdir = Path(tempfile.mkdtemp(prefix="passlint-pl-workspace-"))
    folder, name = workspace(pypto, workdir)
    files = pl_files(folder)
    size_mb = sum(Path(p).stat().st_size for p in files) / 1e6
    out = [f"P5/P4b workspace: {name}: {len(files)} pl files, {size_mb:.1f} MB"]
    if pypto is None:
        out.append(f"  ({PYPTO_HINT})")

    checks, parses, peaks = [], [], []
    for _ in range(runs):  # alternate, so both see the same load
        parses.append(bare_parse(files, workdir / "pl_files.txt"))
        elapsed, peak = measured(folder, ".")
        checks.append(elapsed)
        peaks.append(peak)
    check, parse = statistics.median(checks), statistics.median(parses)
    out.append(
        row(
            "P5 passlint check of the workspace",
            "1.00x",
            f"{check:.3f} s",
            f"{check / parse:.2f} (parse {parse:.2f} s)",
            check <= parse,
        )
    )
    budget = 3 * size_mb + 100
    peak = max(peaks)
    out.append(row("P9 P5 peak RSS", f"{budget:.0f} MB", f"{peak:.0f} MB", "", peak <= budget))

    try:
        out.extend(_p4b_rows(folder, runs, row))
    finally:
        shutil.rmtree(folder / _CASES, ignore_errors=True)
    return out


_CASES = ".passlint-bench"  # the P4b files, in a hidden folder of the workspace


def _p4b_rows(
    folder: Path, runs: int, row: Callable[[str, str, str, str, bool | None], str]
) -> list[str]:
    out = []
    cases_folder = folder / _CASES
    cases_folder.mkdir()
    start_up_file = cases_folder / "start_up.py"
    start_up_file.write_text("import pypto.language as pl\n")
    cases = {
        "P4 file (5,000 lines)": pl_module(5000),
        "softmax x170": softmax_module(170),
    }
    for label, text in cases.items():
        target = cases_folder / (label.split()[0].lower() + "_case.py")
        target.write_text(text)
        extra, peaks = [], []
        for _ in range(runs):
            base, _ = measured(folder, str(start_up_file))
            elapsed, peak = measured(folder, str(target))
            extra.append(elapsed - base)
            peaks.append(peak)
        value = statistics.median(extra)
        lines = text.count("\n")
        out.append(
            row(
                f"P4b {label}, {lines} lines, in the workspace",
                "0.100 s",
                f"{value:.3f} s",
                "beyond start-up",
                value <= 0.1,
            )
        )
        budget = 3 * len(text) / 1e6 + 100
        peak = max(peaks)
        out.append(
            row(
                f"P9 P4b {label} peak RSS", f"{budget:.0f} MB", f"{peak:.0f} MB", "", peak <= budget
            )
        )
    return out
