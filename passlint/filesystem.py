"""The one door to the file system: every file passlint reads goes through here.

A ``Boundary`` is a workspace: the roots a user named, as real paths. It turns a path into
its real path and refuses one that resolves outside the roots (through ``..``, an absolute
name or a symbolic link), so one real file is one file however it was reached. Reading takes
regular files only (a device, FIFO or socket is refused before it is opened, and again after,
should it have been swapped in between) and at most a given number of bytes, counted as they
are read: ``stat`` says 0 for ``/dev/zero``.

Writing back is ``passlint.writes``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from passlint.analysis.language import BYTECODE_SUFFIXES, HLO_PROTO_SUFFIXES, HLO_SUFFIXES

# How large a source file may be (the ``max-file-size`` setting's default, by language): a
# .mlir file, a gigabyte, as the dumps of large models are (the streaming reader checks them
# in bounded memory); an HLO text or proto, whose module takes about 30 bytes a byte, 128 MiB;
# MLIR bytecode, whose text jaxlib prints several times larger and which is parsed whole, and
# a Python file, whose syntax tree takes many times its size, 64 MiB.
MLIR_MAX_FILE_SIZE = 1024 * 1024 * 1024
HLO_MAX_FILE_SIZE = 128 * 1024 * 1024
PYTHON_MAX_FILE_SIZE = 64 * 1024 * 1024
_HLO_FILES = (*HLO_SUFFIXES, ".txt", *HLO_PROTO_SUFFIXES)  # (a .txt file read is an XLA dump)


def default_size_limit(path: str) -> int:
    """The largest file at ``path`` analysed by default (``max-file-size`` unset)."""
    if path.endswith((".py", *BYTECODE_SUFFIXES)):
        return PYTHON_MAX_FILE_SIZE
    return HLO_MAX_FILE_SIZE if path.endswith(_HLO_FILES) else MLIR_MAX_FILE_SIZE


# A file read for its settings or rules (a configuration file, a .gitignore) is small; one
# that is not is refused rather than read whole.
METADATA_LIMIT = 4 * 1024 * 1024
_CHUNK = 1 << 20
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)


class Refused(OSError):
    """A path passlint will not read or write, and why (one line, for people)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class IsLink(Refused):
    """A path read as a real path (``follow=False``) that is now a symbolic link."""


