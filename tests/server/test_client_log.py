"""The server's log reaches the client as window/logMessage at each record's level (not as
stderr lines an editor tags as errors), and a refused request is answered without a
traceback anywhere."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from lsprotocol import types

from passlint.server import client_log
from passlint.server.client_log import ClientLog, message_type

from .wire import SERVE, Wire

MODULE = (
    "module @m {\n"
    "  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    %0 = stablehlo.abs %arg0 : tensor<4xf32>\n"
    "    return %0 : tensor<4xf32>\n"
    "  }\n"
    "}\n"
)


def log_messages(wire: Wire) -> list[dict[str, object]]:
    return [m["params"] for m in wire.seen if m.get("method") == "window/logMessage"]


def refused_rename(wire: Wire, tmp_path: Path) -> dict[str, object]:
    wire.initialize(tmp_path)
    uri = wire.open(tmp_path / "m.mlir", MODULE, "mlir")
    wire.notification("textDocument/publishDiagnostics")
    return wire.call(
        "textDocument/rename",
        {
            "textDocument": {"uri": uri},
            "position": {"line": 2, "character": 5},
            "newName": "not a name",
        },
    )


def test_a_refused_rename_is_an_error_answer_and_one_info_line(tmp_path: Path) -> None:
    wire = Wire([*SERVE, "--log-level", "info"])
    try:
        answer = refused_rename(wire, tmp_path)
        assert answer["error"]["code"] == -32803  # type: ignore[index]
        assert answer["error"]["message"] == "'%not a name' is not a valid name here"  # type: ignore[index]
        wire.notify("workspace/didChangeConfiguration", {"settings": {}})
        assert wire.close() == 0
    finally:
        wire.kill()
    refusals = [m for m in log_messages(wire) if "request refused" in str(m["message"])]
    assert refusals == [
        {
            "type": types.MessageType.Info.value,
            "message": "pygls.protocol.json_rpc: request refused: "
            "'%not a name' is not a valid name here",
        }
    ]
    assert b"Traceback" not in wire.stderr
    assert b"request refused" not in wire.stderr
    assert b"Sending data" not in wire.stderr  # (pygls' log of each message: debug)


def test_a_warning_arrives_as_a_warning_and_stays_off_stderr(tmp_path: Path) -> None:
    wire = Wire()
    try:
        wire.initialize(tmp_path)
        uri = (tmp_path / "never_opened.mlir").as_uri()
        change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "x"}]}
        wire.notify("textDocument/didChange", change)
        message = wire.notification("window/logMessage")
        assert message["params"]["type"] == types.MessageType.Warning.value
        assert "which is not open" in message["params"]["message"]
        assert wire.close() == 0
    finally:
        wire.kill()
    assert b"which is not open" not in wire.stderr
    # the default level (warning) sends no info or debug records
    levels = {m["type"] for m in log_messages(wire)}
    assert levels <= {types.MessageType.Error.value, types.MessageType.Warning.value}


def test_before_the_client_is_there_records_go_to_stderr(tmp_path: Path) -> None:
    wire = Wire()
    try:
        wire.notify("textDocument/didChange", {"textDocument": {"uri": "file:///x.mlir"}})
        assert wire.stderr_says(b"passlint")  # (not initialized: nothing is sent)
        wire.initialize(tmp_path)
        assert wire.close() == 0
    finally:
        wire.kill()
    assert log_messages(wire) == []


@pytest.mark.parametrize(
    ("level", "kind"),
    [
        (logging.CRITICAL, types.MessageType.Error),
        (logging.ERROR, types.MessageType.Error),
        (logging.WARNING, types.MessageType.Warning),
        (logging.INFO, types.MessageType.Info),
        (logging.DEBUG, types.MessageType.Log),
    ],
)
def test_levels_become_message_types(level: int, kind: types.MessageType) -> None:
    assert message_type(level) == kind


class _Loop:
    """An event loop stand-in that holds what is handed to it until ``run``."""

    def __init__(self) -> None:
        self.ready: list[tuple[object, ...]] = []

    def call_soon_threadsafe(self, callback: object, *args: object) -> None:
        self.ready.append((callback, *args))

    def is_closed(self) -> bool:
        return False

    def run(self) -> None:
        ready, self.ready = self.ready, []
        for callback, *args in ready:
            callback(*args)  # type: ignore[operator]


def test_a_flood_is_dropped_past_the_limit_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client_log, "MOST_PENDING", 10)
    sent: list[types.LogMessageParams] = []
    handler = ClientLog(sent.append, logging.INFO)
    loop = _Loop()
    handler.start(loop)  # type: ignore[arg-type]
    logger = logging.getLogger("passlint.test_flood")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        threads = [
            threading.Thread(target=lambda: [logger.warning("w") for _ in range(100)])
            for _ in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        loop.run()
    finally:
        logger.removeHandler(handler)
    assert len(sent) == 10 + 1  # the ten that waited, and (after the first) the count
    assert sent[1].message == "passlint: 390 log records were dropped (too many at once)"
    assert sent[1].type == types.MessageType.Warning


def test_a_record_made_while_sending_is_not_sent_again() -> None:
    sent: list[str] = []
    logger = logging.getLogger("passlint.test_sending")

    def send(params: types.LogMessageParams) -> None:
        sent.append(params.message)
        logger.warning("made while sending")

    handler = ClientLog(send, logging.INFO)
    loop = _Loop()
    handler.start(loop)  # type: ignore[arg-type]
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("first")
        loop.run()
        loop.run()
    finally:
        logger.removeHandler(handler)
    assert sent == ["passlint.test_sending: first"]
    assert loop.ready == []


def test_at_the_default_level_a_refusal_logs_nothing(tmp_path: Path) -> None:
    wire = Wire()
    try:
        answer = refused_rename(wire, tmp_path)
        assert answer["error"]["code"] == -32803  # type: ignore[index]
        assert wire.close() == 0
    finally:
        wire.kill()
    assert log_messages(wire) == []
    assert b"Traceback" not in wire.stderr
