"""Configuration files: which one governs a path, and the settings table it holds.

A configuration file is a ``passlint.toml`` (its top level) or a ``pyproject.toml`` with a
``[tool.passlint]`` table; a ``pyproject.toml`` that does not parse but names
``tool.passlint`` counts too (reading it then says what is wrong), one without passlint's
table does not. The file that governs a path is the nearest one in the path's folder (a
folder: the folder itself) or above it, by real paths; ``passlint.toml`` wins over a
``pyproject.toml`` beside it. ``ConfigLookup`` looks at each folder once.

A configuration file is read where it is found: one that is a symbolic link is read only
when its target lies in the folder holding the link (or below it) or inside the workspace
(the roots the user named); a link anywhere else is refused, a configuration error, and is
not read at all (not even a ``pyproject.toml``, to see whether it has passlint's table).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from passlint.config import ConfigError, Settings, settings_from_mapping
from passlint.filesystem import METADATA_LIMIT, Refused, TooLarge, is_inside, read_regular

PASSLINT_TOML = "passlint.toml"
PYPROJECT_TOML = "pyproject.toml"


def config_in(folder: Path, workspace: Sequence[str] = ()) -> Path | None:
    """The configuration file of the real folder ``folder`` itself (its parents are not
    looked at). A ``pyproject.toml`` that links out of ``folder`` and of ``workspace`` is not
    read to see whether it is passlint's: it is taken, to be refused (``ConfigLookup``)."""
    own = folder / PASSLINT_TOML
    if own.is_file():
        return own
    pyproject = folder / PYPROJECT_TOML
    if not pyproject.is_file():
        return None
    if linked_out(pyproject, workspace) is not None or _names_passlint(pyproject):
        return pyproject
    return None


def linked_out(path: Path, workspace: Sequence[str]) -> str | None:
    """Where the file at ``path`` (in a real folder) leads when it is a symbolic link to
    somewhere outside its folder and outside ``workspace`` (real paths); else None."""
    target = os.path.realpath(path)
    if target == str(path) or is_inside(target, (str(path.parent), *workspace)):
        return None
    return target


def _names_passlint(pyproject: Path) -> bool:
    """Whether a pyproject.toml is passlint's to read: it has a ``[tool.passlint]`` table,
    or it does not parse (or is too large to read) and may have one."""
    try:
        data = read_regular(str(pyproject), METADATA_LIMIT)
    except TooLarge:
        return True  # (too large to tell: reported rather than passed over)
    except OSError:
        return False
    text = data.decode("utf-8", errors="replace")
    if "passlint" not in text:
        return False
    try:
        tool = tomllib.loads(data.decode("utf-8")).get("tool")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "tool.passlint" in text
    return isinstance(tool, dict) and "passlint" in tool


def find_config_file(start: str | Path, workspace: Sequence[str] = ()) -> Path | None:
    """The configuration file governing ``start`` (a folder, or a file's folder), looked
    for without a cache (``ConfigLookup`` keeps one)."""
    folder = Path(os.path.realpath(start))
    if not folder.is_dir():
        folder = folder.parent
    roots = tuple(os.path.realpath(root) for root in workspace)
    for candidate in (folder, *folder.parents):
        found = config_in(candidate, roots)
        if found is not None:
            return found
    return None


class ConfigLookup:
    """The configuration file governing each path, each folder looked at once: a run over
    10,000 files in 100 folders asks the disk about those folders and their parents only.
    ``workspace``: the roots (besides its own folder) a linked configuration file may lead
    into."""

    def __init__(self, workspace: Sequence[str] = ()) -> None:
        self.workspace = tuple(os.path.realpath(root) for root in workspace)
        self._by_name: dict[str, Path | None] = {}  # folder as asked about -> its file
        self._by_real: dict[str, Path | None] = {}  # real folder -> its file
        self._targets: dict[Path, str | None] = {}  # file -> where it links out to

    def for_file(self, path: str) -> Path | None:
        """The configuration file governing the file at ``path`` (its folder's)."""
        return self.for_folder(os.path.dirname(os.path.abspath(path)))

    def for_folder(self, folder: str) -> Path | None:
        """The configuration file governing ``folder``: its own, else its nearest parent's.
        Raises ConfigError for one that links out of its folder and the workspace."""
        key = os.path.abspath(folder)
        if key not in self._by_name:
            self._by_name[key] = self._nearest(os.path.realpath(key))
        found = self._by_name[key]
        if found is not None:
            if found not in self._targets:
                self._targets[found] = linked_out(found, self.workspace)
            target = self._targets[found]
            if target is not None:
                raise ConfigError(
                    f"{found}: a symbolic link out of the workspace (to {target}); not read"
                )
        return found

    def clear(self) -> None:
        """Forget every answer (configuration files changed)."""
        self._by_name.clear()
        self._by_real.clear()
        self._targets.clear()

    def _nearest(self, real: str) -> Path | None:
        unanswered = []
        folder = real
        while folder not in self._by_real:
            unanswered.append(folder)
            found = config_in(Path(folder), self.workspace)
            parent = os.path.dirname(folder)
            if found is not None or parent == folder:
                self._by_real[folder] = found
                break
            folder = parent
        answer = self._by_real[folder]
        for below in unanswered:
            self._by_real[below] = answer
        return answer


def read_config_table(path: str | Path) -> dict[str, Any]:
    """The settings table of the configuration file at ``path``: a passlint.toml's top
    level, a pyproject.toml's ``[tool.passlint]`` (empty without one). Raises ConfigError
    for a file that cannot be read, is not TOML, or holds something else than a table."""
    path = Path(path)
    try:
        data = tomllib.loads(read_regular(str(path), METADATA_LIMIT).decode("utf-8"))
    except Refused as refused:
        raise ConfigError(f"{path}: {refused.reason}") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: {error}") from None
    if path.name == PASSLINT_TOML:
        return data
    tool = data.get("tool")
    table = tool.get("passlint", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.passlint must be a table")
    return table


def config_root(path: str | Path) -> str:
    """The folder a configuration file's relative patterns start from: the real path of the
    folder holding it (not of a link's target)."""
    return os.path.realpath(os.path.dirname(os.path.abspath(path)))


def load_config_file(path: str | Path) -> Settings:
    """Settings from a passlint.toml (top-level keys) or pyproject.toml ([tool.passlint]).
    Raises ConfigError."""
    return settings_from_mapping(read_config_table(path), str(path), config_root(path))
