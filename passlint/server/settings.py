"""Settings per document: the client's ``passlint`` section over ``[tool.passlint]``.

The project file governing the document (``config_files``, the one rule `passlint check`
follows too: the nearest ``passlint.toml`` or ``pyproject.toml`` with ``[tool.passlint]`` in
the document's folder or above, read as a regular file of at most ``METADATA_LIMIT`` bytes,
never through a link out of the document's workspace) gives the base; keys the client sets
in its ``passlint`` section win. Keys that only the editor extension uses are ignored;
anything else unknown is a configuration error, reported once and replaced by the project's
settings.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from passlint.config import ConfigError, Settings, settings_from_mapping
from passlint.config_files import ConfigLookup, config_root, read_config_table

log = logging.getLogger(__name__)

# Keys of the editor's `passlint` section that configure the client, not the analysis.
EDITOR_KEYS = frozenset(
    {"interpreter", "path", "server-args", "trace", "enable", "import-strategy", "log-level"}
)


def _dashed(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", str(key)).replace("_", "-").lower()


def client_table(section: Any) -> dict[str, Any]:
    """The analysis keys of the client's ``passlint`` section, spelled with dashes."""
    if not isinstance(section, Mapping):
        return {}
    table = {_dashed(key): value for key, value in section.items()}
    return {
        key: value for key, value in table.items() if key not in EDITOR_KEYS and value is not None
    }


def project_table(
    folder: str, lookup: ConfigLookup | None = None
) -> tuple[dict[str, Any], str | None]:
    """The project's settings table governing ``folder`` and the file it came from
    (``lookup``: one that answers for each folder once, with the document's workspace)."""
    try:
        found = (lookup or ConfigLookup()).for_folder(folder)
    except OSError as error:  # a folder that cannot be looked into: no project file
        log.warning("no settings file looked for around %s: %s", folder, error)
        return {}, None
    if found is None:
        return {}, None
    table = read_config_table(found)
    return {_dashed(key): value for key, value in table.items()}, str(found)


class SettingsStore:
    """Settings of each folder, cached until the client's section or a config file changes.
    ``workspace_of``: the workspace of a document (``session.roots``), where a project file
    that is a symbolic link may lead."""

    def __init__(self, workspace_of: Callable[[str], tuple[str, ...]] | None = None) -> None:
        self.client: dict[str, Any] = {}
        self.workspace_of = workspace_of
        self._lookups: dict[tuple[str, ...], ConfigLookup] = {}  # by workspace
        self._by_folder: dict[str, Settings] = {}
        self.errors: list[str] = []  # new configuration errors, for the server to show once
        self._reported: set[str] = set()

    def set_client_section(self, section: Any) -> None:
        self.client = client_table(section)
        self.invalidate()

    def invalidate(self) -> None:
        self._by_folder.clear()
        self._lookups.clear()
        self._reported.clear()

    def settings_for(self, path: str) -> Settings:
        """The settings of the document at ``path``; one that is no file of this machine
        (a relative path: ``uris``) has no project file, only the client's section."""
        folder = str(Path(path).parent) if os.path.isabs(path) else ""
        if folder not in self._by_folder:
            self._by_folder[folder] = self._load(folder, path)
        return self._by_folder[folder]

    def _load(self, folder: str, path: str) -> Settings:
        table: dict[str, Any] = {}
        origin = None
        try:
            if folder:
                workspace = self.workspace_of(path) if self.workspace_of else ()
                if workspace not in self._lookups:
                    self._lookups[workspace] = ConfigLookup(workspace)
                table, origin = project_table(folder, self._lookups[workspace])
        except ConfigError as error:
            self._report(str(error))
        if self.client:
            try:
                merged = {**table, **self.client}
                return settings_from_mapping(merged, _origin(origin, client=True), _root(origin))
            except ConfigError as error:
                self._report(str(error))
        try:
            return settings_from_mapping(table, _origin(origin, client=False), _root(origin))
        except ConfigError as error:
            self._report(str(error))
            return Settings()

    def _report(self, message: str) -> None:
        log.warning("configuration error: %s", message)
        if message not in self._reported:
            self._reported.add(message)
            self.errors.append(message)

    def take_errors(self) -> list[str]:
        errors, self.errors = self.errors, []
        return errors


def _root(path: str | None) -> str:
    """The folder ``per-file-ignores`` patterns are relative to: the project file's."""
    return config_root(path) if path else ""


def _origin(path: str | None, client: bool) -> str:
    if client:
        return "the editor's passlint settings" + (f" (over {path})" if path else "")
    return path or "settings"
