"""What the lines edited since the last analysis define, read from the current text: the
names completion offers before the analysis of the new version is in.

Right after Enter the value defined on the line above is in the document but not yet in any
index (the analysis waits for the debounce, then runs). Completion reads the changed lines
(``Shift.changes``, moved into the current text) with one pattern per kind of name: SSA
values defined by ops (``%x = ...``, ``%x:2 = ...`` as ``%x#0``, ``%x#1``), block and function
arguments (``%arg0: type`` in a header), block labels and symbols defined by ops
(``func.func @name``). Only those lines are read: the cost is the size of the edits, not of
the document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from passlint.server.views import Shift

Span = tuple[int, int]

_NAME = r"[\w$.\-]+"
_RESULTS = re.compile(rf"^[ \t]*(%{_NAME}(?::\d+)?(?:[ \t]*,[ \t]*%{_NAME}(?::\d+)?)*)[ \t]*=")
_RESULT = re.compile(rf"(%{_NAME})(?::(\d+))?")
_ARGUMENT = re.compile(rf"(%{_NAME})[ \t]*:(?!:)")
_LABEL = re.compile(rf"^[ \t]*(\^{_NAME})", re.MULTILINE)
_SYMBOL = re.compile(
    rf"^[ \t]*(?:%{_NAME}[^=\n]*=[ \t]*)?\"?[\w.]+\"?[ \t]+(@{_NAME})", re.MULTILINE
)
_MOST_RESULTS = 64  # a group of more results is offered as its name alone


@dataclass
class PendingNames:
    """The names the changed lines define: values with the offset of their definition
    (current text), labels and symbols."""

    values: list[tuple[str, int]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)


def changed_spans(shift: Shift) -> list[Span]:
    """The spans of the current text that the shift's changes wrote (whole lines), in order
    and apart."""
    spans: list[Span] = []
    for change in shift.changes:
        moved: list[Span] = []
        start, end = change.start, change.start + len(change.new)
        for old_start, old_end in spans:
            if old_start > change.end:
                moved.append((old_start + change.delta, old_end + change.delta))
            elif old_end < change.start:
                moved.append((old_start, old_end))
            else:  # rewritten by this change: within its new lines now
                start, end = min(start, old_start), max(end, old_end + change.delta)
        moved.append((start, end))
        spans = sorted(moved)
    return spans


def pending_names(text: str, spans: list[Span]) -> PendingNames:
    """What the lines of ``spans`` in ``text`` define."""
    found = PendingNames()
    for start, end in spans:
        for line_start, line in _lines(text, start, end):
            results = _RESULTS.match(line)
            if results is not None:
                for result in _RESULT.finditer(results.group(1)):
                    count = int(result.group(2) or 1)
                    name = result.group(1)
                    at = line_start + result.start()
                    if count == 1 or count > _MOST_RESULTS:
                        found.values.append((name, at))
                    else:
                        found.values += [(f"{name}#{i}", at) for i in range(count)]
            if "(" in line:  # a block's or a function's arguments
                found.values += [
                    (m.group(1), line_start + m.start()) for m in _ARGUMENT.finditer(line)
                ]
        chunk = text[start:end]
        found.labels += _LABEL.findall(chunk)
        found.symbols += _SYMBOL.findall(chunk)
    return found


def _lines(text: str, start: int, end: int) -> list[tuple[int, str]]:
    out = []
    at = start
    for line in text[start:end].split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out
