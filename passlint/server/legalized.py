"""The ``passlint.legalizedModule`` command: an open .mlir document as TensorizerLegalization
would rewrite it, with a warning for the ops whose placement it is unsure of."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from pygls.exceptions import JsonRpcInvalidParams

from passlint import pipeline
from passlint.analysis.mlir.memo import MlirMemo
from passlint.passes.tensorizer_legalization.apply import legalize, unsure_placement
from passlint.server.lsp_objects import JsonRpcRequestFailed
from passlint.server.quoting import shown

if TYPE_CHECKING:
    from passlint.server.session import Session


async def legalized_module(
    session: Session, executor: Executor, uri: str
) -> tuple[str, str | None]:
    """The legalized text of the document (computed in ``executor``), and the warning to
    show (None: none)."""
    document = session.documents.get(uri)
    if document is None or not document.path.endswith(".mlir"):
        raise JsonRpcInvalidParams(message=f"{shown(uri)} is not an open .mlir document")
    settings = session.settings.settings_for(document.path)
    if (size := pipeline.oversize(document.text, settings.size_limit(document.path))) is not None:
        raise JsonRpcRequestFailed(f"not legalized: {size} bytes is more than max-file-size")
    variant = settings.pipeline  # (the MHLO or StableHLO pass)
    loop = asyncio.get_running_loop()
    legalized = await loop.run_in_executor(executor, legalize, document.text, variant, MlirMemo())
    if not legalized.unsure:
        return legalized.text, None
    offset, name = legalized.unsure[0]
    line = document.text.count("\n", 0, offset) + 1
    more = len(legalized.unsure) - 1
    also = f" (and {more} more op{'s' * (more != 1)})" if more else ""
    return legalized.text, f"Legalized module, line {line}{also}: {unsure_placement(name)}."
