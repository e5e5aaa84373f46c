"""``--fix`` and ``--diff``: apply every fix, in memory until nothing more applies, then
write the changed files as one unit (``passlint.writes``) or print them as a unified diff.

Fixes that overlap an earlier one in the same round are left for the next round (after
re-analysis), up to ``MAX_ROUNDS``. Files are known by their real paths, so a file reached
through two names is edited once. A fix is applied whole or not at all: one that would edit
a file outside the paths the user gave (``writable_roots``: as ruff does, ``--fix`` writes
only there), or a file passlint must not replace (``writes.why_not_writable``), is refused
with the file it would touch, and none of its edits is made.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from passlint.analysis.edits import OverlappingEditsError, apply_edits, edits_by_path
from passlint.analysis.findings import Fix
from passlint.discovery import relative_to
from passlint.filesystem import is_inside, read_regular
from passlint.runner import FileResult, Job
from passlint.writes import WriteOutcome, why_not_writable, write_texts

MAX_ROUNDS = 10

CheckFiles = Callable[[Sequence[str], Job], list[FileResult]]


@dataclass
class FixOutcome:
    originals: dict[str, str] = field(default_factory=dict)  # real path -> text before
    fixed: dict[str, str] = field(default_factory=dict)  # real path -> text after
    display: dict[str, str] = field(default_factory=dict)  # real path -> path as shown
    applied: int = 0  # findings whose fix was applied
    fixed_by_rule: Counter[tuple[str, str]] = field(default_factory=Counter)  # (path, code)
    results: list[FileResult] = field(default_factory=list)  # analysis of the fixed texts
    refused: list[str] = field(default_factory=list)  # messages about fixes not applied

    @property
    def changed(self) -> list[str]:
        return [path for path in self.fixed if self.fixed[path] != self.originals[path]]


def compute_fixes(
    paths: Sequence[str],
    job: Job,
    check: CheckFiles,
    writable_roots: Sequence[str],
    allowed: set[str] | None = None,
) -> FixOutcome:
    """Analyse, apply fixes in memory, repeat; ``allowed`` (real paths) limits the files a
    fix may touch further than ``writable_roots`` does (standard input: only itself)."""
    outcome = FixOutcome()
    overlay: dict[str, str] = dict(job.overlay)
    roots = [os.path.realpath(root) for root in writable_roots]
    shown = {os.path.realpath(path): path for path in paths}
    verdicts: dict[str, str | None] = {}  # real path -> why a fix may not touch it
    for _ in range(MAX_ROUNDS):
        results = check(paths, replace(job, overlay=dict(overlay)))
        outcome.results = results
        fixes: list[Fix] = []
        owners: dict[Fix, list[tuple[str, str]]] = {}  # a fix -> the findings it fixes
        for result in results:
            for finding in result.findings:
                if finding.fix is None or not finding.fix.preferred:
                    continue  # a fix that leaves work by hand is never applied
                fix = _by_real_path(finding.fix)
                if fix not in owners:
                    fixes.append(fix)
                    owners[fix] = []
                owners[fix].append((finding.path, finding.code))
        usable = []
        for fix in fixes:
            refusal = _refusal(fix, roots, allowed, verdicts, shown)
            if refusal is None:
                usable.append(fix)
            elif refusal not in outcome.refused:
                outcome.refused.append(refusal)
        if not usable:
            return outcome
        grouped = edits_by_path(usable)
        kept = {id(edit) for edits in grouped.values() for edit in edits}
        progress = False
        for real, edits in grouped.items():
            current = overlay.get(real)
            if current is None:
                current = _read(real, job.settings.size_limit(real))
                if current is None:
                    outcome.refused.append(f"{_shown(real, shown)}: cannot read it to apply a fix")
                    continue
            # The first text seen is the original (standard input's is in the overlay).
            outcome.originals.setdefault(real, current)
            outcome.display.setdefault(real, _shown(real, shown))
            try:
                new = apply_edits(current, edits)
            except OverlappingEditsError as error:  # edits_by_path should prevent this
                outcome.refused.append(f"{_shown(real, shown)}: {error}")
                continue
            if new != current:
                overlay[real] = new
                outcome.fixed[real] = new
                progress = True
        for fix in usable:
            if all(id(edit) in kept for edit in fix.edits):
                outcome.fixed_by_rule.update(owners[fix])
                outcome.applied += len(owners[fix])
        if not progress:
            return outcome
    outcome.results = check(paths, replace(job, overlay=dict(overlay)))
    return outcome


def _by_real_path(fix: Fix) -> Fix:
    """``fix`` with every edit naming its file by its real path."""
    edits = tuple(replace(edit, path=os.path.realpath(edit.path)) for edit in fix.edits)
    return replace(fix, edits=edits) if edits != tuple(fix.edits) else fix


def _refusal(
    fix: Fix,
    roots: Sequence[str],
    allowed: set[str] | None,
    verdicts: dict[str, str | None],
    shown: dict[str, str],
) -> str | None:
    """Why ``fix`` (edits by real path) is not applied, naming the file; None: it is."""
    for edit in fix.edits:
        real = edit.path
        if real not in verdicts:
            if allowed is not None:
                verdicts[real] = (
                    None if real in allowed else "a fix for standard input may only change it"
                )
            elif not is_inside(real, roots):
                verdicts[real] = "it lies outside the paths given (--fix writes only there)"
            else:
                verdicts[real] = why_not_writable(real)
        reason = verdicts[real]
        if reason is not None:
            return f"{_shown(real, shown)}: not fixed ({fix.title}): {reason}"
    return None


def _shown(real: str, shown: dict[str, str]) -> str:
    """A real path as the user sees it: as given on the command line or found in a folder
    given, else relative to the working folder when below it, else in full."""
    if real in shown:
        return shown[real]
    return relative_to(real, os.curdir)


def _read(real: str, limit: int) -> str | None:
    try:
        return read_regular(real, limit).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def write_fixes(outcome: FixOutcome) -> tuple[WriteOutcome, list[str]]:
    """Write every changed file as one unit; what was written, and a message for each file
    that was not."""
    changed = outcome.changed
    written = write_texts(
        {real: outcome.fixed[real] for real in changed},
        {real: outcome.originals[real] for real in changed},
    )
    errors = [
        f"{outcome.display.get(real, real)}: cannot write the fix: {reason}"
        for real, reason in written.failed.items()
    ]
    return written, errors


def unified_diff(outcome: FixOutcome) -> str:
    """The fixes as one unified diff (``a/`` and ``b/`` prefixes, as git prints)."""
    out: list[str] = []
    for real in sorted(outcome.changed, key=lambda r: outcome.display.get(r, r)):
        shown = outcome.display.get(real, real).replace(os.sep, "/")
        if shown.startswith("./"):
            shown = shown[2:]
        before = _lines(outcome.originals[real])
        after = _lines(outcome.fixed[real])
        for line in difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}"):
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _lines(text: str) -> list[str]:
    """The lines of ``text`` as a patch has them: each up to and with its ``\\n`` (a ``\\r``,
    a form feed or U+2028 is text in a line: ``str.splitlines`` would cut there)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]
