"""The files an analysis may read: open documents over the disk, limited to workspace roots.

The disk side (``DiskFiles``: which Python files there are, and their texts) is read once
and then kept up to date from file events, so a run of many analyses (a batch check, or a
language server's session) reads each file once; each analysis sees it through a
``Workspace``, which lays the unsaved documents of that moment over it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")

_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


class DiskFiles:
    """The ``.py`` files below some roots as they are on disk: listed on first use, each
    text read once, and forgotten again file by file when told (``changed``). Shared by the
    analyses of a run or of a server session; safe to use from several threads."""

    def __init__(self, roots: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.roots = [Path(root).resolve() for root in roots]
        self._lock = threading.Lock()
        self._listing: set[str] | None = None  # resolved paths
        self._links: set[str] = set()  # those of the listing that are symbolic links
        self._data: dict[str, bytes | None] = {}  # resolved path -> content (None: unreadable)
        self._texts: dict[str, str | None] = {}  # the same decoded (None: not UTF-8)

    def contains(self, resolved: Path) -> bool:
        return any(resolved == root or root in resolved.parents for root in self.roots)

    def python_files(self) -> set[str]:
        """Every ``.py`` file below the roots (hidden and cache folders skipped)."""
        with self._lock:
            if self._listing is None:
                self._listing, self._links = _walk(self.roots)
            return set(self._listing)

    def read(self, resolved: Path) -> str | None:
        """The text of a file inside the roots (``resolved``: a resolved path), else None."""
        return self._text(str(resolved), resolved)

    def data_listed(self, path: str) -> bytes | None:
        """The bytes of a file ``python_files`` gave (not decoded: cheaper to search); below
        a root, only the file itself may be a link (the listing follows no linked folder).
        The listing tells which files are links; a path it does not hold (it was forgotten
        since) is asked of the disk."""
        with self._lock:  # (the listing and its links, of the same walk)
            listing, links = self._listing, self._links
        listed = listing is not None and path in listing
        link = path in links if listed else os.path.islink(path)
        return self._bytes(path, Path(path).resolve() if link else None)

    def _text(self, key: str, resolved: Path | None) -> str | None:
        with self._lock:
            if key in self._texts:
                return self._texts[key]
        data = self._bytes(key, resolved)
        try:
            text = data.decode("utf-8") if data is not None else None
        except UnicodeDecodeError:
            text = None
        with self._lock:
            self._texts[key] = text
        return text

    def _bytes(self, key: str, resolved: Path | None) -> bytes | None:
        """The file's content, read once (``resolved``: its resolved path, checked to lie
        inside the roots; None: ``key`` is that path already)."""
        with self._lock:
            if key in self._data:
                return self._data[key]
        if resolved is not None and not self.contains(resolved):
            return None
        try:
            handle = os.open(resolved or key, os.O_RDONLY)
        except OSError:
            handle = -1  # a missing or unreadable file
        data: bytes | None = None
        if handle >= 0:
            try:
                size = os.fstat(handle).st_size
                data = os.read(handle, size + 1)  # (a regular file: all of it, in one read)
                if len(data) > size:  # it grew while read
                    chunks = [data]
                    while chunks[-1]:
                        chunks.append(os.read(handle, 1 << 16))
                    data = b"".join(chunks)
            except OSError:
                data = None  # a folder
            finally:
                os.close(handle)
        with self._lock:
            self._data[key] = data
        return data

    def changed(self, path: str | os.PathLike[str]) -> None:
        """A file was created, changed or deleted: read it again when asked."""
        resolved = Path(path).resolve()
        key = str(resolved)
        with self._lock:
            self._data.pop(key, None)
            self._texts.pop(key, None)
            if self._listing is not None and key.endswith(".py") and self.contains(resolved):
                if resolved.is_file() and not _skipped(resolved, self.roots):
                    self._listing.add(key)
                else:
                    self._listing.discard(key)

    def forget(self) -> None:
        """Forget everything read (many files changed at once)."""
        with self._lock:
            self._listing = None
            self._links = set()
            self._data.clear()
            self._texts.clear()


# The disk sides a language server's analyses share, by roots: read once per session and
# told of every change by the editor (``workspace/didChangeWatchedFiles``). ``generation``
# counts those changes: a process that was not told (a worker process) forgets what it read.
_shared: dict[tuple[str, ...], tuple[DiskFiles, list[int]]] = {}
_shared_lock = threading.Lock()


def shared_files(roots: Iterable[str | os.PathLike[str]], generation: int) -> DiskFiles:
    """This process's ``DiskFiles`` of ``roots``, up to date with change ``generation``."""
    key = tuple(str(Path(root).resolve()) for root in roots)
    with _shared_lock:
        found = _shared.get(key)
        if found is None:
            found = _shared[key] = (DiskFiles(key), [generation])
    files, seen = found
    if seen[0] != generation:
        files.forget()
        seen[0] = generation
    return files


def files_changed(paths: Iterable[str | os.PathLike[str]], generation: int) -> None:
    """Files were created, changed or deleted (change ``generation``): tell every shared
    ``DiskFiles`` (each forgets those it holds)."""
    with _shared_lock:
        found = list(_shared.values())
    for files, seen in found:
        for path in paths:
            files.changed(path)
        seen[0] = generation


