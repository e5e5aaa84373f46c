"""Applying text edits to a document: sorted, checked for overlap, all or nothing."""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from passlint.analysis.findings import Fix, TextEdit
from passlint.analysis.source import SourceText


class OverlappingEditsError(ValueError):
    """Two edits of one batch touch the same text."""


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """Apply edits (all for the same file) to ``text``; edits must not overlap.

    Two insertions at the same offset are applied in the order given.
    """
    source = SourceText(text)
    spans = sorted(
        ((*source.span(edit.range), index, edit.new_text) for index, edit in enumerate(edits)),
    )
    out: list[str] = []
    cursor = 0
    for start, end, _, new_text in spans:
        if start < cursor:
            raise OverlappingEditsError(f"edit at offset {start} overlaps an earlier edit")
        out.append(text[cursor:start])
        out.append(new_text)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def edits_by_path(fixes: Iterable[Fix]) -> dict[str, list[TextEdit]]:
    """Group the edits of several fixes by file, dropping fixes that overlap earlier ones."""
    grouped: dict[str, list[TextEdit]] = {}
    taken: dict[str, _Taken] = {}
    for fix in fixes:
        spans = [(edit.path, _key(edit)) for edit in fix.edits]
        if any(path in taken and taken[path].overlaps(span) for path, span in spans):
            continue
        for edit, (path, span) in zip(fix.edits, spans, strict=True):
            grouped.setdefault(path, []).append(edit)
            taken.setdefault(path, _Taken()).add(span)
    return grouped


Point = tuple[int, int]  # (line, column)
Span = tuple[Point, Point]


def _key(edit: TextEdit) -> Span:
    rng = edit.range
    return (rng.start.line, rng.start.column), (rng.end.line, rng.end.column)


class _Taken:
    """The spans of one file's edits kept so far, which overlap none of each other: sorted,
    their ends are sorted too, so whether a span overlaps one is a binary search (a fix-all
    of 16,000 copies compared each with all those before it)."""

    def __init__(self) -> None:
        self.spans: list[Span] = []

    def overlaps(self, span: Span) -> bool:
        """Does ``span`` overlap a kept span (start before its end, end after its start)?"""
        start, end = span
        before = bisect.bisect_left(self.spans, (end, end))  # those that start before ``end``
        return before > 0 and self.spans[before - 1][1] > start  # (the last ends last)

    def add(self, span: Span) -> None:
        bisect.insort(self.spans, span)  # (at the end, for fixes in textual order)
