"""The files an analysis may read: open documents over the disk, limited to workspace roots.

The disk side (``DiskFiles``: which Python files there are, and their texts) is read once
and then kept up to date from file events, so a run of many analyses (a batch check, or a
language server's session) reads each file once; each analysis sees it through a
``Workspace``, which lays the unsaved documents of that moment over it.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from passlint.filesystem import (
    PYTHON_MAX_FILE_SIZE,
    Boundary,
    IsLink,
    Refused,
    TooLarge,
    is_inside,
    is_regular,
    kind_of,
    read_regular,
)

_T = TypeVar("_T")

_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


class DiskFiles:
    """The ``.py`` files below some roots as they are on disk: listed on first use, each
    text read once, and forgotten again file by file when told (``changed``). Shared by the
    analyses of a run or of a server session; safe to use from several threads.

    Every read goes through the roots' ``Boundary``: one real file is listed once however
    many links reach it, and a file that is not read (a link out of the roots, a FIFO or a
    device, a file above ``limit`` bytes, one that cannot be opened) is kept in ``refused``
    with the reason, for a pass that must know whether it has seen every file."""

    def __init__(
        self, roots: Iterable[str | os.PathLike[str]] = (), limit: int = PYTHON_MAX_FILE_SIZE
    ) -> None:
        self.boundary = Boundary(roots)
        self.roots = [Path(root) for root in self.boundary.roots]
        self.limit = limit
        self._lock = threading.Lock()
        self._listing: set[str] | None = None  # real paths
        self._refused: dict[str, str] = {}  # path as found -> why it is not read
        self._data: dict[str, bytes | None] = {}  # real path -> content (None: not read)
        self._texts: dict[str, str | None] = {}  # the same decoded (None: not UTF-8)

    def contains(self, resolved: Path) -> bool:
        return any(resolved == root or root in resolved.parents for root in self.roots)

    def python_files(self) -> set[str]:
        """Every ``.py`` file below the roots (hidden and cache folders skipped), each by its
        real path."""
        with self._lock:
            if self._listing is None:
                self._listing, refused = _walk(self.roots, self.boundary)
                self._refused.update(refused)
            return set(self._listing)

    def refused(self) -> dict[str, str]:
        """The ``.py`` files found below the roots and not read, with the reason for each."""
        with self._lock:
            return dict(self._refused)

    def read(self, resolved: Path) -> str | None:
        """The text of a file inside the roots (``resolved``: a resolved path), else None."""
        return self._text(str(resolved))

    def data_listed(self, path: str) -> bytes | None:
        """The bytes of a file ``python_files`` gave (not decoded: cheaper to search)."""
        return self._bytes(path)

    def _text(self, key: str) -> str | None:
        with self._lock:
            if key in self._texts:
                return self._texts[key]
        data = self._bytes(key)
        try:
            text = data.decode("utf-8") if data is not None else None
        except UnicodeDecodeError:
            text = None
        with self._lock:
            self._texts[key] = text
        return text

    def _bytes(self, key: str) -> bytes | None:
        """The content of the file at the real path ``key``, read once; should it have
        become a link since it was listed, it is read through the boundary."""
        with self._lock:
            if key in self._data:
                return self._data[key]
        data: bytes | None = None
        reason = None
        try:
            try:
                data = read_regular(key, self.limit, follow=False)
            except IsLink:
                data = self.boundary.read(key, self.limit)
        except TooLarge:
            reason = f"more than max-file-size ({self.limit} bytes)"
        except Refused as refused:
            reason = refused.reason
        except FileNotFoundError:
            pass  # deleted since it was listed: nothing to read
        except OSError as error:
            reason = f"cannot read it: {error.strerror or error}"
        with self._lock:
            self._data[key] = data
            if reason is not None:
                self._refused[key] = reason
        return data

    def changed(self, path: str | os.PathLike[str]) -> None:
        """A file was created, changed or deleted: read it again when asked."""
        resolved = Path(path).resolve()
        key = str(resolved)
        with self._lock:
            self._data.pop(key, None)
            self._texts.pop(key, None)
            self._refused.pop(key, None)
            self._refused.pop(os.fspath(path), None)
            if self._listing is not None and key.endswith(".py") and self.contains(resolved):
                if is_regular(key) and not _skipped(resolved, self.roots):
                    self._listing.add(key)
                else:
                    self._listing.discard(key)

    def forget(self) -> None:
        """Forget everything read (many files changed at once)."""
        with self._lock:
            self._listing = None
            self._refused = {}
            self._data.clear()
            self._texts.clear()


class SharedFiles:
    """The disk sides a language server's analyses share, by roots (part of a ``PlMemo``):
    read once per session and told of every change by the editor
    (``workspace/didChangeWatchedFiles``). ``generation`` counts those changes: a process
    that was not told (a worker process) forgets what it read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._files: dict[tuple[str, ...], tuple[DiskFiles, list[int]]] = {}

    def of(self, roots: Iterable[str | os.PathLike[str]], generation: int) -> DiskFiles:
        """The ``DiskFiles`` of ``roots``, up to date with change ``generation``."""
        key = tuple(str(Path(root).resolve()) for root in roots)
        with self._lock:
            found = self._files.get(key)
            if found is None:
                found = self._files[key] = (DiskFiles(key), [generation])
        files, seen = found
        if seen[0] != generation:
            files.forget()
            seen[0] = generation
        return files

    def changed(self, paths: Iterable[str | os.PathLike[str]], generation: int) -> None:
        """Files were created, changed or deleted (change ``generation``): tell every
        ``DiskFiles`` kept (each forgets those it holds)."""
        with self._lock:
            found = list(self._files.values())
        for files, seen in found:
            for path in paths:
                files.changed(path)
            seen[0] = generation

    def clear(self) -> None:
        with self._lock:
            self._files.clear()


