"""The files an analysis may read: open documents over the disk, limited to workspace roots."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")


class Workspace:
    """Workspace folders plus an overlay of unsaved documents.

    Only files inside a root are ever read, so cross-file resolution cannot wander off
    into the rest of the machine.
    """

    def __init__(self, roots: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.roots = [Path(root).resolve() for root in roots]
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
        if not self.contains(resolved) or not resolved.is_file():
            return None
        try:
            return resolved.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

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
            found: set[Path] = {p for p in self._overlay if p.suffix == ".py" and self.contains(p)}
            roots = [r for r in self.roots if not any(o in r.parents for o in self.roots)]
            for root in dict.fromkeys(roots):
                if root.is_file():
                    if root.suffix == ".py":
                        found.add(root)
                    continue
                for folder, subfolders, files in os.walk(root):
                    subfolders[:] = [d for d in subfolders if d not in _SKIPPED_DIRS]
                    subfolders[:] = [d for d in subfolders if not d.startswith(".")]
                    found.update(Path(folder, f) for f in files if f.endswith(".py"))
            self._python_files = sorted(str(p) for p in found)
        return list(self._python_files)

    def forget_files(self) -> None:
        """Drop the cached file listing (files were created, changed or deleted)."""
        self._python_files = None
        self._derived.clear()

    def derived(self, key: str, build: Callable[[], _T]) -> _T:
        """What ``build`` makes of the workspace's files (an index), built once until the
        files or an unsaved document change."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]  # type: ignore[return-value]


_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist"})


def _module_files(base: Path, parts: list[str]) -> list[Path]:
    if not parts:
        return [base / "__init__.py"]
    stem = base.joinpath(*parts)
    return [stem.with_name(stem.name + ".py"), stem / "__init__.py"]
