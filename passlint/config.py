"""Settings: which rules run, at which severity, with which pipeline variant."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from passlint.analysis.findings import Severity
from passlint.catalog import RULES, default_selected
from passlint.discovery import ExcludeMatcher
from passlint.filesystem import METADATA_LIMIT, TooLarge, default_size_limit, read_regular

Pipeline = Literal["auto", "mhlo", "stablehlo"]
PIPELINES: tuple[Pipeline, ...] = ("auto", "mhlo", "stablehlo")


DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", "build")


class ConfigError(ValueError):
    """A setting names an unknown rule, severity or key."""


@dataclass(frozen=True)
class Settings:
    """What the engine needs to know; built from pyproject.toml, CLI flags or LSP settings.

    ``select`` of None means the selection of the layer below (``inherited``: the codes a
    configuration file selected, under command-line flags), else the default (every rule
    that is not opt-in). Codes may be given as prefixes (``TL`` selects every TL rule); as in
    ruff, the longest matching prefix decides and ``ignore`` wins a tie.

    ``per_file_ignores`` maps a file pattern (relative to ``root``, the configuration file's
    folder; a leading ``!`` negates it) to codes that are never reported in those files,
    whatever the selection: ``for_file`` applies it.
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
        """These settings for the file at ``path``: its per-file ignores applied."""
        if not self.per_file_ignores:
            return self
        codes: list[str] = []
        for pattern, ignored in self.per_file_ignores:
            negated = pattern.startswith("!")
            matcher = ExcludeMatcher([pattern[1:] if negated else pattern], self.root or ".")
            if matcher.matches_with_parents(path) != negated:
                codes.extend(ignored)
        if not codes:
            return self
        return replace(self, file_ignore=tuple(dict.fromkeys(codes)))

    def size_limit(self, path: str) -> int:
        """The largest file at ``path`` that is analysed (in bytes): ``max_file_size``, else
        the default of the file's language (``filesystem.default_size_limit``)."""
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


def find_config_file(start: str | Path) -> Path | None:
    """The nearest ``passlint.toml``, or ``pyproject.toml`` with a ``[tool.passlint]`` table,
    in ``start`` (a folder or a file's folder) or its parents."""
    folder = Path(start).resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        own = candidate / "passlint.toml"
        if own.is_file():
            return own
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and (
            "passlint" in _read_toml(pyproject).get("tool", {}) or _mentions_passlint(pyproject)
        ):
            return pyproject
    return None


def _mentions_passlint(pyproject: Path) -> bool:
    """A pyproject.toml that does not parse (or is too large to read) but may name
    ``tool.passlint`` is ours to report (loading it then raises ConfigError) rather than
    silently ignored."""
    try:
        text = read_regular(str(pyproject), METADATA_LIMIT).decode("utf-8", errors="replace")
    except TooLarge:
        return True  # (too large to tell: reported rather than passed over)
    except OSError:
        return False
    if "tool.passlint" not in text:
        return False
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return True
    return False


def load_config_file(path: str | Path) -> Settings:
    """Settings from a passlint.toml (top-level keys) or pyproject.toml ([tool.passlint])."""
    path = Path(path)
    data = _read_toml(path, strict=True)
    table = data if path.name == "passlint.toml" else data.get("tool", {}).get("passlint", {})
    return settings_from_mapping(table, str(path), str(path.resolve().parent))


def _read_toml(path: Path, strict: bool = False) -> dict[str, Any]:
    try:
        return tomllib.loads(read_regular(str(path), METADATA_LIMIT).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        if strict:
            raise ConfigError(f"{path}: {error}") from None
        return {}


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
