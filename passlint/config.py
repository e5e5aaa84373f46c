"""Settings: which rules run, at which severity, with which pipeline variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from passlint.analysis.findings import Severity
from passlint.analysis.rules import RULES, default_selected

Pipeline = Literal["auto", "mhlo", "stablehlo"]
PIPELINES: tuple[Pipeline, ...] = ("auto", "mhlo", "stablehlo")


class ConfigError(ValueError):
    """A setting names an unknown rule, severity or key."""


@dataclass(frozen=True)
class Settings:
    """What the engine needs to know; built from pyproject.toml, CLI flags or LSP settings.

    ``select`` of None means the default selection (every rule that is not opt-in). Codes
    may be given as prefixes (``TL`` selects every TL rule).
    """

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)
    pipeline: Pipeline = "auto"

    def __post_init__(self) -> None:
        for prefix in (*(self.select or ()), *self.extend_select, *self.ignore, *self.severity):
            if not any(code.startswith(prefix) for code in RULES):
                raise ConfigError(f"unknown rule code {prefix!r}")
        if self.pipeline not in PIPELINES:
            raise ConfigError(f"unknown pipeline {self.pipeline!r} (use auto, mhlo or stablehlo)")

    def is_selected(self, code: str) -> bool:
        if _longest_match(code, self.ignore) > max(
            _longest_match(code, self.select or ()), _longest_match(code, self.extend_select)
        ):
            return False
        if _longest_match(code, self.extend_select) >= 0:
            return True
        if self.select is None:
            return default_selected(code)
        return _longest_match(code, self.select) >= 0

    def severity_of(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)


def _longest_match(code: str, prefixes: tuple[str, ...]) -> int:
    """Length of the longest prefix in ``prefixes`` that ``code`` starts with, else -1."""
    return max((len(prefix) for prefix in prefixes if code.startswith(prefix)), default=-1)
