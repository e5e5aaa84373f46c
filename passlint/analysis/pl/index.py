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

import bisect
import os
import re
import unicodedata
from collections.abc import Iterable

from passlint.analysis.pl.python_text import spells_names_alike
from passlint.analysis.workspace import Workspace


class WorkspaceIndex:
    """The contents of every workspace Python file that mentions ``pypto`` (as bytes:
    searching them needs no decoding), and the files naming each name asked about."""

    def __init__(self, workspace: Workspace) -> None:
        self._data: dict[str, bytes] = {}
        self._search: dict[str, bytes] = {}  # what names are looked for in (``_searched``)
        self._texts: dict[str, str | None] = {}
        for path in workspace.python_files():
            self._store(path, workspace.data_listed(path))
        self._naming: dict[str, frozenset[str]] = {}  # name -> the files naming it
        self._importing_stem: dict[str, frozenset[str]] = {}  # stem -> files importing it
        self._searches = 0  # names looked for one by one
        self._sorted: list[str] | None = None

    def file_changed(self, path: str, text: str | None) -> None:
        """Re-index one file (an unsaved document changed): the rest stays as it is."""
        old = self._search.get(path)
        self._store(path, text.encode("utf-8", "surrogatepass") if text is not None else None)
        self._importing_stem = {}
        self._sorted = None
        new = self._search.get(path)
        if old is None and new is None:
            return
        words = _words(old) | _words(new) if self._naming else set()
        for name in [n for n in self._naming if not _WORD.fullmatch(n)] + [
            w.decode() for w in words if w.decode() in self._naming
        ]:  # the names it named or names now (of a name not a word: any)
            paths = set(self._naming[name])
            paths.discard(path)
            if new is not None and _mentions(new, name):
                paths.add(path)
            self._naming[name] = frozenset(paths)

    def _store(self, path: str, data: bytes | None) -> None:
        self._data.pop(path, None)
        self._search.pop(path, None)
        self._texts.pop(path, None)
        if data is not None and b"pypto" in data and path.endswith(".py"):
            self._data[path] = data
            self._search[path] = _searched(data)

    def paths(self) -> list[str]:
        return list(self._paths())

    def _paths(self) -> list[str]:
        if self._sorted is None:
            self._sorted = sorted(self._data)
        return self._sorted

    def _under(self, folder: str) -> list[str]:
        """The indexed files whose path starts with ``folder`` (a separator at its end)."""
        paths = self._paths()
        first = last = bisect.bisect_left(paths, folder)
        while last < len(paths) and paths[last].startswith(folder):
            last += 1
        return paths[first:last]

    def data(self, path: str) -> bytes | None:
        """The content of an indexed file, as read (None: not indexed)."""
        return self._data.get(path)

    def searched(self, path: str) -> bytes | None:
        """The content of an indexed file with its names as CPython reads them."""
        return self._search.get(path)

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

    def prefetch(self, names: Iterable[str]) -> None:
        """Find the files naming each of ``names`` now: in one pass over every file's words
        when there are more than a few (else each is looked for when asked)."""
        wanted = {n.encode(): n for n in names if n not in self._naming and _WORD.fullmatch(n)}
        if len(wanted) <= _SEARCHES:
            return
        found: dict[str, set[str]] = {name: set() for name in wanted.values()}
        words = set(wanted)
        for path, data in self._search.items():
            for word in _words(data) & words:
                found[wanted[word]].add(path)
        for name, paths in found.items():
            self._naming[name] = frozenset(paths)

    def _named(self, name: str) -> frozenset[str]:
        found = self._naming.get(name)
        if found is None:
            self._searches += 1
            if self._searches == _SEARCHES:  # many more may come: the likely ones at once
                defined = {w.decode() for data in self._search.values() for w in _DEF.findall(data)}
                self.prefetch([name, *defined, *(_module_word(p)[0] for p in self._search)])
                found = self._naming.get(name)
        if found is None:
            found = frozenset(path for path, data in self._search.items() if _mentions(data, name))
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
                found.update(self._under(package))
            if found and name is not None:  # (most modules are imported by no file)
                found &= self._named(name)
            for other in found - reach:
                reach.add(other)
                todo.append(other)
        return sorted(reach - {path})

    def _importing(self, stem: str) -> frozenset[str]:
        """The files with an import statement that may name the module ``stem``."""
        found = self._importing_stem.get(stem)
        if found is None:
            pattern = _IMPORT_STATEMENT.replace("STEM", re.escape(stem))
            statement = re.compile(pattern.encode("utf-8", "surrogatepass"), re.M)
            found = frozenset(p for p in self._named(stem) if statement.search(self._search[p]))
            self._importing_stem[stem] = found
        return found


def _searched(data: bytes) -> bytes:
    """``data`` as names and import statements are looked for in it: its line ends as
    ``\\n`` (the statement patterns start lines at ``\\n``; CPython ends one at ``\\r``
    too), and a UTF-8 text that spells a name otherwise than CPython reads it (as
    fullwidth letters) NFKC-normalized."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if data.isascii():
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if spells_names_alike(text):
        return data
    return unicodedata.normalize("NFKC", text).encode("utf-8", "surrogatepass")


def _mentions(data: bytes, name: str) -> bool:
    """Does ``data`` mention ``name`` (not inside a longer word)?"""
    needle = name.encode("utf-8", "surrogatepass")
    if needle not in data:
        return False
    # (a pattern that starts with the name is searched for at memchr's speed)
    for match in re.finditer(re.escape(needle) + rb"(?!\w)", data):
        at = match.start()
        if not at or _WORD_BYTE.match(data, at - 1) is None:
            return True
    return False


# Names looked for one by one before the files' words are read once for all likely names
# (a search of the bytes for one name runs at memchr's speed; a pass over the words makes
# an object of each, and costs as much as some ten searches).
_SEARCHES = 16
_WORD = re.compile(r"[A-Za-z0-9_]+")  # a name whose mentions are exactly its words
_WORDS = re.compile(rb"\w+")  # bytes: ASCII word characters, as ``_mentions`` reads them
_WORD_BYTE = re.compile(rb"\w")
_DEF = re.compile(rb"\bdef[ \t]+(\w+)")
_CHUNK = 1 << 20


def _words(data: bytes | None) -> set[bytes]:
    """The words of ``data`` (maximal runs of ASCII word characters), read a megabyte at a
    time (cut at a newline, which no word holds)."""
    found: set[bytes] = set()
    start = 0
    while data is not None and start < len(data):
        end = data.find(b"\n", start + _CHUNK)
        end = len(data) if end < 0 else end
        found.update(_WORDS.findall(data, start, end))
        start = end
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
