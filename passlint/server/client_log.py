"""The server's log records, sent to the client as ``window/logMessage`` at their level.

Before the client's ``initialize`` request (and after ``shutdown``) records go to stderr as
before; in between, ``ClientLog`` sends each record the chosen ``--log-level`` lets through
as a notification whose type is the record's level (error, warning, info; debug as log), and
stderr stays quiet, so an editor shows them at their level instead of as its own "error"
lines. A record made while one is being sent (by the sending itself) goes to stderr, never
back into the loop; records from other threads are handed to the event loop; at most
``MOST_PENDING`` wait there, and the ones a flood adds beyond that are counted and reported
in one line once the queue has room.

Requests the server refuses on purpose (``JsonRpcRequestFailed``: a rename it cannot make,
a module too large to legalize) are answered with their message; pygls logs any exception a
handler raises with its traceback, which ``quiet_pygls`` turns into one info line (and the
body of every message sent, which pygls logs at info, into a debug record).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from lsprotocol import types

from passlint.server.lsp_objects import JsonRpcRequestFailed

MOST_PENDING = 1000  # records waiting for the event loop before more are dropped

_TYPES = (
    (logging.ERROR, types.MessageType.Error),
    (logging.WARNING, types.MessageType.Warning),
    (logging.INFO, types.MessageType.Info),
)


def message_type(level: int) -> types.MessageType:
    """LSP's message type for a record's level."""
    for least, kind in _TYPES:
        if level >= least:
            return kind
    return types.MessageType.Log


class ClientLog(logging.Handler):
    """Sends records through ``send`` (on the event loop) while ``active``."""

    def __init__(self, send: Callable[[types.LogMessageParams], None], level: int) -> None:
        super().__init__(level)
        self.send = send
        self.loop: asyncio.AbstractEventLoop | None = None
        self._sending = threading.local()
        self._pending = 0
        self._dropped = 0
        self._count = threading.Lock()
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    @property
    def active(self) -> bool:
        return self.loop is not None and not self.loop.is_closed()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def stop(self) -> None:
        self.loop = None

    def keeps_off_stderr(self, record: logging.LogRecord) -> bool:
        """A filter for the stderr handler: what this handler sends stays off stderr."""
        return not (self.active and not getattr(self._sending, "on", False))

    def emit(self, record: logging.LogRecord) -> None:
        loop = self.loop
        if loop is None or getattr(self._sending, "on", False):
            return
        params = types.LogMessageParams(
            type=message_type(record.levelno), message=self.format(record)
        )
        with self._count:
            if self._pending >= MOST_PENDING:
                self._dropped += 1
                return
            self._pending += 1
        try:
            loop.call_soon_threadsafe(self._send, params)
        except RuntimeError:  # the loop has closed
            self.stop()

    def _send(self, params: types.LogMessageParams) -> None:
        with self._count:
            self._pending -= 1
            dropped, self._dropped = self._dropped, 0
        self._sending.on = True
        try:
            self.send(params)
            if dropped:
                kind = types.MessageType.Warning
                note = f"passlint: {dropped} log records were dropped (too many at once)"
                self.send(types.LogMessageParams(type=kind, message=note))
        except Exception:  # (the connection is gone: stderr has the record's fate)
            logging.getLogger(__name__).debug("could not send a log record", exc_info=True)
        finally:
            self._sending.on = False


class _PyglsRecords(logging.Filter):
    """pygls' records as passlint logs them (``quiet_pygls``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, JsonRpcRequestFailed):
            record.msg, record.args = "request refused: %s", (error.message,)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        elif record.msg == "Sending data: %s":
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def quiet_pygls() -> None:
    """Log the requests passlint refuses on purpose as one info line without a traceback,
    and each message sent (pygls logs its whole body at info) at debug."""
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_PyglsRecords())
