"""Long argument lists, read for some of their arguments only: a model's weights are
@main's arguments, 30,000 of them on one line, whose tokens and IR took a second and tens of
megabytes to build. The arguments not wanted are blanked out at the same offsets, so the
parser reads a short list where the long one stood.

A list is taken this way when it is *simple*: ``%name: type`` entries and nothing else, no
string, attribute dictionary, location or parenthesis (so a ``%`` starts each entry and
stands nowhere else) and no alias (``#``, ``!``: the blanks would hide its use).
"""

from __future__ import annotations

import re

# An argument list this long (characters) may be read for some of its arguments.
LONG_ARGUMENTS = 1 << 16
_NOT_SIMPLE = ('"', "{", "(", "#", "!", "/")
_NOT_LINE_BREAK = re.compile(r"[^\r\n]")


def simple_list(text: str, opening: int, end: int) -> tuple[int, int] | None:
    """``[start, stop)`` of the long simple argument list opening at ``opening`` (its
    ``(``, before ``end``), or None."""
    if opening < 0 or opening >= end:
        return None
    stop = text.find(")", opening, end)
    start = opening + 1
    if stop < 0 or stop - start < LONG_ARGUMENTS:
        return None
    if any(text.find(mark, start, stop) >= 0 for mark in _NOT_SIMPLE):
        return None
    return start, stop


def entries(piece: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each entry of the simple list ``piece`` (its separator left out:
    a comma in a type, as in ``tuple<i32, i32>``, is no separator)."""
    starts = []
    at = piece.find("%")
    while at >= 0:
        starts.append(at)
        at = piece.find("%", at + 1)
    found = []
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(piece)
        if number + 1 < len(starts):
            end = piece.rfind(",", start, end)
        while end > start and piece[end - 1] in " \t\r\n":
            end -= 1
        found.append((start, end))
    return found


def blanked(piece: str, kept: list[tuple[int, int]]) -> str:
    """``piece`` with the entries ``kept`` (ascending) and a comma after each but the last,
    blanks everywhere else but at line breaks: the same length and lines, a list of the kept
    entries."""
    parts, at = [], 0
    for number, (start, end) in enumerate(kept):
        parts += [_blank(piece[at:start]), piece[start:end]]
        at = end
        if number + 1 < len(kept):
            parts.append(",")
            at += 1
    parts.append(_blank(piece[at:]))
    return "".join(parts)


def _blank(gap: str) -> str:
    """``gap`` blanked, its line breaks kept."""
    if "\n" not in gap and "\r" not in gap:
        return " " * len(gap)
    return _NOT_LINE_BREAK.sub(" ", gap)


def entry_name(piece: str, entry: tuple[int, int]) -> str:
    """The ``%name`` of an entry."""
    start, end = entry
    colon = piece.find(":", start, end)
    return piece[start : end if colon < 0 else colon].rstrip(" \t\r\n")
