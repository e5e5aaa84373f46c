"""The quick path: a first answer for a large .mlir document from @main's outline alone
(``quick_analyze``), and a document's last quick answer kept so the next version's answer can
be had from it (``QuickMemo``).

The quick answer reads a 5 MB dump with whole-text searches; an edit
in an editor usually touches none of what it read (``outline_reads``). The memo keeps the
last answer with its reads and the changes the server has recorded since; for a newer text
reached by those changes, the answer is the kept one with its positions moved down or up by
the lines each change added or removed, as long as every change keeps the reads. Otherwise
(a change touching them, changes not recorded, other settings) the caller answers from scratch.

The memo also carries what the last full analysis found besides the quick answer (syntax
errors, unused suppressions) into the quick answers of later versions, moved by the changes
since and dropped where a change replaced their lines, so they do not vanish from the editor
at every keystroke until the full analysis of the new version comes in.

The server records changes on its event loop and asks for answers on the quick thread: the
memo is shared under a lock, and everything it hands out is immutable.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from passlint.analysis.collector import collector_paused
from passlint.analysis.findings import Finding, Position, Range
from passlint.analysis.language import language_of
from passlint.analysis.mlir.outline_reads import Reads
from passlint.analysis.source import SourceText
from passlint.analysis.text_change import TextChange
from passlint.config import Settings
from passlint.passes.tensorizer_legalization.findings import QUICK_CODES, quick_check
from passlint.pipeline import oversize
from passlint.suppression import postprocess

if TYPE_CHECKING:
    from passlint.memo import Memo


def quick_analyze(
    path: str,
    text: str,
    settings: Settings | None = None,
    memo: QuickMemo | None = None,
    run_memo: Memo | None = None,
) -> list[Finding] | None:
    """A first, partial answer for a large .mlir document: the TensorizerLegalization
    findings read from @main's outline, without syntax errors elsewhere. None when there is
    no such answer; ``analyze`` gives the complete one (and prevails over this).

    With the document's ``memo``, the last answer is reused when the changes since leave
    what it read alone (the same answer, found without reading the whole text again).
    ``run_memo``: what the run keeps between documents (None: @main's outline read from scratch)."""
    settings = (settings or Settings()).for_file(path)
    if language_of(path, text) != "mlir" or oversize(text, settings.size_limit(path)) is not None:
        return None
    if memo is not None and (kept := memo.recall(path, text, settings)) is not None:
        if kept.suppressions:
            again = postprocess(list(kept.raw), SourceText(text), settings, path)
            kept = replace(kept, findings=tuple(again))
        memo.keep(text, kept)
        return list(kept.findings)
    source = SourceText(text)
    with collector_paused():  # @main's header can be 100,000 tokens: build it in one go
        quick = quick_check(
            path, text, source, settings.pipeline, None if run_memo is None else run_memo.mlir
        )
    if quick is None:
        if memo is not None:
            memo.keep(text, None)
        return None
    raw, reads = quick
    findings = postprocess(raw, source, settings, path)
    if memo is not None:
        suppressions = "passlint:" in text
        if not suppressions:
            reads = reads.watching("passlint:")  # one would filter the findings anew
        answer = QuickAnswer(text, path, settings, tuple(raw), tuple(findings), reads, suppressions)
        memo.keep(text, answer)
    return findings


@dataclass(frozen=True)
class QuickAnswer:
    """The quick answer for ``text``: the pass's findings (``raw``) and the reported ones."""

    text: str
    path: str
    settings: Settings
    raw: tuple[Finding, ...]
    findings: tuple[Finding, ...]
    reads: Reads
    suppressions: bool  # the text has suppression comments: ``findings`` are filtered anew


@dataclass(frozen=True)
class _Step:
    before: str
    after: str
    changes: tuple[TextChange, ...]


class QuickMemo:
    """One document's last quick answer and the changes made to its text since."""

    def __init__(self, steps: int = 4) -> None:
        self._lock = threading.Lock()
        self._answer: QuickAnswer | None = None
        # The oldest are forgotten. Each holds two versions' texts, and the steps since the
        # last answer pile up while quick answers lag behind the edits: a few keep what an
        # editor's typing needs without holding many megabytes of texts of a large module
        # (a later version the steps no longer reach is answered from scratch).
        self._steps: deque[_Step] = deque(maxlen=steps)
        # Changes by the version they made (since the last full analysis), and the full
        # analysis' other findings moved to a version.
        self._log: deque[tuple[int, tuple[TextChange, ...] | None]] = deque(maxlen=1024)
        self._carried: tuple[int, tuple[Finding, ...]] | None = None

    def record(
        self, before: str, after: str, changes: list[TextChange] | None, version: int
    ) -> None:
        """The text ``before`` became ``after``, ``version``, by ``changes`` (None: replaced
        whole)."""
        with self._lock:
            if changes is not None:
                self._steps.append(_Step(before, after, tuple(changes)))
            self._log.append((version, None if changes is None else tuple(changes)))
            if self._carried is not None:
                moved = _carried_through(self._carried[1], changes)
                self._carried = None if moved is None else (version, moved)

    def full(self, version: int, findings: Iterable[Finding]) -> None:
        """The full analysis of ``version`` found ``findings``: keep those a quick answer
        does not give, moved to the latest version recorded."""
        with self._lock:
            carried: tuple[Finding, ...] | None = tuple(
                f for f in findings if f.code not in QUICK_CODES
            )
            while self._log and self._log[0][0] <= version:
                self._log.popleft()
            for _, changes in self._log:
                carried = _carried_through(carried, changes)
            latest = self._log[-1][0] if self._log else version
            self._carried = None if carried is None else (latest, carried)

    def with_carried(self, version: int, quick: list[Finding]) -> list[Finding]:
        """The quick answer of ``version`` with the full analysis' other findings carried to
        it (``quick`` as it is when none can be)."""
        with self._lock:
            carried = self._carried
        if carried is None or carried[0] != version:
            return quick
        merged = [f for f in quick if f.code in QUICK_CODES] + list(carried[1])
        merged.sort(key=lambda f: (f.range.start, f.code))
        return merged

    def recall(self, path: str, text: str, settings: Settings) -> QuickAnswer | None:
        """The kept answer moved to ``text``, when the recorded changes lead there and keep
        what it read; ``findings`` is to be filtered again when ``suppressions`` is set."""
        with self._lock:
            answer = self._answer
            changes = None if answer is None else self._changes(answer.text, text)
        if answer is None or changes is None:
            return None
        if answer.path != path or answer.settings != settings:
            return None
        reads, raw, findings = answer.reads, answer.raw, answer.findings
        for change in changes:
            moved = reads.after(change)
            if moved is None:
                return None
            try:
                reads, raw, findings = moved, _moved(raw, change), _moved(findings, change)
            except _Touched:
                return None
        settled = reads.settled(text)
        if settled is None:
            return None
        return replace(answer, text=text, raw=raw, findings=findings, reads=settled)

    def keep(self, text: str, answer: QuickAnswer | None) -> None:
        """``answer`` (None: there is none) is the quick answer for ``text``."""
        with self._lock:
            self._answer = answer
            befores = [step.before for step in self._steps]
            older = next((i for i, before in enumerate(befores) if before is text), len(befores))
            for _ in range(older):  # steps from older texts lead nowhere now
                self._steps.popleft()

    def _changes(self, start: str, end: str) -> list[TextChange] | None:
        """The recorded changes from text ``start`` to text ``end`` (the same objects)."""
        changes: list[TextChange] = []
        at = start
        for step in self._steps:
            if at is end:
                break
            if step.before is at:
                changes.extend(step.changes)
                at = step.after
        return changes if at is end else None


class _Touched(Exception):
    """A finding lies on a line a change replaced."""


def _carried_through(
    findings: tuple[Finding, ...] | None, changes: Sequence[TextChange] | None
) -> tuple[Finding, ...] | None:
    """``findings`` moved through ``changes``, less those on lines a change replaced; None
    when either is unknown."""
    if findings is None or changes is None:
        return None
    for change in changes:
        kept: list[Finding] = []
        for finding in findings:
            try:
                kept.extend(_moved((finding,), change))
            except _Touched:
                continue
        findings = tuple(kept)
    return findings


def _moved(findings: tuple[Finding, ...], change: TextChange) -> tuple[Finding, ...]:
    """``findings`` with the lines after ``change`` moved by the lines it added or removed."""
    first, last, delta = change.line, change.last_line, change.line_delta

    def position(at: Position) -> Position:
        if at.line < first:
            return at
        if at.line <= last:
            raise _Touched
        return Position(at.line + delta, at.column) if delta else at

    def span(rng: Range) -> Range:
        return Range(position(rng.start), position(rng.end))

    def finding(found: Finding) -> Finding:
        path, fix = found.path, found.fix
        return replace(
            found,
            range=span(found.range),
            related=tuple(
                replace(place, range=span(place.range)) if place.path == path else place
                for place in found.related
            ),
            fix=fix
            and replace(
                fix,
                edits=tuple(
                    replace(edit, range=span(edit.range)) if edit.path == path else edit
                    for edit in fix.edits
                ),
            ),
        )

    return tuple(finding(found) for found in findings)