def _walk(roots: list[Path]) -> tuple[set[str], set[str]]:
    """The ``.py`` files below ``roots`` (as ``os.walk`` lists them: linked folders are not
    entered, hidden and cache folders skipped), and those of them that are symbolic links
    (told by the directory entries, without a system call per file)."""
    found: set[str] = set()
    links: set[str] = set()
    tops = [r for r in roots if not any(o in r.parents for o in roots)]
    for root in dict.fromkeys(tops):
        if root.is_file():
            if root.suffix == ".py":
                found.add(str(root))
            continue
        folders = [str(root)]
        while folders:
            try:
                with os.scandir(folders.pop()) as scan:
                    entries = list(scan)
            except OSError:
                continue
            for entry in entries:
                try:
                    is_folder = entry.is_dir()
                except OSError:
                    is_folder = False
                name = entry.name
                if is_folder:
                    if not _skipped_folder(name) and not entry.is_symlink():
                        folders.append(entry.path)
                elif name.endswith(".py"):
                    found.add(entry.path)
                    if entry.is_symlink():
                        links.add(entry.path)
    return found, links


def _skipped(path: Path, roots: list[Path]) -> bool:
    """Whether ``_walk`` would not list ``path`` (it lies in a hidden or cache folder)."""
    root = next((r for r in roots if r in path.parents), None)
    if root is None:
        return path not in roots
    return any(_skipped_folder(part) for part in path.relative_to(root).parts[:-1])


def _skipped_folder(name: str) -> bool:
    """Is a folder of this name left out of the listing (hidden, or a cache or build)?"""
    return name in _SKIPPED_DIRS or name.startswith(".")


class Workspace:
    """Workspace folders plus an overlay of unsaved documents.

    Only files inside a root are ever read, so cross-file resolution cannot wander off
    into the rest of the machine. ``files`` is the disk side, shared with other workspaces
    of the same roots (made here when not given). ``screen``: a batch run, where a pass may
    leave a file alone when its text shows it cannot have a finding.
    """

    def __init__(
        self,
        roots: Iterable[str | os.PathLike[str]] = (),
        files: DiskFiles | None = None,
        screen: bool = False,
    ) -> None:
        self.roots = [Path(root).resolve() for root in roots]
        self.files = files if files is not None else DiskFiles(self.roots)
        self.screen = screen
        self._overlay: dict[Path, str] = {}
        self._python_files: list[str] | None = None
        self._derived: dict[str, object] = {}

    def set_overlay(self, path: str, text: str | None) -> None:
        """Record (or, with None, forget) the unsaved text of an open document."""
        key = Path(path).resolve()
        if (key in self._overlay) != (text is not None):
            self._python_files = None
        changed = self._overlay.get(key) != text
        if text is None:
            self._overlay.pop(key, None)
        else:
            self._overlay[key] = text
        if changed:
            self._file_changed(str(key))

    def data_listed(self, path: str) -> bytes | None:
        """The content of a file ``python_files`` gave, encoded (overlay first)."""
        if self._overlay:
            text = self._overlay.get(Path(path))
            if text is not None:
                return text.encode("utf-8", "surrogatepass")
        return self.files.data_listed(path)

    def _file_changed(self, path: str) -> None:
        """Tell what was derived from the files that one changed: a value with a
        ``file_changed(path, text)`` method updates itself, any other is dropped."""
        for name, value in list(self._derived.items()):
            update = getattr(value, "file_changed", None)
            if update is None:
                del self._derived[name]
            else:
                update(path, self.read(path))

    def contains(self, path: str | os.PathLike[str]) -> bool:
        resolved = Path(path).resolve()
        return any(resolved == root or root in resolved.parents for root in self.roots)

    def read(self, path: str | os.PathLike[str]) -> str | None:
        """The text of a file inside the workspace (overlay first), else None."""
        resolved = Path(path).resolve()
        if resolved in self._overlay:
            return self._overlay[resolved]
        if not self.contains(resolved):
            return None
        return self.files.read(resolved)

    # -- Python modules (pl cross-file resolution) -----------------------------------------

    def find_module(self, name: str, importer: str, level: int = 0) -> str | None:
        """The file of ``import name`` seen from ``importer``, if it lies inside the roots.

        ``level`` counts the leading dots of a relative import. An absolute name is looked
        up next to the importing file first, then below each root.
        """
        parts = [part for part in name.split(".") if part]
        importer_dir = Path(importer).resolve().parent
        if level > 0:
            base = importer_dir
            for _ in range(level - 1):
                base = base.parent
            bases = [base]
        else:
            bases = [importer_dir, *self.roots]
        for base in bases:
            for candidate in _module_files(base, parts):
                if self.contains(candidate) and (candidate in self._overlay or candidate.is_file()):
                    return str(candidate)
        return None

    def python_files(self) -> list[str]:
        """Every ``.py`` file below the roots (hidden and cache folders skipped), plus
        unsaved documents; sorted, computed once until ``forget_files``."""
        if self._python_files is None:
            found = {str(p) for p in self._overlay if p.suffix == ".py" and self.contains(p)}
            tops = tuple(os.path.join(str(root), "") for root in self.roots)
            found.update(p for p in self.files.python_files() if p.startswith(tops))
            self._python_files = sorted(found)
        return list(self._python_files)

    def forget_files(self) -> None:
        """Drop the file listing and texts read (files were created, changed or deleted)."""
        self.files.forget()
        self._python_files = None
        self._derived.clear()

    def derived(self, key: str, build: Callable[[], _T]) -> _T:
        """What ``build`` makes of the workspace's files (an index), built once until the
        files or an unsaved document change."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]  # type: ignore[return-value]


def _module_files(base: Path, parts: list[str]) -> list[Path]:
    if not parts:
        return [base / "__init__.py"]
    stem = base.joinpath(*parts)
    return [stem.with_name(stem.name + ".py"), stem / "__init__.py"]
