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
# The white space between tokens: other Unicode spaces such as U+2028 are characters no
# token starts with, never blanks (as for MLIR). A line ends at \n, \r\n or a lone \r
# (``source.LINE_BREAK``): a comment ends there (MLIR's lexer ends one at \n or \r).
BLANKS = " \t\f\v"
SPACE = BLANKS + "\r"  # what is stripped around a line's text (a CRLF's \r with the blanks)
KIND = itemgetter(0)  # a token's kind (``tok.kind``), for ``map`` at C speed


_SUFFIX_ID = r"(?:[A-Za-z_$.\-][\w$.\-]*|\d+)"
# Unrolled (no alternation inside the repetition) and possessive: a multi-megabyte hex blob,
# or a million escaped quotes, match in linear time and constant memory (the regex engine
# keeps a backtracking entry per repetition of a group it may go back into: 100 bytes
# and more per character of a long run).
_STRING = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
# A string, or an unterminated one with the rest of its line (which the lexer makes one
# BAD_STRING token): what a search that skips strings looks for. A string pattern alone
# fails at each quote of an unterminated string only at the line's end, so such a search
# would read the line again from each of them. ``closed``: the closing quote, if any.
STRING_OR_REST = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+(?P<closed>")?'

# A long element list of a `dense<[...]>` literal on one line is one ELEMENTS token: a
# multi-megabyte constant is a span of the text, never a million tokens.
ELEMENTS_MIN = 256  # characters of a list's elements, at least, to make an ELEMENTS token
# After `tensor<` (and the like): the first character of a dimension list, already taken.
_SHAPED = r"(?<=tensor<.|vector<.|memref<.)"
_MORE_DIMS = r"(?:(?:\d+|\?|\*|\[\d+\])x)*+"
_NUMBER_TAIL = r"\.\d*(?:[eE][-+]?\d+)?"

# The alternatives are tried in order at each position. The common tokens come first, as
# far as no earlier alternative can start with their first character (a word, a value, the
# brackets and separators MLIR is mostly made of); the rest keep the order that settles
# their overlaps (DIMS before numbers, `->` before `-`, `{-#` before `{`, HEX before INT...).
# Each alternative starts with a character or a character class, which the regex engine
# tests before trying it (a lookbehind or an optional sign first would be tried in full):
# a kind whose first character varies is split into several alternatives.
_ALTERNATIVES: tuple[tuple[str, str], ...] = (
    ("NL", r"\n"),
    ("NL", r"\r\n?"),  # (a CRLF, or a lone \r)
    ("BARE_ID", r"[A-Za-z_][\w$.]*"),
    ("VALUE_ID", rf"%{_SUFFIX_ID}(?:\#\d+)?"),
    ("LPAR", r"\("),
    ("RPAR", r"\)"),
    ("COMMA", ","),
    ("LANGLE", "<"),
    ("PUNCT", ">="),  # (an integer set's constraint, `affine_set<(d0) : (d0 >= 0)>`)
    ("RANGLE", ">"),
    ("EQUAL", "="),
    ("COLON", ":"),
    ("RSQB", r"\]"),
    ("RBRACE", r"\}"),
    ("STRING", _STRING),
    ("COMMENT", r"//[^\n\r]*"),
    ("DIMS", rf"\d{_SHAPED}\d*x{_MORE_DIMS}"),
    ("DIMS", rf"[?*]{_SHAPED}x{_MORE_DIMS}"),
    ("DIMS", rf"\[{_SHAPED}\d+\]x{_MORE_DIMS}"),
    ("RESOURCE_OPEN", r"\{-\#"),
    ("RESOURCE_CLOSE", r"\#-\}"),
    ("ELEMENTS", rf"\[(?<=dense<\[)[^\"<>{{}}\n\r]{{{ELEMENTS_MIN},}}\](?=[ \t]*>)"),
    ("ARROW", "->"),
    ("CARET_ID", rf"\^{_SUFFIX_ID}"),
    ("SYMBOL", rf"@(?:[A-Za-z_$.\-][\w$.\-]*|{_STRING})"),
    ("HASH_ID", rf"\#{_SUFFIX_ID}"),
    ("BANG_ID", rf"!{_SUFFIX_ID}"),
    ("HEX", r"0x[0-9A-Fa-f]+"),
    ("HEX", r"-0x[0-9A-Fa-f]+"),  # (`-0x1 : i32`)
    ("FLOAT", rf"[-+]\d+{_NUMBER_TAIL}"),
    ("FLOAT", rf"\d\d*{_NUMBER_TAIL}"),
    ("INT", r"[-+]\d+"),
    ("INT", r"\d\d*"),
    ("LSQB", r"\["),
    ("LBRACE", r"\{"),
    ("PUNCT", "::"),
    ("PUNCT", r"\.\.\."),
    ("PUNCT", r"[*?+|!/&~.;\-]"),
    # (MLIR's lexer reads a string on over a lone \r, up to the end of the line at a \n)
    ("BAD_STRING", r'"[^\r\n]*+(?:\r(?!\n)[^\r\n]*+)*+'),
    ("ERROR", rf"[^{BLANKS}]"),
)


def _compiled(alternatives: tuple[tuple[str, str], ...]) -> tuple[re.Pattern[str], list[str]]:
    """The pattern of ``alternatives`` and the kind of each of its groups.

    The blanks before a token are part of its match (one match per token instead of one
    more per run of blanks): the empty group 1 marks where the token starts. Each
    alternative ends with an empty group, the last one a match closes (its ``lastindex``),
    which names its kind. Blanks at the end match nothing (ERROR is any other character):
    ``tokenize`` leaves them out of the text it searches, else the search would read them to
    the end again from each of their positions."""
    body = "|".join(f"{pattern}()" for _, pattern in alternatives)
    kinds = ["", ""] + [kind for kind, _ in alternatives]
    return re.compile(rf"[{BLANKS}]*+()(?:{body})"), kinds


_TOKEN_RE, _KINDS = _compiled(_ALTERNATIVES)
_PLAIN_RE, _PLAIN_KINDS = _compiled(tuple(a for a in _ALTERNATIVES if a[0] != "ELEMENTS"))
# What a well-formed list of numbers, booleans and complex pairs never holds: an empty
# element, two elements with no comma between them.
_CLOSE_THEN_ELEMENT = re.compile(r"[\])][^,\])]")
_BAD_ELEMENTS = re.compile(r"\[\s*,|,\s*[,\]]|[\w.)\]]\s+[\w.(\[+-]|\]\s*[\[(\w]|\)\s*[\[(\w]")

_new = tuple.__new__


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    """Tokens of ``text[start:end]`` with absolute offsets; spaces and comments dropped.

    Newlines are kept (``NL``): they end statements. ``ERROR`` and ``BAD_STRING`` tokens
    mark characters no MLIR token starts with and unterminated strings.
    """
    limit = end = len(text) if end is None else end
    while end > start and (
        text[end - 1] in BLANKS or (text[end - 1] == "\r" and text.startswith("\n", end))
    ):
        end -= 1  # (and half a CRLF cut off by ``end``: no line break here)
    kinds = _KINDS
    toks = [
        _new(Tok, (kind, match.start(1), match.end()))  # Tok(...) without its __new__
        for match in _TOKEN_RE.finditer(text, start, end)
        if (kind := kinds[match.lastindex or 0]) != "COMMENT"
    ]
    if toks and toks[-1].kind == "BAD_STRING" and toks[-1].end == end < limit:
        # An unterminated string takes the rest of its line, the blanks left out included.
        rest = end
        while rest < limit and text[rest] in BLANKS:
            rest += 1
        toks[-1] = Tok("BAD_STRING", toks[-1].start, rest)
    if text.find("dense<[", start, end) < 0:
        return toks
    out: list[Tok] = []
    for tok in toks:
        if tok.kind == "ELEMENTS" and not _well_formed(text, tok.start, tok.end):
            out.extend(  # its own tokens, so the error in it is found and placed
                Tok(kind, match.start(1), match.end())
                for match in _PLAIN_RE.finditer(text, tok.start, tok.end)
                if (kind := _PLAIN_KINDS[match.lastindex or 0]) != "COMMENT"
            )
        else:
            out.append(tok)
    return out


def moved(span: Span, delta: int) -> Span:
    """``span`` moved ``delta`` characters (back when ``delta`` is negative)."""
    return span[0] + delta, span[1] + delta


def moved_tokens(toks: Iterable[Tok], delta: int) -> list[Tok]:
    """``toks`` moved ``delta`` characters (back when ``delta`` is negative): the one place
    the front end moves offsets, for a line cut alone, a kept statement's copy, a piece of
    @main parsed out of place."""
    return [_new(Tok, (kind, start + delta, end + delta)) for kind, start, end in toks]


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
