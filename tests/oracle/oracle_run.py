"""The differential suite's moving parts, on passlint's side: where the oracle is, recording
ground truth with it (``harness/record.py`` in the oracle's Python), passlint's predictions
for a tree, and a fixed copy of a tree (``passlint check --fix``, as a user runs it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.compare import compare_fixed, def_line
from oracle.predict import Prediction, predict
from oracle.truth import Truth, from_document

from passlint.analysis.language import language_of
from passlint.analysis.workspace import Workspace

HARNESS = Path(__file__).resolve().parent / "harness"
PYTHON_ENV = "PASSLINT_PYPTO_PYTHON"  # the oracle: a Python in which pypto is built
CHECKOUT_ENV = "PASSLINT_PYPTO_CHECKOUT"  # a pypto checkout: its tests/ and examples/
TRUTH_ENV = "PASSLINT_ORACLE_TRUTH"  # optional: ground truth already recorded for it

SUMMARIES: list[str] = []  # the reports conftest.py prints at the end of the run

_PROBE = "from pypto.pypto_core import passes; passes.materialize_valid_shape_symbols()"


def oracle_python() -> tuple[str | None, str]:
    """The oracle's Python, or None and why there is none."""
    python = os.environ.get(PYTHON_ENV)
    if not python:
        return None, (
            f"no oracle configured: set {PYTHON_ENV} to a Python in which pypto is built "
            "(see docs/differential.md)"
        )
    try:
        done = subprocess.run(
            [python, "-c", _PROBE], capture_output=True, text=True, timeout=300, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"{PYTHON_ENV}={python} cannot run: {error}"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"{PYTHON_ENV}={python} cannot run pypto's pass: {last}"
    return python, ""


def record(
    python: str,
    root: Path,
    paths: list[Path],
    out: Path,
    options: tuple[str, ...] = (),
    timeout: float = 4 * 3600,
) -> Truth:
    """Run the oracle over ``paths`` (ground truth relative to ``root``) and read it;
    ``options``: more arguments for ``harness/record.py``."""
    subprocess.run(
        [
            python,
            str(HARNESS / "record.py"),
            "--root",
            str(root),
            "--out",
            str(out),
            *options,
            *map(str, paths),
        ],
        check=True,
        timeout=timeout,
    )
    with open(out, encoding="utf-8") as source:
        truth = from_document(json.load(source))
    problems = truth.document.get("recorder_errors", [])
    assert not problems, "the oracle's recorder failed:\n" + "\n".join(problems[:3])
    return truth


def pl_files(root: Path, folders: list[str]) -> list[Path]:
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            if any(part.startswith(".") or part == "__pycache__" for part in path.parts):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if language_of(str(path), text) == "pl":
                found.append(path)
    return found


def predictions(root: Path, files: list[Path]) -> dict[str, tuple[str, Prediction]]:
    """passlint's prediction per file (relative to ``root``), the tree as its workspace."""
    workspace = Workspace([root])
    out = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        out[str(path.relative_to(root))] = (text, predict(str(path), text, workspace))
    return out


@dataclass
class FixedCopy:
    """A tree after ``passlint check --fix``: the files it changed and the kernels it left
    unfixed on purpose (a VS001 finding remains: no fix, or one not preferred, whose message
    says why), as (relative path, ``def`` line in the fixed file)."""

    changed: list[str]
    unfixed: set[tuple[str, int]]


def fixed_copy(root: Path, entries: list[str], target: Path) -> FixedCopy:
    """Copy the files and folders ``entries`` of ``root`` to ``target`` and apply passlint's
    fixes there as ``passlint check --fix`` does."""
    for entry in entries:
        if (root / entry).is_dir():
            shutil.copytree(root / entry, target / entry, symlinks=True)
        else:
            (target / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / entry, target / entry)
    before = {p: p.read_bytes() for p in target.rglob("*.py")}
    done = subprocess.run(
        [sys.executable, "-m", "passlint", "check", "--fix", "--format", "json", *entries],
        cwd=target,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        check=False,
    )
    changed = sorted(
        str(p.relative_to(target)) for p, data in before.items() if p.read_bytes() != data
    )
    return FixedCopy(changed, _unfixed(target, json.loads(done.stdout or "{}")))


def _unfixed(target: Path, report: dict[str, Any]) -> set[tuple[str, int]]:
    """The kernels that still have a VS001 finding in the fixed tree (``report``: passlint's
    JSON of it), by relative path and ``def`` line."""
    found = set()
    for finding in report.get("findings", []):
        if finding["code"] != "VS001":
            continue
        path = Path(finding["path"])
        path = path if path.is_absolute() else target / path
        line = finding["range"]["start"]["line"]
        kernel = def_line(path.read_text(encoding="utf-8"), line)
        if kernel is not None:
            found.add((str(path.relative_to(target)), kernel))
    return found


def check_fixes(
    python: str,
    root: Path,
    entries: list[str],
    truth: Truth,
    target: Path,
    title: str,
    options: tuple[str, ...] = (),
) -> tuple[list[str], str]:
    """Fix a copy of ``entries`` of ``root`` in ``target``, run the oracle again on the fixed
    files, the files calling their kernels and what builds their programs, and say what it
    found (also in SUMMARIES): the fixed files and the disagreements' text ("" if none)."""
    copy = fixed_copy(root, entries, target)
    if not copy.changed:
        return [], ""
    judged = truth.affected(copy.changed)  # the fixed files and those calling their kernels
    fixed = [target / rel for rel in truth.builders(judged)]
    out = target.parent / f"{target.name}-fixed.json"
    after = record(python, target, fixed, out, ("--arguments", *options))
    result = compare_fixed(truth, after, judged, copy.unfixed)
    text = "\n".join(map(str, result.disagreements))
    verdict = (
        f"disagreements:\n{text}"
        if result.disagreements
        else "every fixed program builds, every fixed call passes the extents the pass "
        f"passes to the original ({result.calls} calls compared), and the real pass has "
        "nothing left to add"
    )
    if result.unfixed:
        verdict += "; left unfixed by passlint (its finding says why): " + ", ".join(result.unfixed)
    if result.known:
        verdict += "; known divergences (not counted): " + "; ".join(result.known)
    SUMMARIES.append(f"{title} after --fix ({len(copy.changed)} files changed): {verdict}.")
    return copy.changed, text
