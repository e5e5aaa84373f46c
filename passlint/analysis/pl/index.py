"""The pl files of a workspace by the names they mention, built once per workspace state.

Cross-file call-site resolution asks "which files may call or import kernel ``k``?": every
such file mentions the word ``k`` (an import names the original, a call the alias it
imported). The index reads each pypto file of the workspace once, keeps its words, and
answers from memory; the files it names are then parsed (through the module cache) and
their call sites checked. It is rebuilt when the workspace's files change
(``Workspace.forget_files``) and updates the one file an edit of an unsaved document changes.
"""

from __future__ import annotations

import re

from passlint.analysis.workspace import Workspace

_WORD = re.compile(r"[A-Za-z_]\w*")


class WorkspaceIndex:
    """The words of every workspace Python file that mentions ``pypto``."""

    def __init__(self, workspace: Workspace) -> None:
        self._words: dict[str, frozenset[str]] = {}
        for path in workspace.python_files():
            self.file_changed(path, workspace.read(path))

    def file_changed(self, path: str, text: str | None) -> None:
        """Re-index one file (an unsaved document changed): the rest stays as it is."""
        self._words.pop(path, None)
        if text is not None and "pypto" in text and path.endswith(".py"):
            self._words[path] = frozenset(_WORD.findall(text))

    def files_naming(self, name: str) -> list[str]:
        """The pypto files that mention the identifier ``name``, in path order."""
        return sorted(path for path, words in self._words.items() if name in words)


def workspace_index(workspace: Workspace) -> WorkspaceIndex:
    """The index of ``workspace`` as its files are now (built on first use)."""
    return workspace.derived("pl.index", lambda: WorkspaceIndex(workspace))
