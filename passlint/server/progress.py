"""Server-initiated work-done progress for the analyses the user waits on (the scheduler's
``SlowWork``): a token the client may cancel, begun and ended around the analysis."""

from __future__ import annotations

import logging
import os
import uuid
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from passlint.server.scheduler import Document

log = logging.getLogger(__name__)


class ProgressWork:
    """Work-done progress reported to the client of ``server``."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server

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
        progress.begin(
            token,
            types.WorkDoneProgressBegin(
                title="passlint", message=f"Analysing {name}", cancellable=True
            ),
        )
        return token

    def cancelled(self, handle: Any) -> bool:
        future = self.server.work_done_progress.tokens.get(handle)
        return future is not None and future.cancelled()

    def end(self, handle: Any) -> None:
        self.server.work_done_progress.end(handle, types.WorkDoneProgressEnd())
        self.server.work_done_progress.tokens.pop(handle, None)
