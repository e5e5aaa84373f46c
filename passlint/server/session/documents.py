"""The open documents as the features read them: their files, their current text with its
line index, and the edits since an analysed version (the scheduler holds the documents)."""

from __future__ import annotations

from passlint.analysis.source import SourceText
from passlint.server.convert import SnapshotFiles
from passlint.server.jobs import Result
from passlint.server.scheduler import Document
from passlint.server.text_sync import TextSync
from passlint.server.uris import on_disk
from passlint.server.views import EditLog, Shift, source_with_lines


class OpenDocuments:
    """The scheduler's documents (``documents``, by URI) with their texts and edits."""

    def __init__(self, documents: dict[str, Document]) -> None:
        self.documents = documents
        self.text_sync = TextSync()
        self.edits = EditLog()  # each document's changes by version, for ``mlir_view``
        self._sources: dict[str, tuple[int, SourceText]] = {}  # current text with its lines

    def get(self, uri: str) -> Document | None:
        return self.documents.get(uri)

    def files(self, reader: str | None = None) -> SnapshotFiles:
        """The open documents; with ``reader`` (the path of the document whose analysis
        reads them), only those that are files of this machine (``uris``) and itself: a
        document that lives in the editor only is no file of its workspace."""
        docs = [
            d
            for d in self.documents.values()
            if reader is None or on_disk(d.path) or d.path == reader
        ]
        return SnapshotFiles(
            {d.path: d.text for d in docs},
            {d.path: d.uri for d in docs},
            {d.path: d.version for d in docs},
        )

    def version_of_uri(self, uri: str) -> int | None:
        document = self.documents.get(uri)
        return None if document is None else document.version

    def shift_since(self, uri: str, version: int) -> Shift | None:
        current = self.version_of_uri(uri)
        return None if current is None else self.edits.shift(uri, version, current)

    def latest_results(self) -> list[tuple[str, Result]]:
        return [
            (uri, document.result)
            for uri, document in self.documents.items()
            if document.result is not None
        ]

    def python_uris(self, exclude: str | None = None) -> list[str]:
        """The open Python documents, but ``exclude``."""
        return [u for u, d in self.documents.items() if d.path.endswith(".py") and u != exclude]

    def text_changed(self, uri: str) -> None:
        """The text ``current_source`` holds is not the document's any more."""
        self._sources.pop(uri, None)

    def current_source(self, document: Document) -> SourceText:
        """The document's text as a SourceText, its line index taken from ``text_sync``."""
        kept = self._sources.get(document.uri)
        if kept is not None and kept[0] == document.version and kept[1].text is document.text:
            return kept[1]
        source = source_with_lines(
            document.text, self.text_sync.line_starts(document.uri, document.text)
        )
        self._sources[document.uri] = (document.version, source)
        return source

    def forget(self, uri: str) -> None:
        """The document was closed."""
        self.edits.closed(uri)
        self.text_sync.forget(uri)
        self._sources.pop(uri, None)
