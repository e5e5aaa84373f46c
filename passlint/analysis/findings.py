"""Findings: what a pass reports, as plain data every face converts to its own types."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Severity(IntEnum):
    """Severity levels, numbered as LSP numbers them (lower is more severe)."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        aliases = {"info": "information", "warn": "warning"}
        key = aliases.get(text.strip().lower(), text.strip().lower())
        for member in cls:
            if member.label == key:
                return member
        raise ValueError(f"unknown severity {text!r} (use error, warning, information or hint)")


@dataclass(frozen=True, order=True)
class Position:
    """A 0-based line and a 0-based column counted in characters."""

    line: int
    column: int


@dataclass(frozen=True, order=True)
class Range:
    start: Position
    end: Position

    def contains(self, position: Position) -> bool:
        return self.start <= position <= self.end


@dataclass(frozen=True)
class Location:
    """A related place, with what it has to do with the finding."""

    path: str
    range: Range
    message: str


@dataclass(frozen=True)
class TextEdit:
    """Replace ``range`` of the file at ``path`` by ``new_text``."""

    path: str
    range: Range
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A fix: ``preferred`` False when applying it leaves work to do by hand (its title says
    what); ``--fix`` and fix-all apply preferred fixes only."""

    title: str
    edits: tuple[TextEdit, ...]
    preferred: bool = True


@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    path: str
    range: Range
    message: str
    related: tuple[Location, ...] = ()
    fix: Fix | None = None
    tags: tuple[str, ...] = field(default=())
