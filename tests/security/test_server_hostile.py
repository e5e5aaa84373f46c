"""`passlint serve` against a hostile or broken client, over a real pipe (``server.wire``):
absurd and malformed framing is logged and skipped and the next message answered; requests
whose params do not convert get InvalidParams, a handler's exception InternalError, each with
a one-line message and no traceback, and nothing ever pops up a window; after SIGKILL,
SIGTERM or a closed standard input no process of the server is left."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from server.conftest import HOOKED_SERVER
from server.wire import SERVE, Wire, encode, frame

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import layers_for, mlir_module

MLIR = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n"
)
ANSWER_WITHIN = 10.0


@pytest.fixture
def wire(tmp_path: Path) -> Any:
    session = Wire(cwd=tmp_path)
    yield session
    session.kill()


@pytest.fixture
def hooked(tmp_path: Path) -> Any:
    session = Wire(HOOKED_SERVER, cwd=tmp_path)
    yield session
    session.kill()


def opened_module(wire: Wire, root: Path) -> str:
    """An initialized session with one small .mlir document open and analysed; its URI."""
    wire.initialize(root)
    (root / "a.mlir").write_text(MLIR)
    uri = wire.open(root / "a.mlir", MLIR, "mlir")
    wire.notification("textDocument/publishDiagnostics", ANSWER_WITHIN)
    return uri


def hover(uri: str) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 10}}


def assert_still_answers(wire: Wire, uri: str) -> None:
    answer = wire.call("textDocument/hover", hover(uri), ANSWER_WITHIN)
    assert "error" not in answer, answer


def assert_one_line_error(answer: dict[str, Any], code: int) -> str:
    error = answer["error"]
    assert error["code"] == code, answer
    message = error["message"]
    assert isinstance(message, str) and message and "\n" not in message, message
    assert "Traceback" not in json.dumps(error) and 'File "' not in json.dumps(error)
    return message


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


# -- framing ------------------------------------------------------------------------------------


def test_an_absurd_content_length_is_skipped(wire: Wire, tmp_path: Path) -> None:
    """The issue's reproducer: this header made the server die with MemoryError."""
    uri = opened_module(wire, tmp_path)
    before = rss_kib(wire.process.pid)
    wire.send_raw(b"Content-Length: 1000000000000\r\n\r\n")
    assert_still_answers(wire, uri)
    assert rss_kib(wire.process.pid) < before + 50_000  # nothing of the declared size
    assert "Content-Length 1000000000000 is more than" in wire.log()
    assert wire.popups() == []
    assert wire.close() == 0


BAD_FRAMES = {
    "just above the limit": b"Content-Length: %d\r\n\r\n" % ((2 << 30) + 1),
    "negative length": b"Content-Length: -5\r\n\r\n",
    "not a number": b"Content-Length: 1e3\r\n\r\n{}",
    "no length": b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}",
    "garbage between messages": b"\x00\xff\x1b[2J garbage\r\nmore",
    "not JSON": frame(b"{not json"),
    "not UTF-8": frame(b'{"jsonrpc": "2.0", "method": "\xff\xfe"}'),
    "a JSON array": frame(b'[{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}]'),
    "a JSON number": frame(b"42"),
    "deeply nested": frame(b"[" * 100_000),
    "a huge integer": frame(b'{"jsonrpc": "2.0", "id": 1' + b"0" * 5000 + b"}"),
    "not JSON-RPC 2.0": encode({"jsonrpc": "1.0", "id": 98, "method": "shutdown"}),
    "an id that is an object": encode({"jsonrpc": "2.0", "id": {}, "method": "textDocument/hover"}),
    "an unknown response": encode({"jsonrpc": "2.0", "id": "nobody-asked", "result": 1}),
}


def test_malformed_framing_and_bodies_are_skipped(wire: Wire, tmp_path: Path) -> None:
    uri = opened_module(wire, tmp_path)
    for name, bad in BAD_FRAMES.items():
        wire.send_raw(bad)
        try:
            assert_still_answers(wire, uri)
        except AssertionError as error:
            raise AssertionError(f"after {name}: {error}") from None
    assert wire.process.poll() is None
    assert wire.popups() == []
    (refused,) = [m for m in wire.seen if m.get("id") in (98, 99)]  # (a batch: skipped)
    assert refused["id"] == 98
    assert assert_one_line_error(refused, -32600) == "shutdown: not a JSON-RPC 2.0 message"
    assert wire.close() == 0


