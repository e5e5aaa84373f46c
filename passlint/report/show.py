"""``--show-settings`` and ``--show-files``: what a check would use and read, for people."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from passlint.config import Settings
from passlint.report.escape import terminal_name


def _value(value: object) -> str:
    return json.dumps(value)


def render_settings(
    settings: Settings, config: Path | None, root: str, flags: Mapping[str, Any]
) -> str:
    """The resolved settings as ``key = value`` lines (TOML-like, values in JSON)."""
    rows: list[tuple[str, object]] = [
        ("configuration", str(config) if config else "none (defaults)"),
        ("project-root", root),
        ("selected", settings.selected_codes()),
        ("select", list(settings.select) if settings.select is not None else "default"),
        ("extend-select", list(settings.extend_select)),
        ("ignore", list(settings.ignore)),
        (
            "per-file-ignores",
            {pattern: list(codes) for pattern, codes in settings.per_file_ignores},
        ),
        ("severity", {code: level.label for code, level in settings.severity.items()}),
        ("pipeline", settings.pipeline),
        ("exclude", list(settings.exclude)),
        ("extend-exclude", list(settings.extend_exclude)),
        (
            "max-file-size",
            settings.max_file_size
            or "default (1 GiB for .mlir files, 128 MiB for HLO, 64 MiB for .py files)",
        ),
        ("output-format", flags["format"]),
        ("fail-on", flags["fail_on"]),
        ("jobs", flags["jobs"] or "auto"),
    ]
    if settings.inherited is not None:
        rows.insert(3, ("selected-by-configuration", sorted(settings.inherited)))
    width = max(len(key) for key, _ in rows)
    return "".join(f"{key:{width}} = {_value(value)}\n" for key, value in rows)


def render_files(paths: Sequence[str]) -> str:
    """One path per line, as discovery found them (escaped as in the text format, so a
    name holding a newline or a control character is still one visible line)."""
    return "".join(f"{terminal_name(path)}\n" for path in paths)
