"""The settings of each file `passlint check` reads, as ruff resolves them: those of the
configuration file governing the file (``config_files``: the nearest one in its folder or
above; ``--config FILE`` governs every file), with the command line's flags on top.

Each configuration file is read once and its relative patterns (``per-file-ignores``,
``exclude``) start from the folder holding it; a file that no configuration file governs
takes the defaults, with patterns relative to the working folder. The flags' patterns that
name a path (with a ``/``) start from the working folder whatever configuration they are laid
over (made absolute, ``Flags.from_args``); a name pattern (``build``, ``*.gen.mlir``) matches
in any folder. While
folders are walked, an entry is excluded by the settings of the folder it is in
(``FolderExcludes``): a folder that its parent's configuration excludes is not entered, so
a configuration file inside it is never read.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from passlint.config import ConfigError, Settings, with_overrides
from passlint.config_files import ConfigLookup, config_root, load_config_file
from passlint.discovery import ExcludeMatcher
from passlint.filesystem import default_size_limit

PerFileIgnores = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Flags:
    """What the command line sets over every configuration file (``with_overrides``)."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    pipeline: str | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: PerFileIgnores | None = None
    extend_per_file_ignores: PerFileIgnores = ()

    @classmethod
    def from_args(cls, args: argparse.Namespace, cwd: str) -> Flags:
        def patterns(values: Sequence[str]) -> tuple[str, ...]:
            return tuple(from_working_folder(pattern, cwd) for pattern in values)

        def per_file(pairs: Sequence[tuple[str, tuple[str, ...]]]) -> PerFileIgnores:
            return tuple((from_working_folder(pattern, cwd), codes) for pattern, codes in pairs)

        return cls(
            select=args.select,
            extend_select=tuple(args.extend_select),
            ignore=tuple(args.ignore),
            pipeline=args.pipeline,
            exclude=None if args.exclude is None else patterns(args.exclude),
            extend_exclude=patterns(args.extend_exclude),
            per_file_ignores=None
            if args.per_file_ignores is None
            else per_file(args.per_file_ignores),
            extend_per_file_ignores=per_file(args.extend_per_file_ignores),
        )

    def over(self, base: Settings) -> Settings:
        return with_overrides(
            base,
            select=self.select,
            extend_select=self.extend_select,
            ignore=self.ignore,
            pipeline=self.pipeline,
            exclude=self.exclude,
            extend_exclude=self.extend_exclude,
            per_file_ignores=self.per_file_ignores,
            extend_per_file_ignores=self.extend_per_file_ignores,
        )


def from_working_folder(pattern: str, cwd: str) -> str:
    """A pattern of the command line as an absolute one when it names a path (a leading
    ``/`` anchors it at ``cwd``; a leading ``!`` stays), else as it is."""
    negated = pattern.startswith("!")
    body = pattern[1:] if negated else pattern
    if "/" not in body.strip("/"):
        return pattern
    absolute = os.path.normpath(os.path.join(cwd, body.lstrip("/")))
    return f"!{absolute}" if negated else absolute


class CheckSettings:
    """Each file's settings (``config.SettingsByFile``), one ``Settings`` per configuration
    file. ``explicit``: the file ``--config`` names; ``workspace``: the roots a linked
    configuration file may lead into (``config_files``)."""

    def __init__(
        self, flags: Flags, explicit: Path | None, workspace: Sequence[str], cwd: str
    ) -> None:
        self.flags = flags
        self.explicit = explicit
        self.cwd = cwd
        self.lookup = ConfigLookup(workspace)
        self._by_config: dict[Path | None, Settings] = {}
        self._matchers: dict[Path | None, tuple[ExcludeMatcher, ExcludeMatcher]] = {}

    def config_for_file(self, path: str) -> Path | None:
        return self.explicit if self.explicit is not None else self.lookup.for_file(path)

    def config_for_folder(self, folder: str) -> Path | None:
        return self.explicit if self.explicit is not None else self.lookup.for_folder(folder)

    def config_at(self, path: str) -> Path | None:
        """The configuration governing ``path``, a file or a folder."""
        if os.path.isdir(path):
            return self.config_for_folder(path)
        return self.config_for_file(path)

    def root_of(self, config: Path | None) -> str:
        """The folder the patterns of ``config``'s settings start from."""
        return self.cwd if config is None else config_root(config)

    def settings_for(self, path: str) -> Settings:
        """The settings of the file at ``path``. Raises ConfigError."""
        return self.settings_of(self.config_for_file(path))

    def size_limit(self, path: str) -> int:
        """The size limit of the file at ``path``; a file no check reads (the other files of
        the workspace a fix or the pl pass looks at) whose configuration is broken: the
        default (checked files have their configuration read first, ``check``)."""
        try:
            return self.settings_for(path).size_limit(path)
        except ConfigError:
            return default_size_limit(path)

    def settings_of(self, config: Path | None) -> Settings:
        """The settings of the files ``config`` governs (None: no configuration file)."""
        if config not in self._by_config:
            base = Settings() if config is None else load_config_file(config)
            settings = self.flags.over(base)
            if not settings.root:
                settings = replace(settings, root=self.root_of(config))
            self._by_config[config] = settings
        return self._by_config[config]

    def excluded(self, path: str, folder: str) -> bool:
        """Whether ``exclude`` and ``extend-exclude`` of the settings governing ``folder``
        match ``path`` (the flags' path patterns are absolute: matched from ``/``)."""
        config = self.config_for_folder(folder)
        if config not in self._matchers:
            settings = self.settings_of(config)
            patterns = (*settings.exclude, *settings.extend_exclude)
            relative = [pattern for pattern in patterns if not os.path.isabs(pattern)]
            absolute = [pattern for pattern in patterns if os.path.isabs(pattern)]
            self._matchers[config] = (
                ExcludeMatcher(relative, settings.root),
                ExcludeMatcher(absolute, os.sep),
            )
        return any(matcher.matches(path) for matcher in self._matchers[config])


class FolderExcludes(ExcludeMatcher):
    """Exclusion as each folder's settings say (module docstring), for ``discover``."""

    def __init__(self, settings: CheckSettings) -> None:
        super().__init__((), settings.cwd)
        self.settings = settings

    def matches(self, path: str) -> bool:
        return self.settings.excluded(path, os.path.dirname(os.path.abspath(path)))

    def matches_with_parents(self, path: str) -> bool:
        """``matches`` for ``path`` or a folder above it, each judged by the settings of the
        folder it is in, from the top down (a folder excluded above is not looked into),
        up to the folder those settings start from."""
        steps: list[tuple[str, str]] = []  # (a path, the folder it is in)
        current = os.path.abspath(path)
        while (parent := os.path.dirname(current)) != current:
            root = self.settings.root_of(self.settings.config_for_folder(parent))
            if steps and not current.startswith(root.rstrip(os.sep) + os.sep):
                break
            steps.append((current, parent))
            current = parent
        return any(self.settings.excluded(current, parent) for current, parent in reversed(steps))
