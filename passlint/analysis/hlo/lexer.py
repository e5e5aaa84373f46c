"""HLO text as tokens: one compiled regular expression over the text, a leading byte order
mark, comments (``//`` to the end of the line, ``/* ... */``) and blanks skipped, each token
with its character span and whether it starts a line (the parser's recovery point)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

NAME: Final = "name"
NUMBER: Final = "number"
STRING: Final = "string"
PUNCT: Final = "punct"
END: Final = "end"

_TOKEN = re.compile(
    r"""
    (?P<blank>[ \t\f\v\r\n]+)
  | (?P<comment>//[^\r\n]*|/\*.*?\*/)
  | (?P<open_comment>/\*)
  | (?P<string>"[^"\\]*(?:\\.[^"\\]*)*")
  | (?P<open_string>")
  | (?P<number>[-+]?(?:inf|nan)\b|[-+]?\.?\d(?:[\w.]|(?<=[eE])[-+])*)
  | (?P<name>%?[A-Za-z_$](?:[\w.$]|-(?!>))*)
  | (?P<punct>->|<=|.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    start: int
    end: int
    line_start: bool  # first token of its line


class LexError(Exception):
    """An unterminated string or comment: where it opens and what is wrong."""

    def __init__(self, message: str, span: tuple[int, int]) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Every token of ``text[start:end]`` (spans are offsets in ``text``), ending with an
    ``END`` token at ``end``."""
    tokens: list[Token] = []
    line_start = True
    stop = len(text) if end is None else end
    if start == 0 and text.startswith("\ufeff"):
        start = 1  # (a byte order mark is no token)
    for match in _TOKEN.finditer(text, start, stop):
        kind = match.lastgroup
        start, end = match.span()
        if kind == "blank" or kind == "comment":
            if not line_start and ("\n" in match.group() or "\r" in match.group()):
                line_start = True
            continue
        if kind == "open_comment":
            raise LexError("Unterminated comment: `/*` has no `*/`; close it.", (start, end))
        if kind == "open_string":
            raise LexError('Unterminated string: `"` has no closing quote; close it.', (start, end))
        assert kind is not None
        tokens.append(Token(kind, match.group(), start, end, line_start))
        line_start = False
    tokens.append(Token(END, "", stop, stop, True))
    return tokens
