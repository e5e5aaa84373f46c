"""didChange applied to a document's text without splitting the text into lines.

pygls applies an incremental change by splitting the whole text into lines and joining them
again: 10 ms for a 5 MB dump, at every keystroke. Here each open document keeps the offsets
of its line starts, moved by each change, and each change is also described as whole lines
(``TextChange``) for the analyses that reuse their last answer. Lines end at ``\\n`` and
columns count UTF-16 code units, as ``SourceText`` has them.

A client also ends lines at a lone ``\\r`` (LSP counts ``\\n``, ``\\r\\n`` and ``\\r``): a
text holding one is changed by LSP's lines, without an index (such texts are rare and the
changes are not described), so the text stays the client's.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Sequence

from lsprotocol import types

from passlint.analysis.findings import Position
from passlint.analysis.source import LINE_BREAK, SourceText, has_lone_cr, line_start_offsets
from passlint.analysis.text_change import TextChange, replace_span


class LineIndex:
    """A text and the offsets of its line starts, kept in step with its changes.

    A change moves the starts of every line after it: for a 100 MB module, a million numbers
    rewritten at each keystroke (50 ms). Instead the lines after it are noted as moved
    (``moves``: from which line on, by how much) and their numbers are rewritten once a few
    changes are noted; ``start`` reads a line's start through them."""

    MOST_MOVES = 256  # (a start read through as many: microseconds)

    def __init__(self, text: str) -> None:
        self.text = text
        # Each line's start, but for ``moves`` (an array: 8 bytes a line, not 36; filled
        # from the breaks as they are found, never a list of them all).
        self._starts = array("q", line_start_offsets(text))
        self.moves: list[tuple[int, int]] = []  # (line, delta): lines from ``line`` on moved

    @property
    def starts(self) -> list[int]:
        """Every line's start (the moves written into them)."""
        self._settle()
        return self._starts.tolist()

    def start(self, line: int) -> int:
        """The start of line ``line`` (an index into the starts)."""
        return self._starts[line] + sum(delta for at, delta in self.moves if at <= line)

    def offset(self, position: types.Position) -> int:
        """A client position (UTF-16 column, clamped to its line) as an offset."""
        text, count = self.text, len(self._starts)
        if position.line < 0:
            return 0
        if position.line >= count:
            return len(text)
        start = self.start(position.line)
        end = self.start(position.line + 1) - 1 if position.line + 1 < count else len(text)
        line = text[start:end]
        column = SourceText(line).from_utf16(Position(0, position.character)).column
        return start + column

    def line_of(self, position: types.Position) -> int:
        return min(max(position.line, 0), len(self._starts) - 1)

    def apply(self, rng: types.Range, inserted: str) -> TextChange:
        """Replace ``rng`` by ``inserted``; the change as whole lines."""
        start, end = self.offset(rng.start), self.offset(rng.end)
        first, last = self.line_of(rng.start), self.line_of(rng.end)
        if end < start:
            end, last = start, first
        self.text, change = replace_span(self.text, start, end, inserted, first)
        breaks = []
        at = inserted.find("\n")
        while at >= 0:
            breaks.append(start + at + 1)
            at = inserted.find("\n", at + 1)
        # Lines first+1..last are replaced by those ``breaks`` start; the lines after them
        # move by the change's delta, and by the lines added.
        added = len(breaks) - (last - first)
        before = sum(delta for at, delta in self.moves if at <= first)
        self._starts[first + 1 : last + 1] = array("q", [at - before for at in breaks])
        after = first + 1 + len(breaks)
        self.moves = [
            (at if at <= first else max(at + added, after), delta) for at, delta in self.moves
        ]
        if change.delta:
            self.moves.append((after, change.delta))
        if len(self.moves) > self.MOST_MOVES:
            self._settle()
        return change

    def _settle(self) -> None:
        """Write the moves into the starts (in one pass over them)."""
        starts, moves = self._starts, sorted(self.moves)
        total = 0
        for number, (at, delta) in enumerate(moves):
            total += delta
            stop = moves[number + 1][0] if number + 1 < len(moves) else len(starts)
            if stop > at:
                starts[at:stop] = array("q", [start + total for start in starts[at:stop]])
        self.moves = []


def apply_by_lsp_lines(text: str, rng: types.Range, inserted: str) -> str:
    """Replace ``rng`` by ``inserted``, lines ending at ``\\n``, ``\\r\\n`` or ``\\r``."""
    breaks = list(LINE_BREAK.finditer(text))

    def offset(position: types.Position) -> int:
        if position.line < 0:
            return 0
        if position.line > len(breaks):
            return len(text)
        start = breaks[position.line - 1].end() if position.line else 0
        end = breaks[position.line].start() if position.line < len(breaks) else len(text)
        column = SourceText(text[start:end]).from_utf16(Position(0, position.character)).column
        return start + column

    start, end = offset(rng.start), offset(rng.end)
    return text[:start] + inserted + text[max(start, end) :]


class TextSync:
    """The line indexes of the documents changed last (a few: each holds its text)."""

    def __init__(self, documents: int = 4) -> None:
        self.documents = documents
        self._indexes: OrderedDict[str, LineIndex] = OrderedDict()

    def line_starts(self, uri: str, text: str) -> list[int] | None:
        """A copy of the line starts of ``text`` when it is the document's indexed text."""
        index = self._indexes.get(uri)
        return index.starts if index is not None and index.text is text else None

    def prepare(self, uri: str, text: str) -> None:
        """Index the lines of ``text`` ahead of the document's first change (a large
        document's index takes a while: done after its first answer, in a thread)."""
        index = LineIndex(text)
        if uri not in self._indexes:
            self._indexes[uri] = index
            while len(self._indexes) > self.documents:
                self._indexes.popitem(last=False)

    def forget(self, uri: str) -> None:
        """The document was closed: its index (and text) is not kept."""
        self._indexes.pop(uri, None)

    def apply(
        self, uri: str, text: str, changes: Sequence[types.TextDocumentContentChangeEvent]
    ) -> tuple[str, list[TextChange] | None]:
        """``text`` after ``changes``, and the changes as whole lines (None when the text
        was replaced whole)."""
        index = self._indexes.pop(uri, None)
        if index is None or index.text is not text:
            index = None
        described: list[TextChange] | None = []
        for change in changes:
            if not isinstance(change, types.TextDocumentContentChangePartial):
                index, text, described = None, change.text, None
                continue
            if index is None and has_lone_cr(text):
                text, described = apply_by_lsp_lines(text, change.range, change.text), None
                continue
            index = index or LineIndex(text)
            found = index.apply(change.range, change.text)
            if described is not None:
                described.append(found)
            text = index.text
            if has_lone_cr(text, found.start, found.start + len(found.new) + 1):
                index = None  # the change made a lone \r: the next go by LSP's lines
        if index is not None:
            self._indexes[uri] = index
            while len(self._indexes) > self.documents:
                self._indexes.popitem(last=False)
        return text, described