class TooLarge(Refused):
    """A regular file with more bytes than the limit it was read with."""

    def __init__(self, path: str, limit: int, size: int) -> None:
        super().__init__(path, f"more than {limit} bytes ({size} bytes)")
        self.limit = limit
        self.size = size  # as the file system says (at least limit + 1)


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_regular(path: str, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises ``Refused`` for anything else than a regular file (never opened: opening a FIFO
    waits for a writer, some devices act when opened), ``TooLarge`` beyond ``limit`` bytes
    and ``OSError`` when the file cannot be read. ``follow=False``: ``path`` is known to be a
    real path, and ``IsLink`` says it has become a symbolic link since."""
    before = os.stat(path) if follow else os.lstat(path)
    if stat.S_ISLNK(before.st_mode):
        raise IsLink(path, "a symbolic link")
    if not stat.S_ISREG(before.st_mode):
        raise Refused(path, f"{kind_of(before.st_mode)}, not a regular file")
    handle = os.open(path, _OPEN_FLAGS if follow else _OPEN_FLAGS | os.O_NOFOLLOW)
    try:
        now = os.fstat(handle)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (
            before.st_dev,
            before.st_ino,
        ):
            raise Refused(path, "changed while it was opened")
        if now.st_size > limit:  # (refused unread: reading a limit's worth takes a while)
            raise TooLarge(path, limit, now.st_size)
        # What the size says in one read (a regular file's size is true unless it grows
        # while read), then on in pieces until the end, never past the limit.
        chunks = [os.read(handle, min(now.st_size, limit) + 1)]
        total = len(chunks[0])
        while total <= limit and chunks[-1]:
            chunks.append(os.read(handle, min(_CHUNK, limit + 1 - total)))
            total += len(chunks[-1])
        if total > limit:
            raise TooLarge(path, limit, max(now.st_size, total))
        if len(chunks) == 2 and not chunks[1]:  # (the usual case: no copy)
            return chunks[0]
        return b"".join(chunks)
    finally:
        os.close(handle)


class FileBytes:
    """A regular file's bytes, read where they are asked for (``len``, slices and ``find``
    as of ``bytes``), so a large file is never held whole.

    Positional reads, not a memory map: a map of a file that another program truncates
    meanwhile kills the process at the next read (SIGBUS); a read gives fewer bytes, and
    ``OSError`` says the file changed. ``close`` (or the ``with`` block) ends the reading."""

    def __init__(self, handle: int, path: str) -> None:
        self.handle = handle
        self.path = path
        self.stat = os.fstat(handle)
        self.size = self.stat.st_size

    def __enter__(self) -> FileBytes:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.handle >= 0:
            os.close(self.handle)
            self.handle = -1

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, where: slice) -> bytes:
        start, stop, _ = where.indices(self.size)
        if stop <= start:
            return b""
        data = _read_at(self.handle, stop - start, start)
        while len(data) < stop - start:
            more = _read_at(self.handle, stop - start - len(data), start + len(data))
            if not more:
                raise Refused(self.path, "changed while it was read")
            data += more
        return data

    def find(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        """The first offset of ``sub`` in ``[start, end)``, read a piece at a time; -1."""
        end = self.size if end is None else min(end, self.size)
        while start < end:
            stop = min(end, start + _CHUNK)
            found = self[start : min(end, stop + len(sub) - 1)].find(sub)
            if found >= 0:
                return start + found
            start = stop
        return -1

    def unchanged(self) -> bool:
        """Is the file as it was when opened (its size and modification time)?"""
        now = os.fstat(self.handle)
        return (now.st_size, now.st_mtime_ns) == (self.size, self.stat.st_mtime_ns)


def _read_at(handle: int, size: int, offset: int) -> bytes:
    """``size`` bytes (or fewer, at the end) from ``offset`` of the open file ``handle``."""
    if hasattr(os, "pread"):
        return os.pread(handle, size, offset)
    os.lseek(handle, offset, os.SEEK_SET)  # (Windows: no pread; a FileBytes is read by one)
    return os.read(handle, size)


def open_regular(path: str, limit: int) -> FileBytes:
    """The regular file at ``path`` to read where needed (``FileBytes``), checked as
    ``read_regular`` checks what it reads: ``Refused``, ``TooLarge`` beyond ``limit`` bytes,
    ``OSError``."""
    before = os.stat(path)
    if not stat.S_ISREG(before.st_mode):
        raise Refused(path, f"{kind_of(before.st_mode)}, not a regular file")
    handle = os.open(path, _OPEN_FLAGS)
    try:
        opened = FileBytes(handle, path)
    except BaseException:
        os.close(handle)
        raise
    now = opened.stat
    if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
        opened.close()
        raise Refused(path, "changed while it was opened")
    if now.st_size > limit:
        opened.close()
        raise TooLarge(path, limit, now.st_size)
    return opened


def is_regular(path: str) -> bool:
    """Whether ``path`` is (or links to) a regular file."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_inside(real: str, roots: Iterable[str]) -> bool:
    """Whether the real path ``real`` is one of ``roots`` (real paths) or lies below one."""
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


class Boundary:
    """The workspace as the file system sees it: real paths below the roots, nothing else."""

    def __init__(self, roots: Iterable[str | os.PathLike[str]]) -> None:
        self.roots: tuple[str, ...] = tuple(dict.fromkeys(os.path.realpath(r) for r in roots))

    def __repr__(self) -> str:
        return f"Boundary({list(self.roots)!r})"

    def contains(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` resolves inside the roots."""
        return is_inside(os.path.realpath(path), self.roots)

    def real(self, path: str | os.PathLike[str]) -> str:
        """The real path of ``path``; ``Refused`` when it lies outside the roots."""
        real = os.path.realpath(path)
        if not is_inside(real, self.roots):
            shown = os.fspath(path)
            where = "" if real == os.path.abspath(shown) else f" (it resolves to {real})"
            raise Refused(shown, f"outside the workspace{where}")
        return real

    def open(self, path: str | os.PathLike[str], limit: int) -> FileBytes:
        """A regular file inside the roots, to read where needed (see ``open_regular``)."""
        real = self.real(path)
        try:
            return open_regular(real, limit)
        except Refused as refused:
            refused.path = os.fspath(path)  # as the caller named it
            raise

    def read(self, path: str | os.PathLike[str], limit: int) -> bytes:
        """The bytes of a regular file inside the roots (see ``read_regular``)."""
        real = self.real(path)
        try:
            return read_regular(real, limit)
        except Refused as refused:
            refused.path = os.fspath(path)  # as the caller named it
            raise
