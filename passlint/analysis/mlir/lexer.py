"""One compiled regular expression that cuts MLIR text into tokens."""

from __future__ import annotations

import re
from typing import NamedTuple


class Tok(NamedTuple):
    """A token: its terminal name and its [start, end) character offsets in the file."""

    kind: str
    start: int
    end: int


_SUFFIX_ID = r"(?:[A-Za-z_$.\-][\w$.\-]*|\d+)"
_STRING = r'"(?:[^"\\\n]|\\.)*"'

_TOKEN_RE = re.compile(
    r"""
    (?P<NL>\n)
  | (?P<WS>[ \t\r\f\v]+)
  | (?P<COMMENT>//[^\n]*)
  | (?P<DIMS>(?:(?<=tensor<)|(?<=vector<)|(?<=memref<))(?:(?:\d+|\?|\*|\[\d+\])x)+)
  | (?P<RESOURCE_OPEN>\{-\#)
  | (?P<RESOURCE_CLOSE>\#-\})
  | (?P<ARROW>->)
  | (?P<STRING>STRING_RE)
  | (?P<VALUE_ID>%SUFFIX_ID(?:\#\d+)?)
  | (?P<CARET_ID>\^SUFFIX_ID)
  | (?P<SYMBOL>@(?:[A-Za-z_$.\-][\w$.\-]*|STRING_RE))
  | (?P<HASH_ID>\#SUFFIX_ID)
  | (?P<BANG_ID>!SUFFIX_ID)
  | (?P<HEX>0x[0-9A-Fa-f]+)
  | (?P<FLOAT>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?)
  | (?P<INT>[-+]?\d+)
  | (?P<BARE_ID>[A-Za-z_][\w$.]*)
  | (?P<LPAR>\()
  | (?P<RPAR>\))
  | (?P<LSQB>\[)
  | (?P<RSQB>\])
  | (?P<LBRACE>\{)
  | (?P<RBRACE>\})
  | (?P<LANGLE><)
  | (?P<RANGLE>>)
  | (?P<EQUAL>=)
  | (?P<COMMA>,)
  | (?P<COLON>:)
  | (?P<PUNCT>::|\.\.\.|[*?+|!/&~.;\-])
  | (?P<BAD_STRING>"[^\n]*)
  | (?P<ERROR>.)
    """.replace("STRING_RE", _STRING).replace("SUFFIX_ID", _SUFFIX_ID),
    re.VERBOSE,
)

_SKIPPED = frozenset(("WS", "COMMENT"))


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    """Tokens of ``text[start:end]`` with absolute offsets; spaces and comments dropped.

    Newlines are kept (``NL``): they end statements. ``ERROR`` and ``BAD_STRING`` tokens
    mark characters no MLIR token starts with and unterminated strings.
    """
    end = len(text) if end is None else end
    return [
        Tok(kind, match.start(), match.end())
        for match in _TOKEN_RE.finditer(text, start, end)
        if (kind := match.lastgroup or "ERROR") not in _SKIPPED
    ]
