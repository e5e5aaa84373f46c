"""The type counts of a generic op's function type, by template.

Why the same answer: ``validate.type_counts`` reads the template's token kinds and its
colon and arrow positions alone, so every op of one template has the same counts. An entry
holds its template, so an id reused by a later template is not taken for it.
"""

from __future__ import annotations

from passlint.analysis.mlir.ir import Operation
from passlint.analysis.mlir.template import Template
from passlint.analysis.mlir.validate import type_counts as counted

Counts = dict[int, tuple[Template, tuple[int | None, int | None]]]
LIMIT = 20_000  # entries (past it, they start afresh)


def type_counts(op: Operation, counts: Counts) -> tuple[int | None, int | None]:
    """``validate.type_counts`` of ``op``, kept in ``counts`` (a memo's) by template."""
    template = op.template
    found = counts.get(id(template))
    if found is None or found[0] is not template:
        found = (template, counted(op))
        if len(counts) >= LIMIT:
            counts.clear()
        counts[id(template)] = found
    return found[1]
