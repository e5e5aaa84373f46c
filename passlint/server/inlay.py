"""Inlay hints: the output name after each op (or input) that produces an output of @main.

The analysis places them (``hints``, called as ``mlir_index`` builds the index: ``→ name``
after the op the pass names, ``→ copy 'name'`` after what it copies); ``answer`` picks them
for a range of the current text. (The analysis process builds hints and does not load
lsprotocol: ``answer`` imports what it converts with when it is called.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.pl.excerpt import EXCERPT
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, Output
from passlint.server.quoting import shown

if TYPE_CHECKING:
    from lsprotocol import types

    from passlint.server.session import Session
    from passlint.server.views import MlirView


@dataclass(frozen=True)
class Hint:
    offset: int
    label: str
    tooltip: str


# -- building, with the analysis --------------------------------------------------------------


def hints(analysis: ChunkAnalysis) -> list[Hint]:
    """The hints of a chunk, in text order (a value returned twice shows it at its later
    slot in the return)."""
    grouped: dict[int, list[tuple[str, Output]]] = {}
    for output in analysis.outputs:
        placed = output.case.inlay_place(output)
        if placed is not None:
            grouped.setdefault(placed[0], []).append((placed[1], output))
    found = []
    for offset in sorted(grouped):
        entries = grouped[offset]
        label = "→ " + ", ".join(shown(text, 2 * EXCERPT) for text, _ in entries)
        tooltip = "\n".join(
            f"output {output.slot} '{shown(output.name)}' ({output.case.name})"
            for _, output in entries
        )
        found.append(Hint(offset, label, tooltip))
    return found


# -- answering, from the current text ---------------------------------------------------------


async def answer(session: Session, params: types.InlayHintParams) -> list[types.InlayHint]:
    """The hints in the request's range of a .mlir document."""
    from lsprotocol import types

    from passlint.server.lsp_objects import char_offset, span_range

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
