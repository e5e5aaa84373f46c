"""The editor's workspace folders, and the workspace each document belongs to."""

from __future__ import annotations

import logging
import os

from passlint import roots
from passlint.server.uris import folder_path, on_disk

log = logging.getLogger(__name__)


class WorkspaceRoots:
    """The workspace folders (URI -> real path) and the project found for each folder."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}
        self._projects: dict[str, str | None] = {}  # the project of each folder (``for_path``)

    @property
    def roots(self) -> tuple[str, ...]:
        """The editor's workspace folders, as real paths."""
        return tuple(dict.fromkeys(self.folders.values()))

    def change(self, added: list[str], removed: list[str]) -> None:
        """Workspace folders (URIs) were added or removed."""
        for uri in removed:
            real = folder_path(uri)
            gone = [u for u, path in self.folders.items() if u == uri or path == real]
            for known in gone:
                del self.folders[known]
        for uri in added:
            real = folder_path(uri)
            if real is not None:
                self.folders[uri] = real

    def for_path(self, path: str) -> tuple[str, ...]:
        """The workspace a document belongs to: the editor's folders; without any, the
        document's project, else the document alone (``passlint.roots``); a document that
        is no file (``uris``) has no project, and without folders no workspace."""
        if not on_disk(path):
            return self.roots
        try:
            return roots.roots_for(self.roots, path, self._projects)
        except OSError as error:  # a folder that cannot be looked into: no project
            log.warning("no project looked for around %s: %s", path, error)
            return (path,)

    def forget_projects(self) -> None:
        """Configuration files changed: projects are looked for again."""
        self._projects.clear()


def folder_of(path: str) -> str | None:
    """The folder of a document's file (None: it is no file)."""
    return os.path.dirname(path) if on_disk(path) else None
