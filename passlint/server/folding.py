"""Folding ranges of .mlir documents: regions (function bodies among them), `// -----`
chunks, and ``{-# ... #-}`` resources, whose kind ``imports`` lets editors fold the hex
blobs of a dump by default (VS Code: ``editor.foldingImportsByDefault``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

_KINDS = {"imports": types.FoldingRangeKind.Imports, "region": types.FoldingRangeKind.Region}


async def answer(session: Session, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    """The folds of a .mlir document."""
    view = await session.mlir_view(params.text_document.uri)
    return ranges(view) if view is not None else []


def ranges(view: MlirView) -> list[types.FoldingRange]:
    """One range per fold of the analysis, moved to the current text; a range ends on the
    line before its closing line (``}`` and ``#-}`` stay visible)."""
    source = view.source
    out = []
    seen: set[tuple[int, int]] = set()
    for start, end, kind in view.index.folds:
        moved = view.to_current((start, end))
        if moved is None:
            continue
        first = source.position(moved[0]).line
        last = source.position(moved[1]).line
        closing = source.line_text(last)[: source.position(moved[1]).column]
        if kind != "region" and not closing.strip(" \t})#-"):
            last -= 1  # the closing line (or the next block's label) stays visible
        if last <= first or (first, last) in seen:
            continue
        seen.add((first, last))
        out.append(
            types.FoldingRange(
                start_line=first, end_line=last, kind=_KINDS.get(kind) if kind else None
            )
        )
    out.sort(key=lambda r: (r.start_line, -r.end_line))
    return out
