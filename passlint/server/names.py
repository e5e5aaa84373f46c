"""Python names in a pl document's text, found as CPython's tokenizer reads them.

A name is a run of ASCII letters, digits and ``_`` and of characters beyond ASCII that can
be in an identifier (``données``, ``核``), not starting with a digit; what it names is its
NFKC normal form (PEP 3131: a fullwidth ``k``, U+FF4B, is ``k``; ``ﬁ`` is ``fi``), which is how the
``ast`` spells it. Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``. Offsets in, spans of the
text out: a name's span is where the text spells it, whatever its normal form's length.
"""

from __future__ import annotations

import re
import unicodedata

Span = tuple[int, int]

# A run that may hold a name: what the tokenizer reads as one (every character beyond ASCII
# goes on a name; ``_parts`` cuts out those that cannot be in one).
NAME = r"[A-Za-z_\x80-\U0010ffff][0-9A-Za-z_\x80-\U0010ffff]*"
_RUN = re.compile(NAME)
# ``def`` or ``class`` and the blanks and backslash continuations before the name.
_KEYWORD = {
    keyword: re.compile(rf"\b{keyword}(?:[ \t\f]|\\(?:\r\n|\r|\n))+")
    for keyword in ("def", "class")
}


def normal(name: str) -> str:
    """The name CPython reads for the text ``name``."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def _continues(char: str) -> bool:
    """Can ``char`` (beyond ASCII) be inside a name?"""
    return f"a{unicodedata.normalize('NFKC', char)}".isidentifier()


def _starts(char: str) -> bool:
    """Can ``char`` begin a name?"""
    return unicodedata.normalize("NFKC", char).isidentifier()


def _parts(text: str, start: int, end: int) -> list[Span]:
    """The names in the run ``text[start:end]``: cut at characters that cannot be in one,
    each without leading characters that cannot begin one."""
    run = text[start:end]
    if run.isascii():
        return [(start, end)]
    foreign = [c for c in set(run) if not c.isascii() and not _continues(c)]
    pieces = re.split(f"([{re.escape(''.join(foreign))}])", run) if foreign else [run]
    out = []
    at = start
    for piece in pieces:
        first = at
        while first < at + len(piece) and not _starts(text[first]):
            first += 1
        if first < at + len(piece) and piece not in foreign:
            out.append((first, at + len(piece)))
        at += len(piece)
    return out


def _line_bounds(text: str, offset: int) -> Span:
    newline = text.rfind("\n", 0, offset)
    start = max(newline, text.rfind("\r", newline + 1, offset)) + 1
    end = len(text)
    for stop in ("\n", "\r"):
        found = text.find(stop, offset, end)
        end = end if found < 0 else found
    return start, end


def word_at(text: str, offset: int) -> tuple[str, Span] | None:
    """The name holding ``offset`` (its end counts as inside), in its normal form, and
    where the text spells it."""
    start, end = _line_bounds(text, offset)
    for run in _RUN.finditer(text, start, end):
        if run.end() < offset:
            continue
        if run.start() > offset:
            break
        for first, last in _parts(text, run.start(), run.end()):
            if first <= offset <= last:
                word = normal(text[first:last])
                return (word, (first, last)) if word.isidentifier() else None
    return None


def names_in(text: str, start: int, end: int) -> list[tuple[str, Span]]:
    """Every name in ``text[start:end]`` (normal form, span), in text order."""
    return [
        (normal(text[first:last]), (first, last))
        for run in _RUN.finditer(text, start, end)
        for first, last in _parts(text, run.start(), run.end())
    ]


def name_span(text: str, start: int, end: int, name: str) -> Span | None:
    """Where the first name that reads as ``name`` is spelled in ``text[start:end]``."""
    for run in _RUN.finditer(text, start, end):
        if run.group() == name:
            return run.span()
        if run.group().isascii():
            continue
        for first, last in _parts(text, run.start(), run.end()):
            if normal(text[first:last]) == name:
                return first, last
    return None


def last_name_span(text: str, start: int, end: int) -> Span | None:
    """Where the last name of ``text[start:end]`` (e.g. the ``k`` of ``self.k``) is spelled."""
    found = names_in(text, start, end)
    return found[-1][1] if found else None


def defined_name_span(text: str, start: int, end: int, keyword: str, name: str) -> Span | None:
    """Where the name after ``def`` or ``class`` (``keyword``) is spelled in the statement
    at ``text[start:end]`` (after blanks, and backslash continuations of its line), when it
    reads as ``name``."""
    found = _KEYWORD[keyword].search(text, start, end)
    run = _RUN.match(text, found.end(), end) if found is not None else None
    if run is None:
        return None
    parts = _parts(text, run.start(), run.end())
    if not parts or parts[0][0] != run.start():
        return None
    first, last = parts[0]
    return (first, last) if normal(text[first:last]) == name else None
