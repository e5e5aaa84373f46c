"""One compiled regular expression that cuts MLIR text into tokens."""

from __future__ import annotations

import re
from collections.abc import Iterable
from operator import itemgetter
from typing import NamedTuple


class Tok(NamedTuple):
    """A token: its terminal name and its [start, end) character offsets in the file."""

    kind: str
    start: int
    end: int


Span = tuple[int, int]
KIND = itemgetter(0)  # a token's kind (``tok.kind``), for ``map`` at C speed


_SUFFIX_ID = r"(?:[A-Za-z_$.\-][\w$.\-]*|\d+)"
# Unrolled (no alternation inside the repetition): a multi-megabyte hex blob matches in
# linear time and constant memory.
_STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'

# The alternatives are tried in order at each position. The common tokens come first, as
# far as no earlier alternative can start with their first character (a word, a value, the
# brackets and separators MLIR is mostly made of); the rest keep the order that settles
# their overlaps (DIMS before numbers, `->` before `-`, `{-#` before `{`, HEX before INT...).
# The blanks before a token are part of its match (a token starts at its group): one match
# per token instead of one more per run of blanks, a sixth less time. Trailing blanks match
# nothing (ERROR is any other character).
_TOKENS = r"""[ \t\r\f\v]*(?:
    (?P<NL>\n)
  | (?P<BARE_ID>[A-Za-z_][\w$.]*)
  | (?P<VALUE_ID>%SUFFIX_ID(?:\#\d+)?)
  | (?P<LPAR>\()
  | (?P<RPAR>\))
  | (?P<COMMA>,)
  | (?P<LANGLE><)
  | (?P<RANGLE>>)
  | (?P<EQUAL>=)
  | (?P<COLON>:)
  | (?P<RSQB>\])
  | (?P<RBRACE>\})
  | (?P<STRING>STRING_RE)
  | (?P<COMMENT>//[^\n]*)
  | (?P<DIMS>(?:(?<=tensor<)|(?<=vector<)|(?<=memref<))(?:(?:\d+|\?|\*|\[\d+\])x)+)
  | (?P<RESOURCE_OPEN>\{-\#)
  | (?P<RESOURCE_CLOSE>\#-\})
  ELEMENTS_RE
  | (?P<ARROW>->)
  | (?P<CARET_ID>\^SUFFIX_ID)
  | (?P<SYMBOL>@(?:[A-Za-z_$.\-][\w$.\-]*|STRING_RE))
  | (?P<HASH_ID>\#SUFFIX_ID)
  | (?P<BANG_ID>!SUFFIX_ID)
  | (?P<HEX>0x[0-9A-Fa-f]+)
  | (?P<FLOAT>[-+]?\d+\.\d*(?:[eE][-+]?\d+)?)
  | (?P<INT>[-+]?\d+)
  | (?P<LSQB>\[)
  | (?P<LBRACE>\{)
  | (?P<PUNCT>::|\.\.\.|[*?+|!/&~.;\-])
  | (?P<BAD_STRING>"[^\n]*)
  | (?P<ERROR>[^ \t\r\f\v])
    )""".replace("STRING_RE", _STRING).replace("SUFFIX_ID", _SUFFIX_ID)
# A long element list of a `dense<[...]>` literal on one line is one ELEMENTS token: a
# multi-megabyte constant is a span of the text, never a million tokens.
ELEMENTS_MIN = 256  # characters of a list's elements, at least, to make an ELEMENTS token
_ELEMENTS = rf"| (?P<ELEMENTS>(?<=dense<)\[[^\"<>{{}}\n]{{{ELEMENTS_MIN},}}\](?=[ \t]*>))"
_TOKEN_RE = re.compile(_TOKENS.replace("ELEMENTS_RE", _ELEMENTS), re.VERBOSE)
_PLAIN_RE = re.compile(_TOKENS.replace("ELEMENTS_RE", ""), re.VERBOSE)
# What a well-formed list of numbers, booleans and complex pairs never holds: an empty
# element, two elements with no comma between them.
_CLOSE_THEN_ELEMENT = re.compile(r"[\])][^,\])]")
_BAD_ELEMENTS = re.compile(r"\[\s*,|,\s*[,\]]|[\w.)\]]\s+[\w.(\[+-]|\]\s*[\[(\w]|\)\s*[\[(\w]")

_new = tuple.__new__
# Each alternative of the pattern is one group: its number (a match's ``lastindex``) names
# the token's kind, read without the name lookup ``lastgroup`` makes.
_KINDS = [""] * (_TOKEN_RE.groups + 1)
for _name, _group in _TOKEN_RE.groupindex.items():
    _KINDS[_group] = _name
_COMMENT_GROUP = _TOKEN_RE.groupindex["COMMENT"]
_ERROR_GROUP = _TOKEN_RE.groupindex["ERROR"]


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    """Tokens of ``text[start:end]`` with absolute offsets; spaces and comments dropped.

    Newlines are kept (``NL``): they end statements. ``ERROR`` and ``BAD_STRING`` tokens
    mark characters no MLIR token starts with and unterminated strings.
    """
    end = len(text) if end is None else end
    toks = [
        _new(Tok, (_KINDS[group], match.start(group), match.end()))  # Tok(...), no __new__
        for match in _TOKEN_RE.finditer(text, start, end)
        if (group := match.lastindex or _ERROR_GROUP) != _COMMENT_GROUP
    ]
    if text.find("dense<[", start, end) < 0:
        return toks
    out: list[Tok] = []
    for tok in toks:
        if tok.kind == "ELEMENTS" and not _well_formed(text, tok.start, tok.end):
            out.extend(  # its own tokens, so the error in it is found and placed
                Tok(kind, match.start(kind), match.end())
                for match in _PLAIN_RE.finditer(text, tok.start, tok.end)
                if (kind := match.lastgroup or "ERROR") != "COMMENT"
            )
        else:
            out.append(tok)
    return out


def statement_tokens(text: str, start: int, end: int, regions: Iterable[Span]) -> list[Tok]:
    """The tokens the statement scanner gives the statement spanning ``[start, end)`` whose
    regions span ``regions``: newlines dropped, each region one ``REGION`` token."""
    out: list[Tok] = []
    at = start
    for region_start, region_end in regions:
        out.extend(tok for tok in tokenize(text, at, region_start) if tok.kind != "NL")
        out.append(Tok("REGION", region_start, region_end))
        at = region_end
    out.extend(tok for tok in tokenize(text, at, end) if tok.kind != "NL")
    return out


def _well_formed(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a balanced list with one element between commas?

    As MLIR prints it (every space right after a comma) this is read with counts and
    substring searches alone; any other spacing takes one regular-expression search."""
    if text.count("[", start, end) != text.count("]", start, end):
        return False
    if text.count("(", start, end) != text.count(")", start, end):
        return False
    printed = text.count(" ", start, end) == text.count(", ", start, end)
    if printed and text.find("\t", start, end) < 0:
        if any(text.find(bad, start, end) >= 0 for bad in (",,", ", ,", "[,", ",]", ", ]")):
            return False
        return _CLOSE_THEN_ELEMENT.search(text, start, end) is None
    return _BAD_ELEMENTS.search(text, start, end) is None
