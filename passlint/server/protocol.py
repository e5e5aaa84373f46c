"""The JSON-RPC side of the server: what pygls' protocol does, made safe for any client.

Messages come in as bodies cut from the stream by ``framing``; each is parsed here. A body
that is not a JSON-RPC message is logged and skipped; a request whose params do not convert
is answered with InvalidParams (-32602), a notification with bad params is logged. No error
goes to a window: pygls would show "Error in server" for each. Every error answer carries a
one-line message and no traceback (that goes to the log, once).

Positions are UTF-16 whatever the client offers: every column the server sends is converted
with ``SourceText.to_utf16``. Diagnostics are JSON already: pulled, they are ``JsonData``,
which the converter hands to ``json.dumps`` as it is; published, they are JSON text, sent as
it is (``notify_json``): a large document's are over half a megabyte, mostly the same from
one version to the next, and ``json.dumps`` would take as long as the analysis.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
from typing import TYPE_CHECKING, Any

from cattrs import ClassValidationError, Converter, transform_error
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)

from passlint.server.convert import JsonData, json_value

if TYPE_CHECKING:
    from pygls.io_ import AsyncWriter, Writer

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 300  # characters of an error message sent to the client
_CAMEL = re.compile(r"_([a-z])")


class BadMessage(Exception):
    """A message that is not a JSON-RPC message the server can handle, and why (and the
    JSON-RPC error code a request gets for it)."""

    def __init__(self, reason: str, code: int = JsonRpcInvalidRequest.CODE) -> None:
        super().__init__(reason)
        self.code = code


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """The first line of ``text``, at most ``limit`` characters."""
    first = text.strip().split("\n", 1)[0].strip()
    return first if len(first) <= limit else first[: limit - 1] + "…"


def conversion_problem(error: Exception) -> str:
    """Why params did not convert, in one line, fields named as the client wrote them."""
    if isinstance(error, ClassValidationError):
        found = [_CAMEL.sub(lambda m: m.group(1).upper(), line) for line in transform_error(error)]
        return "; ".join(found[:3]) + ("; …" if len(found) > 3 else "")
    return f"{type(error).__name__}: {error}"


def message_id(data: dict[str, Any]) -> int | str | None:
    """The id of a message, if it has one that can be answered."""
    found = data.get("id")
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


class PasslintProtocol(LanguageServerProtocol):
    """pygls' protocol, receiving through ``receive`` (see the module's docstring)."""

    def __init__(self, server: LanguageServer, converter: Converter) -> None:
        super().__init__(server, converter)
        converter.register_unstructure_hook(JsonData, json_value)
        self.framed = True  # messages have a Content-Length header (not on websockets)
        self._writing: set[asyncio.Future[None]] = set()  # writes to an asynchronous writer

    def set_writer(self, writer: AsyncWriter | Writer, include_headers: bool = True) -> None:
        super().set_writer(writer, include_headers)
        self.framed = include_headers

    def notify_json(self, method: str, params: str) -> None:
        """Send a notification whose ``params`` are JSON text (ASCII), framed as LSP's base
        protocol says (by Content-Length) on the transport pygls writes to."""
        if self.writer is None:
            log.error("cannot send %s: no transport", method)
            return
        body = f'{{"jsonrpc":"2.0","method":{json.dumps(method)},"params":{params}}}'.encode()
        header = b"Content-Length: %d\r\n\r\n" % len(body) if self.framed else b""
        sent = self.writer.write(header + body)
        if inspect.isawaitable(sent):
            future = asyncio.ensure_future(sent)
            self._writing.add(future)
            future.add_done_callback(self._writing.discard)

    # -- receiving ----------------------------------------------------------------------------

    def receive(self, parcel: list[bytes | bytearray]) -> None:
        """Handle one message body from the client, whatever it holds, taken out of
        ``parcel``: its bytes are let go of once decoded, before the JSON is parsed (a
        document's text is then held once, not three times)."""
        body = parcel.pop()
        try:
            # (as json.loads decodes bytes, which would keep them while it parses)
            source = body.decode(json.detect_encoding(body), "surrogatepass")
            del body
            data = json.loads(source)
            del source
        except (ValueError, RecursionError) as error:  # (UnicodeDecodeError is a ValueError)
            log.warning(
                "from the client: a message that is not JSON (%s); skipped", one_line(str(error))
            )
            return
        if not isinstance(data, dict):
            log.warning("from the client: a message that is not a JSON object; skipped")
            return
        try:
            message = self._message(data)
        except BadMessage as bad:
            self._refuse(data, bad)
            return
        try:
            self.handle_message(message)
        except Exception:
            log.exception("could not handle %s", _method_of(data))

    def _message(self, data: dict[str, Any]) -> Any:
        """The message ``data`` as pygls' types, converted as pygls' ``structure_message``
        does (without its logging of the traceback); ``BadMessage`` when it does not convert."""
        if data.get("jsonrpc") != self.VERSION:
            raise BadMessage(f"not a JSON-RPC {self.VERSION} message")
        method = data.get("method")
        if "method" in data and not isinstance(method, str):
            raise BadMessage("the method is not a string")
        if self._shutdown and method is not None and method != types.EXIT:
            raise BadMessage("the server is shutting down")
        try:
            return self._converter.structure(data, self._message_type(data))
        except Exception as error:
            problem = f"invalid params: {conversion_problem(error)}"
            raise BadMessage(problem, JsonRpcInvalidParams.CODE) from None

    def _message_type(self, data: dict[str, Any]) -> Any:
        """The type pygls reads a message as (as its ``structure_message`` chooses)."""
        method = data.get("method")
        if "id" in data and "error" in data:
            return types.ResponseErrorMessage
        if "id" in data and method is not None:
            return self.get_message_type(method) or JsonRPCRequestMessage
        if "id" in data:
            return self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
        return self.get_message_type(method or "") or JsonRPCNotification

    def _refuse(self, data: dict[str, Any], bad: BadMessage) -> None:
        """Answer a request that cannot be handled with an error; fail the server's own
        request whose answer does not convert (its handler would wait for good); log
        anything else."""
        request_id = message_id(data)
        answered = request_id is not None and "method" in data
        what = f"{_method_of(data)}: {bad}"
        waiting = None
        if request_id is not None and "method" not in data:
            waiting = self._request_futures.pop(request_id, None)
        outcome = "answered" if answered else "failed" if waiting is not None else "skipped"
        log.warning("from the client: %s; %s", what, outcome)
        if answered:
            error = types.ResponseError(code=bad.code, message=what)
            self._send_response(request_id, None, error)
        elif waiting is not None and not waiting.done():
            waiting.set_exception(JsonRpcInternalError(message=f"the client's answer: {bad}"))

    def _send_response(
        self, msg_id: Any, result: Any | None = None, error: Any | None = None
    ) -> None:
        # Every error answer: a one-line message, no traceback (pygls puts a handler's into
        # ``data``; the log has it).
        if error is not None:
            data = error.data
            if isinstance(data, dict) and "traceback" in data:
                data = None
            error = types.ResponseError(code=error.code, message=one_line(error.message), data=data)
        super()._send_response(msg_id, result, error)

    def _handle_response(
        self, msg_id: Any, result: Any | None = None, error: Any | None = None
    ) -> None:
        # A request the server stopped waiting for (an analysis cancelled by an edit while
        # the client had not yet answered its window/workDoneProgress/create): the answer
        # is dropped. pygls would set it on the cancelled future and show the user an error.
        future = self._request_futures.get(msg_id)
        if future is not None and future.done():
            self._request_futures.pop(msg_id, None)
            log.debug("dropping the answer to request %s: no longer awaited", msg_id)
            return
        super()._handle_response(msg_id, result, error)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Any:
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        return (yield from super().lsp_initialize(params))

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        # The ``did_change`` handler applies the changes itself (``text_sync``): pygls
        # re-splits the whole text at every change.
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None


def _method_of(data: dict[str, Any]) -> str:
    """What to call a message in the log: its method, if it has one."""
    method = data.get("method")
    return one_line(method, 80) if isinstance(method, str) else "a message"
