"""Where a pl text's ``def`` statements and their headers are, told from the text without
parsing it: for the batch screen (``screen``) and the text tests of standalone checks.

A ``def`` is one at the start of a line (after blanks, or ``async``); its header runs to the
first ``:`` after it where its brackets balance. Triple quotes are counted to tell a line in
code from one in a string (``Quotes``), and a text whose lines may not mean what they seem
(``unusual_lines``) is left to the full analysis by the callers.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from passlint.analysis.source import has_lone_cr

DEF = re.compile(r"def[ \t]+(\w+)")


@dataclass(frozen=True)
class Def:
    """A ``def`` at the start of a line: the line's offset, its indentation, the name."""

    line: int
    indent: int
    name: str


class Quotes:
    """Where a text's triple quotes are: two offsets with as many of each before them, mod
    2, are both in code or both in strings."""

    def __init__(self, text: str) -> None:
        self._at = [[m.start() for m in re.finditer(q, text)] for q in ('"""', "'''")]

    def parity(self, offset: int) -> tuple[int, int]:
        double, single = self._at
        return bisect.bisect_left(double, offset) % 2, bisect.bisect_left(single, offset) % 2


def def_lines(text: str) -> list[Def]:
    return [item for match in DEF.finditer(text) if (item := def_at(text, match)) is not None]


def def_at(text: str, match: re.Match[str]) -> Def | None:
    """The ``def`` of ``match`` when it starts its line (else a word, or in a string)."""
    start = match.start()
    code = start  # where the statement starts: ``def``, or ``async`` before it
    at = _blanks_before(text, start)
    if start > at >= 5 and text.startswith("async", at - 5):
        code = at - 5
        at = _blanks_before(text, code)
    if at and text[at - 1] != "\n":
        return None  # (found from ``def`` back: a line of many words costs no more)
    return Def(at, code - at, match.group(1))


def _blanks_before(text: str, offset: int) -> int:
    """Where the run of blanks and tabs that ends at ``offset`` starts."""
    while offset and text[offset - 1] in " \t":
        offset -= 1
    return offset


def header_text(text: str, start: int) -> str | None:
    """The ``def`` header whose line starts at ``start``, to the ``:`` where its brackets
    balance, as a statement of its own (None: no such ``:``)."""
    end = header_end(text, start)
    return None if end is None else _statement(text, start, end)


def _statement(text: str, start: int, end: int) -> str:
    """The header from ``start`` to its ``:`` at ``end``, as a statement of its own."""
    return text[start:end].lstrip() + ":\n pass\n"


Header = ast.FunctionDef | ast.AsyncFunctionDef


def parsed_headers(heads: list[str]) -> list[Header | None]:
    """Header statements parsed (None: one does not parse alone); together when they all
    parse, else one by one."""
    if not heads:
        return []
    body = _parse("".join(heads))
    if body is not None and len(body) == len(heads):
        return [node if isinstance(node, Header) else None for node in body]
    out: list[Header | None] = []
    for head in heads:
        body = _parse(head)
        node = body[0] if body is not None and len(body) == 1 else None
        out.append(node if isinstance(node, Header) else None)
    return out


def parsed_header(text: str, start: int) -> Header | None:
    """The ``def`` header whose line starts at ``start``, parsed (None: it does not parse)."""
    head = header_text(text, start)
    return parsed_headers([head])[0] if head is not None else None


def _parse(source: str) -> list[ast.stmt] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source).body
    except Exception:
        return None


def header_end(text: str, start: int, stop: int | None = None) -> int | None:
    """Where the ``:`` that ends the ``def`` header whose line starts at ``start`` is: the
    first after it where its brackets balance, before ``stop`` (None: none is)."""
    stop = len(text) if stop is None else stop
    at, depth = start, [0, 0, 0]  # open ( [ { so far (counted once: a header may have
    while True:  # thousands of parameters, each with its colon)
        colon = text.find(":", at, stop)
        if colon < 0:
            return None
        for index, (opener, closer) in enumerate(_BRACKETS):
            depth[index] += text.count(opener, at, colon) - text.count(closer, at, colon)
        if depth == [0, 0, 0]:
            return colon
        at = colon + 1


_BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"))


def unusual_lines(text: str) -> bool:
    """Form feeds, lone carriage returns, a ``def`` or a decorator split by an explicit
    line join, or one right after it: lines and indentation that may not mean what they
    seem."""
    if "\f" in text or has_lone_cr(text):
        return True
    for join in _JOIN.finditer(text):  # (a pattern that starts with a backslash: fast)
        at = join.start()
        if _DEF_BEFORE_JOIN.search(text, max(0, at - 32), at) or _AFTER_JOIN.match(
            text, join.end()
        ):
            return True
    return False


_JOIN = re.compile(r"\\\r?\n")
_DEF_BEFORE_JOIN = re.compile(r"\b(?:def|async)[ \t]*\Z")
_AFTER_JOIN = re.compile(r"[ \t]*(?:@|def\b|async\b)")


def may_hold(text: str, offsets: Sequence[int]) -> bool:
    """May a ``def`` header hold one of ``offsets``? No when, for each, the nearest ``def``
    above it and the nearest in code (by ``Quotes``) each have a header that ends before
    it and reads alone as a ``def`` statement: a header the bracket count cut short at a
    ``:`` in a string or a comment does not. (A header holding the offset starts at one of
    those two: a ``def`` line between it and the offset is in a string.)"""
    if unusual_lines(text):
        return True
    defs = [item.line for item in def_lines(text)]
    quotes = Quotes(text)
    in_code = [line for line in defs if quotes.parity(line) == (0, 0)]
    ends: dict[int, int] = {}  # def line -> where its header ends, one that reads alone
    for at in offsets:
        for lines in (defs, in_code):
            index = bisect.bisect_right(lines, at) - 1
            if index < 0:
                continue
            line = lines[index]
            if line not in ends:
                end = header_end(text, line, at)
                if end is None or parsed_headers([_statement(text, line, end)])[0] is None:
                    return True
                ends[line] = end
            if ends[line] > at:
                return True
    return False
