"""The latest analysed version of a document, seen from its current text.

Right after an edit the analysis of the new version is still running (seconds, for a
multi-megabyte dump), but everything outside the edited lines is where it was, moved by the
lines and characters the edit added or removed. The server records each version's changes
(``EditLog``); a ``Shift`` maps offsets and lines between an analysed version and the current
one, and refuses (None) what lies on a changed line. Features answer from the last analysis
through its shift, without waiting; quick-fix payloads of an older version are moved the same
way when their edits stay off the changed lines.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from passlint.analysis.source import SourceText
from passlint.analysis.text_change import TextChange
from passlint.server.mlir_index import MlirIndex

Span = tuple[int, int]


class Shift:
    """How a text became another by ``changes`` (whole-line replacements, in order)."""

    def __init__(self, changes: Sequence[TextChange] = ()) -> None:
        self.changes = tuple(changes)

    @property
    def identity(self) -> bool:
        return not self.changes

    def forward(self, offset: int) -> int | None:
        """An offset of the old text in the new one (None: on a changed line)."""
        for change in self.changes:
            if offset > change.end:
                offset += change.delta
            elif offset >= change.start:
                return None
        return offset

    def backward(self, offset: int) -> int | None:
        """An offset of the new text in the old one (None: on a changed line)."""
        for change in reversed(self.changes):
            if offset > change.start + len(change.new):
                offset -= change.delta
            elif offset >= change.start:
                return None
        return offset

    def backward_before(self, offset: int) -> int:
        """``backward``, or where the changed lines holding ``offset`` began (the last place
        before it the old text still has)."""
        for change in reversed(self.changes):
            if offset > change.start + len(change.new):
                offset -= change.delta
            elif offset >= change.start:
                offset = max(change.start - 1, 0)
        return offset

    def span(self, span: Span) -> Span | None:
        start, end = self.forward(span[0]), self.forward(span[1])
        return None if start is None or end is None else (start, end)

    def lines(self, first: int, last: int) -> tuple[int, int] | None:
        """Lines ``first..last`` of the old text in the new one (None: a change replaced one
        of them, or lines between them)."""
        for change in self.changes:
            if first > change.last_line:
                first += change.line_delta
                last += change.line_delta
            elif last >= change.line:
                return None
        return first, last


class EditLog:
    """Each open document's changes by the version they made (``None``: replaced whole).

    A change holds the whole lines it replaced and their replacement: a paste, or a client
    that sends a whole-text edit as a range, is megabytes. Per document, the log keeps the
    latest ``keep`` changes and at most ``size`` characters of them; what is older is
    forgotten (a shift from before it is unknown, so features wait for the new analysis)."""

    def __init__(self, keep: int = 4096, size: int = 1 << 20) -> None:
        self.keep = keep
        self.size = size
        self._log: dict[str, deque[tuple[int, tuple[TextChange, ...] | None]]] = {}
        self._sizes: dict[str, int] = {}  # characters the log of each document holds
        self._forgotten: dict[str, int] = {}  # the newest version whose changes are gone

    def opened(self, uri: str, version: int) -> None:
        self._log[uri] = deque()
        self._sizes[uri] = 0
        self._forgotten[uri] = version

    def closed(self, uri: str) -> None:
        self._log.pop(uri, None)
        self._sizes.pop(uri, None)
        self._forgotten.pop(uri, None)

    def record(self, uri: str, version: int, changes: Sequence[TextChange] | None) -> None:
        log = self._log.setdefault(uri, deque())
        made = None if changes is None else tuple(changes)
        log.append((version, made))
        size = self._sizes.get(uri, 0) + _size(made)
        while log and (len(log) > self.keep or size > self.size):
            forgotten, made = log.popleft()
            self._forgotten[uri] = forgotten
            size -= _size(made)
        self._sizes[uri] = size

    def shift(self, uri: str, since: int, until: int) -> Shift | None:
        """The shift from version ``since`` to ``until``; None when a change between them is
        unknown (a whole-text replacement, or forgotten)."""
        if since == until:
            return Shift()
        log = self._log.get(uri)
        if not log or since > until or since < self._forgotten.get(uri, since):
            return None
        changes: list[TextChange] = []
        reached = since
        for version, made in log:
            if version <= since:
                continue
            if version > until:
                break
            if made is None:
                return None
            changes.extend(made)
            reached = version
        return Shift(changes) if reached == until else None


def _size(changes: tuple[TextChange, ...] | None) -> int:
    return sum(len(change.old) + len(change.new) for change in changes or ())


@dataclass
class MlirView:
    """A .mlir document's latest index, its shift to the current text, and that text."""

    index: MlirIndex
    shift: Shift
    source: SourceText

    def to_index(self, offset: int) -> int | None:
        """A current offset in the indexed text (None: on a line changed since)."""
        return offset if self.shift.identity else self.shift.backward(offset)

    def to_current(self, span: Span) -> Span | None:
        return span if self.shift.identity else self.shift.span(span)

    def nearest_index_offset(self, offset: int) -> int:
        """``to_index``, or the last offset before the changed lines holding ``offset``."""
        return offset if self.shift.identity else self.shift.backward_before(offset)


def source_with_lines(text: str, starts: list[int] | None) -> SourceText:
    """A SourceText of ``text`` whose line index is ``starts`` when known (counting the lines
    of a 5 MB text again takes longer than answering a request)."""
    source = SourceText(text)
    if starts is not None:
        source._starts = starts
    return source