# -- requests and notifications whose params do not convert ---------------------------------------


def bad_requests(uri: str) -> dict[str, Any]:
    return {
        "hover: document is a number": ("textDocument/hover", {"textDocument": 5}),
        "hover: no position": ("textDocument/hover", {"textDocument": {"uri": uri}}),
        "definition: line is a string": (
            "textDocument/definition",
            {"textDocument": {"uri": uri}, "position": {"line": "x", "character": 0}},
        ),
        "codeAction: params is a list": ("textDocument/codeAction", [1, 2]),
        "completion: no params": ("textDocument/completion", None),
        "executeCommand: no command": ("workspace/executeCommand", {"arguments": []}),
    }


def test_requests_with_bad_params_get_invalid_params(wire: Wire, tmp_path: Path) -> None:
    uri = opened_module(wire, tmp_path)
    for name, (method, params) in bad_requests(uri).items():
        answer = wire.call(method, params, ANSWER_WITHIN)
        message = assert_one_line_error(answer, -32602)
        assert message.startswith(f"{method}: invalid params: "), (name, message)
    assert_still_answers(wire, uri)
    assert wire.popups() == []
    assert wire.close() == 0


@pytest.mark.parametrize(
    ("command", "arguments"),
    [
        ("passlint.fixAll", [5]),
        ("passlint.fixAll", []),
        ("passlint.legalizedModule", [{"uri": 7}]),
        ("passlint.legalizedModule", ["file:///not/open.mlir"]),
    ],
)
def test_commands_with_bad_arguments_get_invalid_params(
    wire: Wire, tmp_path: Path, command: str, arguments: list[Any]
) -> None:
    uri = opened_module(wire, tmp_path)
    params = {"command": command, "arguments": arguments}
    message = assert_one_line_error(wire.call("workspace/executeCommand", params), -32602)
    assert "URI" in message or "is not an open .mlir document" in message
    assert_still_answers(wire, uri)
    assert wire.popups() == []


def test_notifications_with_bad_params_are_logged_not_shown(wire: Wire, tmp_path: Path) -> None:
    uri = opened_module(wire, tmp_path)
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": 5, "text": ["x"]}})
    wire.notify("textDocument/didOpen", "not an object")
    wire.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": "file:///nowhere/b.mlir", "version": 2},
            "contentChanges": [{"text": "x"}],
        },
    )
    wire.notify("$/cancelRequest", {"id": [1]})
    assert_still_answers(wire, uri)
    assert wire.popups() == []
    log = wire.log()
    assert "textDocument/didOpen: invalid params: " in log
    assert "didChange for file:///nowhere/b.mlir, which is not open" in log
    assert wire.close() == 0


def test_requests_after_shutdown_get_invalid_request(wire: Wire, tmp_path: Path) -> None:
    uri = opened_module(wire, tmp_path)
    assert "error" not in wire.call("shutdown")
    message = assert_one_line_error(wire.call("textDocument/hover", hover(uri)), -32600)
    assert message == "textDocument/hover: the server is shutting down"
    wire.notify("exit")
    assert wire.process.wait(ANSWER_WITHIN) == 0


# -- exceptions inside handlers ---------------------------------------------------------------------


def test_a_handler_exception_is_a_one_line_internal_error(hooked: Wire, tmp_path: Path) -> None:
    uri = opened_module(hooked, tmp_path)
    answer = hooked.call("workspace/executeCommand", {"command": "passlint.test.raise"})
    message = assert_one_line_error(answer, -32603)
    assert message == "RuntimeError: simulated bug in a handler"
    hooked.notify("passlint/testRaise", {})
    assert_still_answers(hooked, uri)
    assert hooked.popups() == []
    log = hooked.log()
    # each logged once, with its traceback
    assert log.count("RuntimeError: simulated bug in a handler") == 1
    assert log.count("RuntimeError: simulated bug in a notification handler") == 1
    assert log.count("Traceback (most recent call last)") == 2 and "in fail_quietly" in log
    assert hooked.close() == 0


