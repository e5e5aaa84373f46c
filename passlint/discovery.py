"""Finding the files `passlint check` looks at: `*.mlir`, `*.hlo`, `*.txt` (HLO text and XLA
dumps), `*.hlo.pb` and `*.hlo_module.pb` (HLO protocol buffers; not every `.pb`), `*.mlirbc`
(MLIR bytecode) and `*.py` below the given paths.

Folders are walked with ``os.scandir`` (one system call per folder, so a folder of 10,000
files costs milliseconds), skipping what ``exclude``/``extend-exclude`` and ``.gitignore``
files name. Symbolic links to folders are followed once: a link back into a folder already
on the walk (a loop) or to a folder already walked is reported and not entered again.
Files named on the command line are always checked unless ``force_exclude`` is set (as
pre-commit passes every staged file by name). Whether a ``.py`` file is a pl source is
decided later, from its text; here every ``.py`` file is a candidate (and every ``.txt``
file, read as HLO only when it starts with ``HloModule``).
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from passlint.filesystem import METADATA_LIMIT, Boundary, is_inside, kind_of, read_regular

SUFFIXES = (".mlir", ".hlo", ".txt", ".py", ".hlo.pb", ".hlo_module.pb", ".mlirbc")


@dataclass
class Discovery:
    """The files to check, in a stable order, and what went wrong on the way."""

    files: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # a path could not be used: exit 2
    warnings: list[str] = field(default_factory=list)  # noted, does not change the exit code


class ExcludeMatcher:
    """``exclude`` patterns as ruff reads them: a pattern without ``/`` matches any path
    component (``build``, ``*.gen.mlir``); one with ``/`` matches the path relative to
    ``root`` (``third_party/**``, ``tests/data/*.mlir``)."""

    def __init__(self, patterns: Iterable[str], root: str | os.PathLike[str]) -> None:
        self.root = os.path.abspath(root)
        self.names: list[str] = []
        self.paths: list[re.Pattern[str]] = []
        for pattern in patterns:
            pattern = pattern.strip().rstrip("/")
            if not pattern:
                continue
            if "/" in pattern:
                self.paths.append(_glob_regex(pattern.lstrip("/")))
            else:
                self.names.append(pattern)

    def matches(self, path: str) -> bool:
        name = os.path.basename(path)
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in self.names):
            return True
        if not self.paths:
            return False
        relative = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        if relative.startswith("../"):
            return False
        return any(regex.fullmatch(relative) for regex in self.paths)

    def matches_with_parents(self, path: str) -> bool:
        """``matches`` for the path or any folder above it (below ``root``): a file named on
        the command line inside an excluded folder is excluded too."""
        current = os.path.abspath(path)
        while True:
            if self.matches(current):
                return True
            parent = os.path.dirname(current)
            if parent == current or not parent.startswith(self.root + os.sep):
                return False
            current = parent


def git_top(start: str | os.PathLike[str]) -> str | None:
    """The top of the git work tree holding ``start`` (the nearest folder, ``start`` or
    above it, holding ``.git``), if any."""
    folder = os.path.abspath(start)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


class GitIgnore:
    """The rules of the ``.gitignore`` files met on a walk (a useful subset of git's:
    ``*``, ``?``, ``[...]``, ``**``, leading ``/`` anchors, trailing ``/`` for folders and
    ``!`` to re-include; the last matching rule wins)."""

    def __init__(self) -> None:
        # (folder the .gitignore is in, regex, negated, folders only)
        self.rules: list[tuple[str, re.Pattern[str], bool, bool]] = []
        self._loaded: set[str] = set()
        self._joined: tuple[int, list[tuple[str, re.Pattern[str], bool, bool]]] = (0, [])

    def load_folder(self, folder: str) -> None:
        folder = os.path.abspath(folder)
        if folder in self._loaded:
            return
        self._loaded.add(folder)
        try:
            data = read_regular(os.path.join(folder, ".gitignore"), METADATA_LIMIT)
            lines = data.decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return  # (Refused is an OSError: a .gitignore that is a FIFO is not read)
        for raw in lines:
            line = raw.rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            if line.startswith("\\"):
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            if not line:
                continue
            anchored = "/" in line
            line = line.lstrip("/")
            pattern = line if anchored else f"**/{line}"
            self.rules.append((folder, _glob_regex(pattern), negated, dir_only))

    def load_parents(self, start: str) -> None:
        """Load the .gitignore files from ``start`` up to its git repository's top."""
        folder = os.path.abspath(start)
        top = git_top(folder)
        if top is None:
            return  # not in a git repository: only .gitignore files on the walk count
        chain = [folder]
        while folder != top:
            folder = os.path.dirname(folder)
            chain.append(folder)
        for folder in reversed(chain):
            self.load_folder(folder)

    def ignored(self, path: str, is_dir: bool) -> bool:
        path = os.path.abspath(path)
        for folder, regex, negated, dir_only in reversed(self._runs()):  # the last hit wins
            if not path.startswith(folder + os.sep):
                continue
            relative = path[len(folder) + 1 :].replace(os.sep, "/")
            if dir_only and not is_dir:
                # A folder rule covers the files below the folder it names: the file's
                # folder matches (a rule's regex takes whatever is below what it names).
                below = relative.rpartition("/")[0]
                hit = bool(below) and regex.fullmatch(below) is not None
            else:
                hit = regex.fullmatch(relative) is not None
            if hit:
                return not negated
        return False

    def _runs(self) -> list[tuple[str, re.Pattern[str], bool, bool]]:
        """The rules with each run of the same folder, polarity and kind joined into one
        regex: the run holding the last matching rule is the last run that matches (one
        match per run instead of one per rule: a 200-line .gitignore made a walk slow)."""
        if self._joined[0] != len(self.rules):
            runs: list[tuple[str, list[str], bool, bool]] = []
            for folder, regex, negated, dir_only in self.rules:
                if runs and runs[-1][0] == folder and runs[-1][2:] == (negated, dir_only):
                    runs[-1][1].append(regex.pattern)
                else:
                    runs.append((folder, [regex.pattern], negated, dir_only))
            joined = [
                (folder, re.compile("|".join(f"(?:{p})" for p in patterns)), negated, dir_only)
                for folder, patterns, negated, dir_only in runs
            ]
            self._joined = (len(self.rules), joined)
        return self._joined[1]


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A gitignore-style glob as a regex over ``/``-separated relative paths."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            close = pattern.find("]", i + 1)
            if close == -1:
                out.append(re.escape("["))
                i += 1
            else:
                body = pattern[i + 1 : close].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = close + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    # A pattern that names a folder also covers everything below it.
    return re.compile("".join(out) + "(?:/.*)?")


