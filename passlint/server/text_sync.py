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

from collections import OrderedDict
from collections.abc import Sequence

from lsprotocol import types

from passlint.analysis.findings import Position
from passlint.analysis.source import LINE_BREAK, SourceText, has_lone_cr, line_starts
from passlint.analysis.text_change import TextChange, replace_span


class LineIndex:
    """A text and the offsets of its line starts, kept in step with its changes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)

    def offset(self, position: types.Position) -> int:
        """A client position (UTF-16 column, clamped to its line) as an offset."""
        starts, text = self.starts, self.text
        if position.line < 0:
            return 0
        if position.line >= len(starts):
            return len(text)
        start = starts[position.line]
        end = starts[position.line + 1] - 1 if position.line + 1 < len(starts) else len(text)
        line = text[start:end]
        column = SourceText(line).from_utf16(Position(0, position.character)).column
        return start + column

    def line_of(self, position: types.Position) -> int:
        return min(max(position.line, 0), len(self.starts) - 1)

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
        delta = change.delta
        self.starts[first + 1 :] = breaks + [at + delta for at in self.starts[last + 1 :]]
        return change


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
        return list(index.starts) if index is not None and index.text is text else None

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
