"""``--fix`` and ``--diff``: apply every fix, in memory until nothing more applies, then
write the changed files atomically or print them as a unified diff.

Fixes that overlap an earlier one in the same round are left for the next round (after
re-analysis), up to ``MAX_ROUNDS``. A fix that would touch a file outside the checked tree
(for instance through a symbolic link that points out of it) is refused whole, so a
multi-file fix is never half-applied. Files are written through a temporary file in the
same folder and ``os.replace``, keeping their permissions; a symbolic link inside the tree
keeps being a link (its target is written).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from passlint.analysis.edits import OverlappingEditsError, apply_edits, edits_by_path
from passlint.analysis.findings import Fix
from passlint.runner import FileResult, Job

MAX_ROUNDS = 10

CheckFiles = Callable[[Sequence[str], Job], list[FileResult]]


@dataclass
class FixOutcome:
    originals: dict[str, str] = field(default_factory=dict)  # real path -> text before
    fixed: dict[str, str] = field(default_factory=dict)  # real path -> text after
    display: dict[str, str] = field(default_factory=dict)  # real path -> path as shown
    applied: int = 0  # findings whose fix was applied
    results: list[FileResult] = field(default_factory=list)  # analysis of the fixed texts
    refused: list[str] = field(default_factory=list)  # messages about fixes not applied

    @property
    def changed(self) -> list[str]:
        return [path for path in self.fixed if self.fixed[path] != self.originals[path]]


def inside(path: str, roots: Iterable[str]) -> bool:
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


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
    for _ in range(MAX_ROUNDS):
        results = check(paths, Job(job.settings, job.roots, dict(overlay)))
        outcome.results = results
        fixes: list[Fix] = []
        owners: dict[Fix, int] = {}
        for result in results:
            for finding in result.findings:
                if finding.fix is None or not finding.fix.preferred:
                    continue  # a fix that leaves work by hand is never applied
                if finding.fix not in owners:
                    fixes.append(finding.fix)
                    owners[finding.fix] = 0
                owners[finding.fix] += 1
        usable = [fix for fix in fixes if _usable(fix, roots, allowed, outcome, overlay)]
        if not usable:
            return outcome
        grouped = edits_by_path(usable)
        kept = {id(edit) for edits in grouped.values() for edit in edits}
        progress = False
        for path, edits in grouped.items():
            real = os.path.realpath(path)
            current = overlay.get(real)
            if current is None:
                current = _read(path)
                if current is None:
                    outcome.refused.append(f"{path}: cannot read it to apply a fix")
                    continue
            # The first text seen is the original (standard input's is in the overlay).
            outcome.originals.setdefault(real, current)
            outcome.display.setdefault(real, path)
            try:
                new = apply_edits(current, edits)
            except OverlappingEditsError as error:  # edits_by_path should prevent this
                outcome.refused.append(f"{path}: {error}")
                continue
            if new != current:
                overlay[real] = new
                outcome.fixed[real] = new
                progress = True
        outcome.applied += sum(
            owners[fix] for fix in usable if all(id(edit) in kept for edit in fix.edits)
        )
        if not progress:
            return outcome
    outcome.results = check(paths, Job(job.settings, job.roots, dict(overlay)))
    return outcome


def _usable(
    fix: Fix,
    roots: Sequence[str],
    allowed: set[str] | None,
    outcome: FixOutcome,
    overlay: dict[str, str],
) -> bool:
    for edit in fix.edits:
        real = os.path.realpath(edit.path)
        if allowed is not None and real not in allowed:
            message = f"{edit.path}: not fixed (a fix for standard input may only change it)"
        elif not inside(edit.path, roots):
            message = (
                f"{edit.path}: not fixed: it resolves to {real}, outside the checked tree "
                "(symbolic links out of the tree are never followed for writing)"
            )
        else:
            continue
        if message not in outcome.refused:
            outcome.refused.append(message)
        return False
    return True


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def write_atomically(path: str, text: str) -> None:
    """Replace the file at ``path`` (a real path) by ``text``, all at once."""
    folder = os.path.dirname(path) or "."
    mode = os.stat(path).st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(
        dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".passlint"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_fixes(outcome: FixOutcome) -> list[str]:
    """Write every changed file; the messages of those that could not be written."""
    errors = []
    for real in outcome.changed:
        try:
            write_atomically(real, outcome.fixed[real])
        except OSError as error:
            shown = outcome.display.get(real, real)
            errors.append(f"{shown}: cannot write the fix: {error.strerror or error}")
    return errors


def unified_diff(outcome: FixOutcome) -> str:
    """The fixes as one unified diff (``a/`` and ``b/`` prefixes, as git prints)."""
    out: list[str] = []
    for real in sorted(outcome.changed, key=lambda r: outcome.display.get(r, r)):
        shown = outcome.display.get(real, real).replace(os.sep, "/")
        if shown.startswith("./"):
            shown = shown[2:]
        before = outcome.originals[real].splitlines(keepends=True)
        after = outcome.fixed[real].splitlines(keepends=True)
        for line in difflib.unified_diff(before, after, f"a/{shown}", f"b/{shown}"):
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
