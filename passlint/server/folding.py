"""Folding ranges of .mlir documents: regions (function bodies among them) and the labelled
blocks of a region of several, `// -----` chunks, and ``{-# ... #-}`` resources, whose kind
``imports`` lets editors fold the hex blobs of a dump by default (VS Code:
``editor.foldingImportsByDefault``).

The analysis finds them (``region_folds`` as ``mlir_index`` walks the ops, ``text_folds``
over the text); ``answer`` moves them to the current text. (The analysis process finds folds
and does not load lsprotocol: ``ranges`` imports it when it is called.)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from passlint.server.mlir_reader import RegionRecord

if TYPE_CHECKING:
    from lsprotocol import types

    from passlint.server.session import Session
    from passlint.server.views import MlirView

Fold = tuple[int, int, str | None]  # start, end, kind ("imports", "region" or None)

_RESOURCE = re.compile(r"^\{-#", re.MULTILINE)


# -- finding, with the analysis ---------------------------------------------------------------


def region_folds(region: RegionRecord) -> list[Fold]:
    """A region, and its labelled blocks when it has more than one."""
    folds: list[Fold] = [(*region.span, None)]
    if len(region.blocks) > 1:
        folds.extend((*b.span, None) for b in region.blocks if b.label is not None)
    return folds


def text_folds(chunks: list[tuple[int, int]], text: str) -> list[Fold]:
    """Folding spans besides regions and blocks: `// -----` chunks, and ``{-# ... #-}``
    resources (kind ``imports``, which editors can fold by default)."""
    folds: list[Fold] = []
    if len(chunks) > 1:  # each chunk up to its last line of text
        folds.extend((start, len(text[:end].rstrip()), "region") for start, end in chunks)
    for match in _RESOURCE.finditer(text):
        close = text.find("#-}", match.end())
        folds.append((match.start(), close + 3 if close >= 0 else len(text), "imports"))
    return folds


# -- answering, from the current text ---------------------------------------------------------


async def answer(session: Session, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    """The folds of a .mlir document."""
    view = await session.mlir_view(params.text_document.uri)
    return ranges(view) if view is not None else []


def ranges(view: MlirView) -> list[types.FoldingRange]:
    """One range per fold of the analysis, moved to the current text; a range ends on the
    line before its closing line (``}`` and ``#-}`` stay visible)."""
    from lsprotocol import types

    kinds = {"imports": types.FoldingRangeKind.Imports, "region": types.FoldingRangeKind.Region}
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
                start_line=first, end_line=last, kind=kinds.get(kind) if kind else None
            )
        )
    out.sort(key=lambda r: (r.start_line, -r.end_line))
    return out
