"""Settings: which rules run, at which severity, with which pipeline variant."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from passlint.analysis.findings import Severity
from passlint.catalog import RULES, default_selected
from passlint.discovery import ExcludeMatcher
from passlint.filesystem import default_size_limit

Pipeline = Literal["auto", "mhlo", "stablehlo"]
PIPELINES: tuple[Pipeline, ...] = ("auto", "mhlo", "stablehlo")


DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", "build")


class ConfigError(ValueError):
    """A setting names an unknown rule, severity or key."""


class SettingsByFile(Protocol):
    """Settings that differ from file to file (`passlint check`: each file's nearest
    configuration file's, ``check_settings``)."""

    def settings_for(self, path: str) -> Settings:
        """The settings of the file at ``path`` (before its per-file ignores)."""
        ...

    def size_limit(self, path: str) -> int:
        """``Settings.size_limit`` of the file at ``path``."""
        ...


@dataclass(frozen=True)
class Settings:
    """What the engine needs to know; built from pyproject.toml, CLI flags or LSP settings.

    ``select`` of None means the selection of the layer below (``inherited``: the codes a
    configuration file selected, under command-line flags), else the default (every rule
    that is not opt-in). Codes may be given as prefixes (``TL`` selects every TL rule); as in
    ruff, the longest matching prefix decides and ``ignore`` wins a tie.

    ``per_file_ignores`` maps a file pattern (relative to ``root``, the configuration file's
    folder, unless it is an absolute path; a leading ``!`` negates it) to codes that are
    never reported in those files, whatever the selection: ``for_file`` applies it.

    ``by_file``, when set, gives each file its own settings (``for_file``, ``size_limit``);
    the other fields are then unused.
    """

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: str = ""
    inherited: frozenset[str] | None = None
    file_ignore: tuple[str, ...] = ()  # this file's per-file ignores (set by for_file)
    severity: dict[str, Severity] = field(default_factory=dict)
    pipeline: Pipeline = "auto"
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    max_file_size: int | None = None  # None: each language's default (``size_limit``)
    by_file: SettingsByFile | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        per_file = (code for _, codes in self.per_file_ignores for code in codes)
        for prefix in (
            *(self.select or ()),
            *self.extend_select,
            *self.ignore,
            *self.severity,
            *per_file,
        ):
            if not any(code.startswith(prefix) for code in RULES):
                raise ConfigError(f"unknown rule code {prefix!r}")
        if self.pipeline not in PIPELINES:
            raise ConfigError(f"unknown pipeline {self.pipeline!r} (use auto, mhlo or stablehlo)")

    def is_selected(self, code: str) -> bool:
        if _longest_match(code, self.file_ignore) >= 0:
            return False
        ignored = _longest_match(code, self.ignore)
        chosen = max(
            _longest_match(code, self.select or ()), _longest_match(code, self.extend_select)
        )
        if ignored >= 0 and ignored >= chosen:
            return False
        if chosen >= 0:
            return True
        if self.select is not None:
            return False
        if self.inherited is not None:
            return code in self.inherited
        return default_selected(code)

    def selected_codes(self) -> list[str]:
        """The codes this selection reports, in catalog order."""
        return [code for code in RULES if self.is_selected(code)]

    def for_file(self, path: str) -> Settings:
        """These settings for the file at ``path`` (``by_file``'s, when set), with its
        per-file ignores applied."""
        if self.by_file is not None:
            return self.by_file.settings_for(path).for_file(path)
        if not self.per_file_ignores:
            return self
        codes: list[str] = []
        for pattern, ignored in self.per_file_ignores:
            negated = pattern.startswith("!")
            body = pattern[1:] if negated else pattern
            matcher = ExcludeMatcher([body], os.sep if os.path.isabs(body) else self.root or ".")
            if matcher.matches_with_parents(path) != negated:
                codes.extend(ignored)
        if not codes:
            return self
        return replace(self, file_ignore=tuple(dict.fromkeys(codes)))

    def size_limit(self, path: str) -> int:
        """The largest file at ``path`` that is analysed (in bytes): ``max_file_size``, else
        the default of the file's language (``filesystem.default_size_limit``)."""
        if self.by_file is not None:
            return self.by_file.size_limit(path)
        return default_size_limit(path) if self.max_file_size is None else self.max_file_size

    def severity_of(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)


def _longest_match(code: str, prefixes: tuple[str, ...]) -> int:
    """Length of the longest prefix in ``prefixes`` that ``code`` starts with, else -1."""
    return max((len(prefix) for prefix in prefixes if code.startswith(prefix)), default=-1)


_KEYS = {
    "select",
    "extend-select",
    "ignore",
    "severity",
    "pipeline",
    "exclude",
    "extend-exclude",
    "max-file-size",
    "per-file-ignores",
    "extend-per-file-ignores",
}


def settings_from_mapping(
    mapping: Mapping[str, Any], origin: str = "settings", root: str = ""
) -> Settings:
    """Settings from a ``[tool.passlint]`` table or the LSP ``passlint`` section.

    Keys may be spelled with dashes or underscores (``extend-select`` / ``extend_select``);
    unknown keys, codes, severities and pipelines raise ConfigError naming ``origin``.
    ``root`` is the folder that ``per-file-ignores`` patterns are relative to.
    """
    table = {str(key).replace("_", "-"): value for key, value in mapping.items()}
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(
            f"{origin}: unknown key{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(k) for k in unknown)}"
        )
    try:
        severity = {
            str(code).upper(): Severity.parse(str(level))
            for code, level in _table(table.get("severity", {}), "severity").items()
        }
        select = table.get("select")
        return Settings(
            select=None if select is None else _codes(select, "select"),
            extend_select=_codes(table.get("extend-select", ()), "extend-select"),
            ignore=_codes(table.get("ignore", ()), "ignore"),
            severity=severity,
            pipeline=str(table.get("pipeline", "auto")),  # type: ignore[arg-type]
            exclude=_strings(table.get("exclude", DEFAULT_EXCLUDE), "exclude"),
            extend_exclude=_strings(table.get("extend-exclude", ()), "extend-exclude"),
            max_file_size=_size(table["max-file-size"]) if "max-file-size" in table else None,
            per_file_ignores=_per_file(table.get("per-file-ignores", {}), "per-file-ignores")
            + _per_file(table.get("extend-per-file-ignores", {}), "extend-per-file-ignores"),
            root=root,
        )
    except (ConfigError, ValueError) as error:
        raise ConfigError(f"{origin}: {error}") from None


def _table(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{key!r} must be a table of CODE = severity")
    return value


def _per_file(value: Any, key: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, Mapping):
        raise ConfigError(f'{key!r} must be a table of "PATTERN" = [CODES]')
    return tuple(
        (str(pattern), _codes(codes, f"{key}.{pattern}")) for pattern, codes in value.items()
    )


def parse_per_file_ignores(text: str) -> tuple[str, tuple[str, ...]]:
    """``PATTERN:CODE[,CODE...]`` as ``--per-file-ignores`` takes it (ruff's spelling; one
    flag per pattern)."""
    pattern, colon, codes = text.rpartition(":")
    if not colon or not pattern.strip():
        raise ValueError(f"expected PATTERN:CODES, got {text!r}")
    return pattern.strip(), _codes(codes.split(","), "per-file-ignores")


def _strings(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key!r} must be a list of strings")
    return tuple(value)


def _codes(value: Any, key: str) -> tuple[str, ...]:
    return tuple(code.strip().upper() for code in _strings(value, key) if code.strip())


def _size(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError("'max-file-size' must be a positive number of bytes")
    return value


def with_overrides(
    base: Settings,
    *,
    select: tuple[str, ...] | None = None,
    extend_select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    pipeline: str | None = None,
    exclude: tuple[str, ...] | None = None,
    extend_exclude: tuple[str, ...] = (),
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] | None = None,
    extend_per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
) -> Settings:
    """``base`` (from a configuration file) with command-line flags on top, as ruff does.

    The flags' ``select``/``extend-select``/``ignore`` are a layer over the file's resolved
    selection: ``--select`` replaces it, ``--extend-select`` and ``--ignore`` adjust it (so
    ``--extend-select PL100`` re-selects a code the file ignores). ``extend-exclude`` and
    ``extend-per-file-ignores`` add to the file's; ``pipeline``, ``exclude`` and
    ``per-file-ignores`` replace. Raises ConfigError for unknown codes or pipelines."""
    layered = select is not None or extend_select or ignore
    return replace(
        base,
        select=select if layered else base.select,
        extend_select=extend_select if layered else base.extend_select,
        ignore=ignore if layered else base.ignore,
        inherited=frozenset(base.selected_codes()) if layered else base.inherited,
        pipeline=base.pipeline if pipeline is None else pipeline,  # type: ignore[arg-type]
        exclude=base.exclude if exclude is None else exclude,
        extend_exclude=base.extend_exclude + extend_exclude,
        per_file_ignores=(base.per_file_ignores if per_file_ignores is None else per_file_ignores)
        + extend_per_file_ignores,
    )