def discover(
    paths: Sequence[str],
    exclude: Iterable[str] | ExcludeMatcher,
    root: str | os.PathLike[str],
    boundary: Boundary,
    *,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
) -> Discovery:
    """The ``.mlir`` and ``.py`` files named by ``paths`` (files or folders), each a regular
    file inside ``boundary`` and listed once by its real path. A link out of the boundary,
    a FIFO, a device or a socket met in a folder is left out with a warning; named on the
    command line, it is an error. ``exclude``: patterns relative to ``root``, or a matcher
    made already (``check_settings.FolderExcludes``)."""
    result = Discovery()
    matcher = exclude if isinstance(exclude, ExcludeMatcher) else ExcludeMatcher(exclude, root)
    gitignore = GitIgnore()
    found = _Found(result.files)
    for path in paths:
        if not os.path.lexists(path):
            result.errors.append(f"{path}: no such file or directory")
            continue
        if os.path.isdir(path):
            if respect_gitignore:
                gitignore.load_parents(os.path.dirname(os.path.abspath(path)))
            rules = gitignore if respect_gitignore else None
            _Walk(matcher, rules, boundary, result, found).run(path)
            continue
        refused = _not_checkable(path, boundary)
        if refused is not None:
            result.errors.append(f"{path}: {refused}; not checked")
            continue
        if force_exclude and (
            matcher.matches_with_parents(path)
            or (respect_gitignore and _gitignored_file(path, gitignore))
            or not path.endswith(SUFFIXES)
        ):
            continue
        found.add(path, os.path.realpath(path), linked=os.path.islink(path))
    return result


class _Found:
    """The files found so far, one per real path: by the name met first, or by the file's
    own name once that is met after a link to it."""

    def __init__(self, files: list[str]) -> None:
        self.files = files
        self._at: dict[str, int] = {}  # real path -> index in files
        self._linked: set[str] = set()  # real paths listed by the name of a link

    def add(self, path: str, real: str, linked: bool) -> None:
        at = self._at.get(real)
        if at is None:
            self._at[real] = len(self.files)
            self.files.append(path)
            if linked:
                self._linked.add(real)
        elif real in self._linked and not linked:
            self.files[at] = path
            self._linked.discard(real)