# -- no process left behind -------------------------------------------------------------------------


def process_table() -> dict[int, tuple[int, str, str]]:
    """Every process: its parent, state and start time (to tell a reused pid)."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            table[int(name)] = (int(fields[1]), fields[0], fields[19])
    return table


def descendants(pid: int) -> dict[int, str]:
    """The living descendants of ``pid``, with their start times."""
    table = process_table()
    found, todo = {}, [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, state, started) in table.items():
            if ppid == parent and state != "Z":
                found[child] = started
                todo.append(child)
    return found


def alive(processes: dict[int, str]) -> list[int]:
    table = process_table()
    return [
        pid
        for pid, started in processes.items()
        if pid in table and table[pid][1] != "Z" and table[pid][2] == started
    ]


def served_with_analysis_process(tmp_path: Path) -> tuple[Wire, dict[int, str]]:
    """A server analysing a module large enough for its worker process; its descendants."""
    wire = Wire(SERVE, cwd=tmp_path)
    wire.initialize(tmp_path)
    text = mlir_module(layers_for(1_100_000))  # above the quick size: the worker process
    wire.open(tmp_path / "big.mlir", text, "mlir")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = descendants(wire.process.pid)
        # the resource tracker, the fork server and its child, the worker
        if len(found) >= 3:
            return wire, found
        time.sleep(0.1)
    wire.kill()
    raise AssertionError("the analysis process did not start")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "stdin closed"])
def test_no_process_outlives_the_server(tmp_path: Path, how: str) -> None:
    wire, processes = served_with_analysis_process(tmp_path)
    if how == "stdin closed":
        assert wire.process.stdin is not None
        wire.process.stdin.close()
    else:
        os.kill(wire.process.pid, getattr(signal, how))
    wire.process.wait(ANSWER_WITHIN)
    deadline = time.monotonic() + 3.0
    while alive(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = alive(processes)
    for pid in left:  # (ours to clean up: started by this test)
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"left behind after {how}: {left}"


# -- a workspace holding a FIFO and a device ----------------------------------------------------


CROSS_FILE = Path(__file__).resolve().parents[1] / "data" / "pl" / "cross_file"


def special_workspace(root: Path) -> Path:
    """Kernels and their caller beside a FIFO ``x.py`` and a link ``z.py`` to /dev/zero."""
    root.mkdir()
    for name in ("kernels.py", "program.py"):
        (root / name).write_text((CROSS_FILE / name).read_text())
    os.mkfifo(root / "x.py")
    os.symlink("/dev/zero", root / "z.py")
    return root


def test_a_fifo_in_the_workspace_does_not_stop_shutdown(tmp_path: Path) -> None:
    """An open pl document whose workspace holds a FIFO: the server answers shutdown and
    ends on exit at once, whatever its analysis thread is waiting for."""
    root = special_workspace(tmp_path / "ws")
    wire = Wire(SERVE, cwd=root)
    try:
        wire.initialize(root)
        wire.open(root / "kernels.py", (root / "kernels.py").read_text())
        time.sleep(1.0)  # (the analysis has started reading the workspace)
        started = time.monotonic()
        assert wire.close(timeout=5.0) == 0
        assert time.monotonic() - started < 5.0
    finally:
        wire.kill()


def test_a_fifo_in_the_workspace_leaves_the_diagnostics_in_time(tmp_path: Path) -> None:
    root = special_workspace(tmp_path / "ws")
    wire = Wire(SERVE, cwd=root)
    try:
        wire.initialize(root)
        uri = wire.open(root / "kernels.py", (root / "kernels.py").read_text())
        published = wire.notification("textDocument/publishDiagnostics", 10.0)
        assert published["params"]["uri"] == uri
        (finding,) = published["params"]["diagnostics"]
        assert finding["code"] == "VS001"
        # program.py read; what the FIFO and the device link hold cannot be known
        assert finding["data"]["fix"]["title"].endswith(
            "at 2 call sites; edit by hand: the calls in x.py, the calls in z.py"
        )
        assert wire.close(timeout=5.0) == 0
    finally:
        wire.kill()
