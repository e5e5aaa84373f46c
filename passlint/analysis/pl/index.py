"""The pl files of a workspace by the names they mention, built once per workspace state.

Cross-file call-site resolution asks "which files may call or import kernel ``k``?": every
such file mentions the word ``k`` (an import names the original, a call the alias it
imported). The index reads each pypto file of the workspace once, keeps its words, and
answers from memory; the files it names are then parsed (through the module cache) and
their call sites checked. It is rebuilt when the workspace's files or unsaved documents
change (``Workspace.derived``).
"""

from __future__ import annotations

import re

from passlint.analysis.workspace import Workspace

_WORD = re.compile(r"[A-Za-z_]\w*")


class WorkspaceIndex:
    """The words of every workspace Python file that mentions ``pypto``."""

    def __init__(self, workspace: Workspace) -> None:
        self._words: list[tuple[str, frozenset[str]]] = []
        for path in workspace.python_files():
            text = workspace.read(path)
            if text is None or "pypto" not in text:
                continue
            self._words.append((path, frozenset(_WORD.findall(text))))

    def files_naming(self, name: str) -> list[str]:
        """The pypto files that mention the identifier ``name``, in path order."""
        return [path for path, words in self._words if name in words]


def workspace_index(workspace: Workspace) -> WorkspaceIndex:
    """The index of ``workspace`` as its files are now (built on first use)."""
    return workspace.derived("pl.index", lambda: WorkspaceIndex(workspace))