def _not_checkable(path: str, boundary: Boundary) -> str | None:
    """Why the file at ``path`` is not one to read (None: it is a regular file inside)."""
    real = os.path.realpath(path)
    if not is_inside(real, boundary.roots):
        return f"links outside the workspace (to {real})"
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return "broken symbolic link"
    if not stat.S_ISREG(mode):
        return f"{kind_of(mode)}, not a regular file"
    return None


def _gitignored_file(path: str, gitignore: GitIgnore) -> bool:
    folder = os.path.dirname(os.path.abspath(path))
    gitignore.load_parents(folder)
    return gitignore.ignored(path, is_dir=False)


class _Walk:
    """One folder walked: its files in ``result``, what it would not enter or read in its
    warnings. Folders are told apart by (device, inode), so two spellings of one folder are
    one folder; a link to a folder inside the boundary is followed once."""

    def __init__(
        self,
        matcher: ExcludeMatcher,
        gitignore: GitIgnore | None,
        boundary: Boundary,
        result: Discovery,
        found: _Found,
    ) -> None:
        self.matcher = matcher
        self.gitignore = gitignore
        self.boundary = boundary
        self.result = result
        self.found = found
        self.entered: set[tuple[int, int]] = set()

    def run(self, top: str) -> None:
        # Recursion depth is the folder depth (Python allows ~1000 levels).
        try:
            self._visit(top, ())
        except RecursionError:
            self.result.errors.append(f"{top}: folder tree too deep to walk")

    def _visit(self, folder: str, ancestors: tuple[tuple[int, int], ...]) -> None:
        result = self.result
        try:
            stat_ = os.stat(folder)
        except OSError as error:
            result.errors.append(f"{folder}: cannot read folder: {error.strerror or error}")
            return
        key = (stat_.st_dev, stat_.st_ino)
        if key in ancestors:
            target = os.path.realpath(folder)
            result.warnings.append(
                f"{folder}: symbolic link loop (points back to {target}); not followed"
            )
            return
        if key in self.entered:
            return  # reached again through another link: already checked
        self.entered.add(key)
        if self.gitignore is not None:
            self.gitignore.load_folder(folder)
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as error:
            result.errors.append(f"{folder}: cannot read folder: {error.strerror or error}")
            return
        subfolders = []
        for entry in entries:
            entry_path = os.path.join(folder, entry.name) if folder != "." else entry.name
            try:
                is_dir = entry.is_dir()  # follows symbolic links
            except OSError:
                is_dir = False  # a link loop, or gone since the folder was listed
            if not is_dir and not entry.name.endswith(SUFFIXES):
                continue  # (first: asking the ignore rules costs more)
            is_link = entry.is_symlink()
            if self.matcher.matches(entry_path):
                continue
            if self.gitignore is not None and self.gitignore.ignored(entry_path, is_dir):
                continue
            if is_dir:
                if entry.name.startswith("."):  # hidden folders: only when named
                    continue
                if is_link and not self.boundary.contains(entry_path):
                    real = os.path.realpath(entry_path)
                    result.warnings.append(
                        f"{entry_path}: links outside the workspace (to {real}); not followed"
                    )
                    continue
                subfolders.append(entry_path)
            else:
                self._file(entry, entry_path, is_link)
        for sub in subfolders:
            self._visit(sub, (*ancestors, key))

    def _file(self, entry: os.DirEntry[str], path: str, is_link: bool) -> None:
        if is_link:
            refused = _not_checkable(path, self.boundary)
            real = os.path.realpath(path)
        else:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                return
            regular = stat.S_ISREG(mode)
            refused = None if regular else f"{kind_of(mode)}, not a regular file"
            real = os.path.abspath(path)
        if refused is not None:
            self.result.warnings.append(f"{path}: {refused}; skipped")
        else:
            self.found.add(path, real, is_link)


def relative_to(path: str, root: str | os.PathLike[str]) -> str:
    """``path`` relative to ``root`` with ``/`` separators, or absolute when outside it."""
    absolute = os.path.abspath(path)
    try:
        return Path(absolute).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return Path(absolute).as_posix()
