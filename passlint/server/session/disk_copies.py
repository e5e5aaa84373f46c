"""Which open documents are a file on disk with the edits made since (``disk_copy``): a large
module the analysis process reads from its file rather than receiving its text.

A document is one when it is a ``.mlir`` file of ``pipeline.STREAM_MIN`` characters or more,
of ASCII text (its characters are its bytes), that was the file when it was opened or
saved. Its changes (``TextChange``: whole lines) are kept as edits of the file's pieces; a
change that puts in a character other than ASCII, a text replaced whole, or more than
``MOST_PIECES`` pieces end that. Before the first analysis that reads it, the pieces are
read and compared with the document's text (a tenth of a second per 100 MB), and before
each, the file is ``stat``-ed: a file changed on disk meanwhile is no copy any more.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from passlint import pipeline
from passlint.analysis.text_change import TextChange
from passlint.filesystem import is_regular
from passlint.server.disk_copy import DiskCopy, Piece, Stamp, edited
from passlint.server.uris import on_disk

MOST_PIECES = 4096
_COMPARED = 1 << 20  # bytes compared at once


@dataclass
class _Tracked:
    path: str  # real path
    stamp: Stamp
    pieces: tuple[Piece, ...]
    compared: bool = False  # the pieces were found to spell the document's text


class DiskCopies:
    """The documents that are a file on disk with edits, by URI."""

    def __init__(self) -> None:
        self._tracked: dict[str, _Tracked] = {}

    def opened(self, uri: str, path: str, text: str) -> None:
        """The document was opened (or saved) with ``text``: it may be its file's bytes."""
        self._tracked.pop(uri, None)
        if not (
            on_disk(path)  # (a bytecode file's text: no file holds it)
            and path.endswith(".mlir")
            and len(text) >= pipeline.STREAM_MIN
            and text.isascii()
        ):
            return
        real = os.path.realpath(path)
        try:
            if not is_regular(real):
                return
            stamp = Stamp.of(os.stat(real))
        except OSError:
            return
        if stamp.size == len(text):
            self._tracked[uri] = _Tracked(real, stamp, ((0, len(text)),))

    def changed(self, uri: str, changes: list[TextChange] | None) -> None:
        """The document changed by ``changes`` (None: its text was replaced whole)."""
        tracked = self._tracked.get(uri)
        if tracked is None:
            return
        if changes is None or not all(change.new.isascii() for change in changes):
            del self._tracked[uri]
            return
        pieces = tracked.pieces
        for change in changes:
            pieces = edited(pieces, change.start, change.end, change.new.encode("ascii"))
        if len(pieces) > MOST_PIECES:
            del self._tracked[uri]
            return
        tracked.pieces = pieces

    def closed(self, uri: str) -> None:
        self._tracked.pop(uri, None)

    def copy_of(self, uri: str, text: str) -> DiskCopy | None:
        """The document (whose text is ``text``) as its file and edits, when it is one."""
        tracked = self._tracked.get(uri)
        if tracked is None:
            return None
        try:
            if Stamp.of(os.stat(tracked.path)) != tracked.stamp:
                raise OSError("changed on disk")
            copy = DiskCopy(tracked.path, tracked.stamp, tracked.pieces)
            if not tracked.compared:
                tracked.compared = _spells(copy, text)
                if not tracked.compared:
                    raise OSError("not the file's text")
        except OSError:
            del self._tracked[uri]
            return None
        return copy


def _spells(copy: DiskCopy, text: str) -> bool:
    """Do the file's pieces spell ``text`` (ASCII)?"""
    with copy.read() as source:
        if len(source) != len(text):
            return False
        for at in range(0, len(text), _COMPARED):
            if source[at : at + _COMPARED] != text[at : at + _COMPARED].encode("ascii"):
                return False
    return True
