"""Server-initiated work-done progress for the analyses the user waits on (the scheduler's
``SlowWork``): a token the client may cancel, begun and ended around the analysis, and the
part of a large module the analysis process has read meanwhile (a percentage)."""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from passlint import pipeline
from passlint.server.scheduler import Document

log = logging.getLogger(__name__)


class ProgressWork:
    """Work-done progress reported to the client of ``server``; ``reading``: the bytes read
    of how many by the analysis of a document, when one is told (``AnalysisPool.read``)."""

    def __init__(
        self,
        server: LanguageServer,
        reading: Callable[[Document], tuple[int, int] | None] | None = None,
    ) -> None:
        self.server = server
        self.reading = reading
        self._shown: dict[Any, int] = {}  # by token: the percentage reported last

    async def start(self, document: Document) -> Any:
        window = self.server.client_capabilities.window
        if window is None or not window.work_done_progress:
            return None
        token = f"passlint-{uuid.uuid4().hex}"
        progress = self.server.work_done_progress
        try:
            await progress.create_async(token)
        except Exception:
            log.debug("the client refused a progress token", exc_info=True)
            return None
        name = os.path.basename(document.path)
        # (a document the streaming reader reads shows how much of it is read)
        streamed = document.size >= pipeline.STREAM_MIN
        progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title="passlint",
                message=f"Analysing {name}",
                cancellable=True,
                percentage=0 if streamed else None,
            ),
        )
        return token

    def report(self, handle: Any, document: Document) -> None:
        """The part of the document read, when it is known and has moved."""
        read = None if self.reading is None else self.reading(document)
        if read is None or read[1] <= 0:
            return
        done, total = read
        percentage = min(100, 100 * done // total)
        if self._shown.get(handle) == percentage:
            return
        self._shown[handle] = percentage
        message = f"Analysing {os.path.basename(document.path)}: {done >> 20} of {total >> 20} MB"
        self.server.work_done_progress.report(
            handle, types.WorkDoneProgressReport(message=message, percentage=percentage)
        )

    def cancelled(self, handle: Any) -> bool:
        future = self.server.work_done_progress.tokens.get(handle)
        return future is not None and future.cancelled()

    def end(self, handle: Any) -> None:
        self._shown.pop(handle, None)
        self.server.work_done_progress.end(handle, types.WorkDoneProgressEnd())
        self.server.work_done_progress.tokens.pop(handle, None)
