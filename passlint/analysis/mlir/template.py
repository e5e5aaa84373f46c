"""What the parse of one statement is reduced to: token positions by role."""

from __future__ import annotations

from dataclasses import dataclass

from passlint.analysis import codes

Span = tuple[int, int]  # inclusive token index range


@dataclass(frozen=True, slots=True)
class Argument:
    """A block argument defined in a parenthesised list: ``%a: type loc(...)``."""

    value: int
    type: Span | None
    list_no: int


@dataclass(frozen=True, slots=True)
class Entry:
    """``key = value`` in a top-level attribute group (dictionary or properties)."""

    group: int
    key: int
    value: Span | None  # None for a unit attribute


@dataclass(frozen=True, slots=True)
class Template:
    kind: str  # "op", "label", "alias" or "resources"
    results: tuple[tuple[int, int], ...] = ()  # (value, count token or -1 for one result)
    name: int = -1
    generic: bool = False
    operands: tuple[int, ...] = ()
    arguments: tuple[Argument, ...] = ()
    bindings: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()
    groups: tuple[tuple[str, Span], ...] = ()  # ("dict" | "properties", braces)
    entries: tuple[Entry, ...] = ()
    types: tuple[Span, ...] = ()
    colon: int = -1
    arrow: int = -1
    location: Span | None = None
    symbols: tuple[int, ...] = ()
    words: tuple[int, ...] = ()  # top-level bare words (keywords such as `attributes`)
    recovered: bool = False  # read from a statement that does not parse (results and uses)
    # The token kinds the template was parsed from (what validation counts types in); empty
    # for a recovered template.
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StatementError:
    index: int  # token index (len(toks) for the end of the statement)
    expected: tuple[str, ...]
    message: str = ""  # MLIR's own wording, when it has one (else built from ``expected``)
    code: str = codes.E001
