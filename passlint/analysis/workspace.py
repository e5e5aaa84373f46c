"""The files an analysis may read: open documents over the disk, limited to workspace roots."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


class Workspace:
    """Workspace folders plus an overlay of unsaved documents.

    Only files inside a root are ever read, so cross-file resolution cannot wander off
    into the rest of the machine.
    """

    def __init__(self, roots: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.roots = [Path(root).resolve() for root in roots]
        self._overlay: dict[Path, str] = {}

    def set_overlay(self, path: str, text: str | None) -> None:
        """Record (or, with None, forget) the unsaved text of an open document."""
        key = Path(path).resolve()
        if text is None:
            self._overlay.pop(key, None)
        else:
            self._overlay[key] = text

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