def _walk(roots: list[Path], boundary: Boundary) -> tuple[set[str], dict[str, str]]:
    """The real paths of the ``.py`` regular files below ``roots`` (linked folders are not
    entered, hidden and cache folders skipped; a linked file counts by its target), and the
    ``.py`` names found that are not such a file, with the reason. Only links cost a system
    call of their own: the directory entries tell the kind of every other file."""
    found: set[str] = set()
    refused: dict[str, str] = {}
    tops = [r for r in roots if not any(o in r.parents for o in roots)]
    for root in dict.fromkeys(tops):
        if not root.is_dir():
            if root.suffix == ".py" and is_regular(str(root)):
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
                name = entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if not _skipped_folder(name):
                            folders.append(entry.path)
                        continue
                    if not name.endswith(".py"):
                        continue
                    if entry.is_file(follow_symlinks=False):
                        found.add(entry.path)
                    elif entry.is_symlink():
                        real = _linked_file(entry.path, boundary)
                        if isinstance(real, Refused):
                            refused[entry.path] = real.reason
                        else:
                            found.add(real)
                    else:
                        mode = entry.stat(follow_symlinks=False).st_mode
                        refused[entry.path] = f"{kind_of(mode)}, not a regular file"
                except OSError:
                    continue  # gone since the folder was listed
    return found, refused


def _linked_file(path: str, boundary: Boundary) -> str | Refused:
    """The real path a file link inside the roots leads to, or why it is not followed."""
    real = os.path.realpath(path)
    if not is_inside(real, boundary.roots):
        return Refused(path, f"links outside the workspace (to {real})")
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return Refused(path, "broken symbolic link")
    if not stat.S_ISREG(mode):
        return Refused(path, f"links to {kind_of(mode)}, not a regular file")
    return real


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
        self._root_names = frozenset(str(root) for root in self.roots)
        self._root_folders = tuple(os.path.join(str(root), "") for root in self.roots)
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
                if self.contains(candidate) and (candidate in self._overlay or _is_file(candidate)):
                    return str(candidate)
        return None

    def python_files(self) -> list[str]:
        """Every ``.py`` file below the roots (hidden and cache folders skipped), plus
        unsaved documents; sorted, computed once until ``forget_files``."""
        if self._python_files is None:
            found = {str(p) for p in self._overlay if p.suffix == ".py" and self.contains(p)}
            found.update(p for p in self.files.python_files() if self._below_roots(p))
            self._python_files = sorted(found)
        return list(self._python_files)

    def refused(self) -> dict[str, str]:
        """The ``.py`` files below the roots that were found and not read (a link out of the
        roots, a FIFO, a file too large...), with the reason: what a pass that must see every
        file (all call sites of a kernel) has not seen."""
        self.python_files()
        return {
            path: reason
            for path, reason in self.files.refused().items()
            if self._below_roots(path) and Path(path).resolve() not in self._overlay
        }

    def _below_roots(self, path: str) -> bool:
        """Whether ``path``, as listed (a root's path and names below it), is in a root."""
        return path in self._root_names or path.startswith(self._root_folders)

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


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False when it cannot be looked at (a name too long for
    the system, a folder that cannot be read: the import is then not followed)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _module_files(base: Path, parts: list[str]) -> list[Path]:
    if not parts:
        return [base / "__init__.py"]
    stem = base.joinpath(*parts)
    return [stem.with_name(stem.name + ".py"), stem / "__init__.py"]
