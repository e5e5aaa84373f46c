"""The pl files of a workspace by the names they mention, built once per workspace state.

Cross-file call-site resolution asks "which files may call kernel ``k`` of file ``G``?".
Such a file imports it, so its text names ``k`` (an import names the original, a call the
alias it imported) and it can reach ``G`` by imports: an import statement of it names
``G``'s module (the file's stem, or its folder's name for an ``__init__.py``), it lies in
``G``'s package (``from . import k``), or it imports such a file in turn (which names ``k``
too, as it imports it: a chain that renames ``k`` twice is not followed). The index keeps
the text of every workspace file that mentions ``pypto`` (read once through the shared
``DiskFiles``), answers from memory, and updates the one file an unsaved edit changes; the
files it names are then parsed (through the module cache) and their calls resolved.
"""

from __future__ import annotations

import os
import re

from passlint.analysis.workspace import Workspace


class WorkspaceIndex:
    """The contents of every workspace Python file that mentions ``pypto`` (as bytes:
    searching them needs no decoding)."""

    def __init__(self, workspace: Workspace) -> None:
        self._data: dict[str, bytes] = {}
        self._texts: dict[str, str | None] = {}
        for path in workspace.python_files():
            self._store(path, workspace.data_listed(path))
        self._naming: dict[str, frozenset[str]] = {}

    def file_changed(self, path: str, text: str | None) -> None:
        """Re-index one file (an unsaved document changed): the rest stays as it is."""
        self._store(path, text.encode("utf-8", "surrogatepass") if text is not None else None)
        self._naming = {}

    def _store(self, path: str, data: bytes | None) -> None:
        self._data.pop(path, None)
        self._texts.pop(path, None)
        if data is not None and b"pypto" in data and path.endswith(".py"):
            self._data[path] = data

    def paths(self) -> list[str]:
        return sorted(self._data)

    def data(self, path: str) -> bytes | None:
        """The content of an indexed file, as read (None: not indexed)."""
        return self._data.get(path)

    def text(self, path: str) -> str | None:
        """The text of an indexed file (None: not indexed, or not UTF-8)."""
        if path not in self._texts:
            data = self._data.get(path)
            try:
                self._texts[path] = data.decode("utf-8") if data is not None else None
            except UnicodeDecodeError:
                self._texts[path] = None
        return self._texts[path]

    def files_naming(self, name: str) -> list[str]:
        """The pypto files that mention the identifier ``name``, in path order."""
        return sorted(self._named(name))

    def _named(self, name: str) -> frozenset[str]:
        found = self._naming.get(name)
        if found is None:
            needle = name.encode("utf-8", "surrogatepass")
            word = re.compile(rb"(?<!\w)" + re.escape(needle) + rb"(?!\w)")
            found = frozenset(
                path for path, data in self._data.items() if needle in data and word.search(data)
            )
            self._naming[name] = found
        return found

    def importers(self, name: str | None, path: str) -> list[str]:
        """The files other than ``path`` that name ``name`` and may reach the module at
        ``path`` by imports (directly or through other modules), in path order; with
        ``name`` None, every file that may reach it."""
        reach = {path}
        todo = [path]
        while todo:
            module = todo.pop()
            stem, package = _module_word(module)
            found = set(self._importing(stem))
            if package is not None:
                found |= {p for p in self._data if p.startswith(package)}
            if found and name is not None:  # (most modules are imported by no file)
                found &= self._named(name)
            for other in found - reach:
                reach.add(other)
                todo.append(other)
        return sorted(reach - {path})

    def _importing(self, stem: str) -> frozenset[str]:
        """The files with an import statement that may name the module ``stem``."""
        key = "import " + stem
        found = self._naming.get(key)
        if found is None:
            pattern = _IMPORT_STATEMENT.replace("STEM", re.escape(stem))
            statement = re.compile(pattern.encode("utf-8", "surrogatepass"), re.M)
            found = frozenset(p for p in self._named(stem) if statement.search(self._data[p]))
            self._naming[key] = found
        return found


# An import statement that may name module STEM: ``import a.STEM``, ``from a.STEM import
# k``, ``from a import STEM`` (also in parentheses over lines). It starts a line or follows
# ``;`` or ``:``; more matches than statements only cost time.
_IMPORT_STATEMENT = (
    r"(?:^|[;:])[ \t]*(?:"
    r"import[ \t\\](?:[^\n;#]|\\\n)*?(?<!\w)STEM(?!\w)"
    r"|from[ \t\\](?:[.\w \t]|\\\n)*?(?<!\w)STEM(?!\w)"
    r"|from[ \t\\](?:[.\w \t]|\\\n)*?import[ \t]*(?:\([^)]*?|(?:[^\n;#]|\\\n)*?)(?<!\w)STEM(?!\w)"
    r")"
)


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
