"""An open document that is a file on disk with a few edits since: what the analysis process
reads instead of receiving the document's text (a copy of hundreds of megabytes through a
pipe and in that process, at each version of a large module).

A ``DiskCopy`` is the file (its real path and what ``stat`` said of it when the document
was found to be its text) and the document as pieces: ranges of the file's bytes and texts
put in by edits. An editor's document is one when it is ASCII text, whose characters are
bytes (``session.disk_copies`` keeps them); a file the editor does not hand over (VS Code's
above 50 MB) is one without edits. ``read`` gives its bytes, read where they are asked for
(the streaming reader's ``Source``), and refuses a file that has changed since.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass
from itertools import accumulate

from passlint.filesystem import FileBytes, Refused, is_regular, open_regular

Piece = tuple[int, int] | bytes  # the file's bytes [start, end), or a text put in


@dataclass(frozen=True)
class Stamp:
    """What ``stat`` says of a file, enough to tell it was not changed."""

    device: int
    inode: int
    size: int
    modified: int  # nanoseconds

    @classmethod
    def of(cls, result: os.stat_result) -> Stamp:
        return cls(result.st_dev, result.st_ino, result.st_size, result.st_mtime_ns)


@dataclass(frozen=True)
class DiskCopy:
    """A document: the file at ``path`` as ``stamp`` has it, edited into ``pieces``."""

    path: str
    stamp: Stamp
    pieces: tuple[Piece, ...]
    # Known to hold no character beyond U+FFFF (an ASCII document): its UTF-16 columns are
    # its character columns. A file read as it is may hold some (``has_astral``).
    bmp: bool = True

    @classmethod
    def of_file(cls, path: str) -> DiskCopy | None:
        """The regular file at ``path`` as it is now, unedited (None: no such file)."""
        real = os.path.realpath(path)
        try:
            if not is_regular(real):
                return None
            stamp = Stamp.of(os.stat(real))
        except OSError:
            return None
        return cls(real, stamp, ((0, stamp.size),) if stamp.size else (), bmp=False)

    def read(self) -> PiecedBytes:
        """The document's bytes (``PiecedBytes``); ``Refused`` when the file has changed."""
        opened = open_regular(self.path, self.stamp.size)
        if Stamp.of(opened.stat) != self.stamp:
            opened.close()
            raise Refused(self.path, "changed on disk since it was opened")
        return PiecedBytes(opened, self.pieces)


class PiecedBytes:
    """The bytes of pieces of a file and texts, read where they are asked for (``len``,
    slices and ``find`` as of ``bytes``)."""

    def __init__(self, file: FileBytes, pieces: tuple[Piece, ...]) -> None:
        self.file = file
        self.pieces = pieces
        lengths = [p[1] - p[0] if isinstance(p, tuple) else len(p) for p in pieces]
        self.starts = [0, *accumulate(lengths)]  # where each piece starts in the document

    def __enter__(self) -> PiecedBytes:
        return self

    def __exit__(self, *_: object) -> None:
        self.file.close()

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, where: slice, /) -> bytes:
        start, stop, _ = where.indices(len(self))
        out = []
        at = max(0, bisect.bisect_right(self.starts, start) - 1)
        while start < stop and at < len(self.pieces):
            piece, begin = self.pieces[at], self.starts[at]
            end = min(stop, self.starts[at + 1])
            if end > start:
                if isinstance(piece, tuple):
                    out.append(self.file[piece[0] + start - begin : piece[0] + end - begin])
                else:
                    out.append(piece[start - begin : end - begin])
                start = end
            at += 1
        return b"".join(out)

    def find(self, sub: bytes, start: int = 0, end: int | None = None, /) -> int:
        """The first offset of ``sub`` in ``[start, end)``, read a piece at a time; -1."""
        end = len(self) if end is None else min(end, len(self))
        step = max(1 << 20, len(sub))
        while start < end:
            stop = min(end, start + step)
            found = self[start : min(end, stop + len(sub) - 1)].find(sub)
            if found >= 0:
                return start + found
            start = stop
        return -1

    def unchanged(self) -> bool:
        return self.file.unchanged()


def has_astral(source: PiecedBytes) -> bool:
    """Does ``source`` hold a character beyond U+FFFF (a four-byte UTF-8 sequence)? Read a
    megabyte at a time."""
    for start in range(0, len(source), 1 << 20):
        if _ASTRAL_LEAD.search(source[start : start + (1 << 20)]):
            return True
    return False


_ASTRAL_LEAD = re.compile(rb"[\xf0-\xf4]")


def edited(pieces: tuple[Piece, ...], start: int, end: int, text: bytes) -> tuple[Piece, ...]:
    """``pieces`` with the bytes ``[start, end)`` of what they spell replaced by ``text``."""
    return tuple(_merged([*_cut(pieces, 0, start), text, *_cut(pieces, end, None)]))


def _cut(pieces: tuple[Piece, ...], low: int, high: int | None) -> list[Piece]:
    """The parts of ``pieces`` that spell their bytes ``[low, high)`` (``high`` None: to the
    end)."""
    out: list[Piece] = []
    at = 0
    for piece in pieces:
        length = piece[1] - piece[0] if isinstance(piece, tuple) else len(piece)
        first = max(low - at, 0)
        last = length if high is None else min(high - at, length)
        if first < last:
            out.append(
                (piece[0] + first, piece[0] + last)
                if isinstance(piece, tuple)
                else piece[first:last]
            )
        at += length
    return out


def _merged(pieces: list[Piece]) -> list[Piece]:
    """Adjacent texts joined, adjacent ranges of the file joined, empty pieces dropped."""
    out: list[Piece] = []
    for piece in pieces:
        if (isinstance(piece, tuple) and piece[0] == piece[1]) or piece == b"":
            continue
        last = out[-1] if out else None
        if isinstance(piece, bytes) and isinstance(last, bytes):
            out[-1] = last + piece
        elif isinstance(piece, tuple) and isinstance(last, tuple) and last[1] == piece[0]:
            out[-1] = (last[0], piece[1])
        else:
            out.append(piece)
    return out
