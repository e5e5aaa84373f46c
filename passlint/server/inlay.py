"""Inlay hints: the output name after each op (or input) that produces an output of @main.

The analysis places them (``mlir_index``: ``→ name`` after the op the pass names, ``→ copy
'name'`` after what it copies); here they are picked for a range of the current text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.server.lsp_objects import char_offset, span_range
from passlint.server.mlir_index import Hint
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session


async def answer(session: Session, params: types.InlayHintParams) -> list[types.InlayHint]:
    """The hints in the request's range of a .mlir document."""
    view = await session.mlir_view(params.text_document.uri)
    if view is None:
        return []
    source = view.source
    start, end = char_offset(source, params.range.start), char_offset(source, params.range.end)
    return [
        types.InlayHint(
            position=span_range(source, (offset, offset)).start,
            label=hint.label,
            padding_left=True,
            tooltip=hint.tooltip,
        )
        for offset, hint in mlir_hints(view, start, end)
    ]


def mlir_hints(view: MlirView, start: int, end: int) -> list[tuple[int, Hint]]:
    """Hints whose (current) offset lies in ``[start, end]``, in text order, with that
    offset; hints on lines changed since the analysis are left out."""
    out = []
    for hint in view.index.hints:
        moved = view.to_current((hint.offset, hint.offset))
        if moved is not None and start <= moved[0] <= end:
            out.append((moved[0], hint))
    return out
