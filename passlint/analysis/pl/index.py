"""The pl files of a workspace by the names they mention, built once per workspace state.

Cross-file call-site resolution asks "which files may call kernel ``k`` of file ``G``?".
Such a file imports it, so its text names ``k`` (an import names the original, a call the
alias it imported) and it can reach ``G`` by imports: it names ``G``'s module (the file's
stem, or its folder's name for an ``__init__.py``), lies in ``G``'s package (``from .
import k``), or names a module that reaches ``G`` in turn. The index keeps the text of every
workspace file that mentions ``pypto`` (read once through the workspace's shared
``DiskFiles``), answers from memory, and updates the one file an unsaved edit changes; the
files it names are then parsed (through the module cache) and their calls resolved.
"""

from __future__ import annotations

import os
import re

from passlint.analysis.workspace import Workspace


class WorkspaceIndex:
    """The texts of every workspace Python file that mentions ``pypto``."""

    def __init__(self, workspace: Workspace) -> None:
        self._texts: dict[str, str] = {}
        for path in workspace.python_files():
            self.file_changed(path, workspace.read_listed(path))
        self._naming: dict[str, frozenset[str]] = {}

    def file_changed(self, path: str, text: str | None) -> None:
        """Re-index one file (an unsaved document changed): the rest stays as it is."""
        self._texts.pop(path, None)
        if text is not None and "pypto" in text and path.endswith(".py"):
            self._texts[path] = text
        self._naming = {}

    def paths(self) -> list[str]:
        return sorted(self._texts)

    def text(self, path: str) -> str | None:
        return self._texts.get(path)

    def files_naming(self, name: str) -> list[str]:
        """The pypto files that mention the identifier ``name``, in path order."""
        return sorted(self._named(name))

    def _named(self, name: str) -> frozenset[str]:
        found = self._naming.get(name)
        if found is None:
            word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
            found = frozenset(
                path for path, text in self._texts.items() if name in text and word.search(text)
            )
            self._naming[name] = found
        return found

    def importers(self, name: str, path: str) -> list[str]:
        """The files other than ``path`` that name ``name`` and may reach the module at
        ``path`` by imports (directly or through other modules), in path order."""
        reach = {path}
        todo = [path]
        while todo:
            module = todo.pop()
            stem, package = _module_word(module)
            found = set(self._named(stem))
            if package is not None:
                found.update(p for p in self._texts if p.startswith(package))
            for other in found - reach:
                reach.add(other)
                todo.append(other)
        named = self._named(name)
        return sorted(p for p in reach if p != path and p in named)


def _module_word(path: str) -> tuple[str, str | None]:
    """The word an import of the module at ``path`` names (its stem; an ``__init__.py``:
    its folder's name), and for an ``__init__.py`` the folder (with a separator) whose
    files may import it by a relative ``from . import``."""
    folder, file = os.path.split(path)
    if file == "__init__.py":
        return os.path.basename(folder), os.path.join(folder, "")
    return file[: -len(".py")] if file.endswith(".py") else file, None


def workspace_index(workspace: Workspace) -> WorkspaceIndex:
    """The index of ``workspace`` as its files are now (built on first use)."""
    return workspace.derived("pl.index", lambda: WorkspaceIndex(workspace))
