"""`passlint serve` in a subprocess, spoken to byte for byte: for tests that send what no
well-behaved client library would (broken headers, bodies that are not JSON, params of the
wrong shape) and watch what comes back, or what is left of the process afterwards."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pygls.uris import from_fs_path

SERVE = [sys.executable, "-m", "passlint", "serve", "--debounce", "0.05"]
TIMEOUT = 20.0


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def encode(message: dict[str, Any]) -> bytes:
    return frame(json.dumps(message).encode())


class Wire:
    """A server process and the messages it sent, read by a thread as they come."""

    def __init__(self, args: list[str] | None = None, cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(
            args or SERVE,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,  # its own group: a test may kill it without killing us
        )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.stderr = bytearray()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = None
            while True:
                line = stdout.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None, "a message without Content-Length"
            self.messages.put(json.loads(stdout.read(length)))

    def _read_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        while chunk := stderr.read1(65536):
            self.stderr += chunk

    # -- sending ----------------------------------------------------------------------------

    def stderr_says(self, needle: bytes, timeout: float = TIMEOUT) -> bool:
        """Whether stderr holds ``needle``, waiting for the reader thread up to ``timeout``."""
        deadline = time.monotonic() + timeout
        while needle not in self.stderr and time.monotonic() < deadline:
            time.sleep(0.05)
        return needle in self.stderr

    def send_raw(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(encode(message))

    def request(self, method: str, params: Any = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self._next_id

    def notify(self, method: str, params: Any = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -- receiving --------------------------------------------------------------------------

    def next_message(self, deadline: float) -> dict[str, Any] | None:
        """The next message, answering the server's own requests as a plain client would."""
        try:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError("timed out waiting for the server") from None
        if message is None:
            self.messages.put(None)  # (the end, for the next caller too)
            return None
        self.seen.append(message)
        if "method" in message and "id" in message:
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        return message

    def _first(self, wanted: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
        """The next message ``wanted`` picks (those before it are seen and skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(deadline)
            if message is None:
                raise AssertionError(f"the server ended: {self.stderr.decode(errors='replace')}")
            if wanted(message):
                return message

    def response(self, request_id: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self._first(lambda m: m.get("id") == request_id and "method" not in m, timeout)

    def call(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.response(self.request(method, params), timeout)

    def notification(self, method: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self._first(lambda m: m.get("method") == method and "id" not in m, timeout)

    def log(self) -> str:
        """What the server logged: the window/logMessage notifications seen so far (one a
        line, as ``passlint serve`` sends its records once the client is there) and stderr."""
        sent = [m["params"]["message"] for m in self.seen if m.get("method") == "window/logMessage"]
        return "".join(f"{line}\n" for line in sent) + self.stderr.decode(errors="replace")

    def popups(self) -> list[dict[str, Any]]:
        """The window/showMessage notifications seen so far."""
        return [m for m in self.seen if m.get("method") == "window/showMessage"]

    # -- the session ------------------------------------------------------------------------

    def initialize(self, root: Path | None, capabilities: dict[str, Any] | None = None) -> None:
        params: dict[str, Any] = {
            "processId": os.getpid(),
            "capabilities": capabilities or {},
            "rootUri": from_fs_path(str(root)) if root is not None else None,
        }
        if root is not None:
            params["workspaceFolders"] = [{"uri": from_fs_path(str(root)), "name": "ws"}]
        answer = self.call("initialize", params)
        assert "result" in answer, answer
        self.notify("initialized", {})

    def open(self, path: Path, text: str, language: str = "python") -> str:
        uri = from_fs_path(str(path)) or ""
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}},
        )
        return uri

    def close(self, timeout: float = TIMEOUT) -> int:
        """shutdown, exit; the exit status."""
        answer = self.call("shutdown", None, timeout)
        assert "error" not in answer, answer
        self.notify("exit")
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(TIMEOUT)
