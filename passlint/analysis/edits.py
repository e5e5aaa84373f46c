"""Applying text edits to a document: sorted, checked for overlap, all or nothing."""

from __future__ import annotations

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
    taken: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    for fix in fixes:
        spans = [(edit.path, _key(edit)) for edit in fix.edits]
        if any(_overlaps(span, taken.get(path, [])) for path, span in spans):
            continue
        for edit, (path, span) in zip(fix.edits, spans, strict=True):
            grouped.setdefault(path, []).append(edit)
            taken.setdefault(path, []).append(span)
    return grouped


def _key(edit: TextEdit) -> tuple[tuple[int, int], tuple[int, int]]:
    rng = edit.range
    return (rng.start.line, rng.start.column), (rng.end.line, rng.end.column)


def _overlaps(
    span: tuple[tuple[int, int], tuple[int, int]],
    others: list[tuple[tuple[int, int], tuple[int, int]]],
) -> bool:
    start, end = span
    return any(start < other_end and other_start < end for other_start, other_end in others)
