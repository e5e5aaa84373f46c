"""Inlay hints: the output name after each op (or input) that produces an output of @main.

The analysis places them (``mlir_index``: ``→ name`` after the op the pass names, ``→ copy
'name'`` after what it copies); here they are picked for a range of the current text.
"""

from __future__ import annotations

from passlint.server.mlir_index import Hint
from passlint.server.views import MlirView


def mlir_hints(view: MlirView, start: int, end: int) -> list[tuple[int, Hint]]:
    """Hints whose (current) offset lies in ``[start, end]``, in text order, with that
    offset; hints on lines changed since the analysis are left out."""
    out = []
    for hint in view.index.hints:
        moved = view.to_current((hint.offset, hint.offset))
        if moved is not None and start <= moved[0] <= end:
            out.append((moved[0], hint))
    return out
