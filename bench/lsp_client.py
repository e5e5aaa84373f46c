"""A minimal LSP client over a subprocess's stdio, for timing the server in benchmarks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Message = dict[str, Any]


class LspClient:
    """Starts ``python -m passlint serve`` (or ``command``, another language server); sends
    requests/notifications; records messages."""

    def __init__(
        self,
        args: list[str] | None = None,
        capabilities: Message | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "passlint", "serve", *(args or [])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._next_id = 0
        self.opened = 0.0  # when the benchmark opened the document it times
        self._messages: list[tuple[float, Message]] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": None,
                "capabilities": capabilities
                or {
                    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
                    "workspace": {"configuration": False},
                },
            },
        )
        self.notify("initialized", {})

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    return
                header += byte
            length = next(
                int(line.split(b":")[1])
                for line in header.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
            data = stream.read(length)
            arrived = time.perf_counter()  # the message is in; parsing it is the client's work
            body = json.loads(data)
            with self._cond:
                self._messages.append((arrived, body))
                self._cond.notify_all()
            if body.get("method") == "workspace/configuration" and "id" in body:
                self._send({"jsonrpc": "2.0", "id": body["id"], "result": [{}]})
            elif "id" in body and "method" in body:
                self._send({"jsonrpc": "2.0", "id": body["id"], "result": None})

    def _send(self, message: Message) -> None:
        data = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        stdin.flush()

    def notify(self, method: str, params: Message) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Message, timeout: float = 120) -> Any:
        self._next_id += 1
        ident = self._next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == ident and "method" not in m, timeout)
        return reply.get("result")

    def wait(
        self, predicate: Callable[[Message], bool], timeout: float = 120, since: float = 0.0
    ) -> Message:
        """The first message received after ``since`` that satisfies ``predicate``."""
        deadline = time.perf_counter() + timeout
        with self._cond:
            while True:
                for stamp, message in self._messages:
                    if stamp >= since and predicate(message):
                        return message
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise TimeoutError("no matching message from the server")
                self._cond.wait(remaining)

    def messages(self) -> list[tuple[float, Message]]:
        """Every message received so far, with when it arrived."""
        with self._cond:
            return list(self._messages)

    def wait_stamp(
        self, predicate: Callable[[Message], bool], since: float, timeout: float = 120
    ) -> float:
        """When the first message after ``since`` satisfying ``predicate`` arrived."""
        message = self.wait(predicate, timeout, since)
        with self._cond:
            return next(stamp for stamp, m in self._messages if m is message)

    def watch_rss(self, interval: float = 0.05) -> None:
        """Sample the resident memory of the server and the processes it starts (its
        analysis workers, which it may stop and start again) until ``close``: Linux
        ``/proc`` only. ``peak_rss`` then gives the peaks."""
        self._peaks: dict[str, float] = {}

        def sample() -> None:
            while self.process.poll() is None:
                for role, pid in zip(("server",), (self.process.pid,), strict=True):
                    self._sample(role, pid)
                tree = _process_tree(self.process.pid)
                for pid in tree[1:]:
                    self._sample("worker", pid)
                total = sum(_rss(pid) for pid in tree)  # what they hold at once
                self._peaks["together"] = max(self._peaks.get("together", 0.0), total)
                time.sleep(interval)

        threading.Thread(target=sample, daemon=True).start()

    def _sample(self, role: str, pid: int) -> None:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return
        for line in status.splitlines():
            if line.startswith("VmHWM:"):  # the process's own peak so far
                peak = int(line.split()[1]) / 1024
                self._peaks[role] = max(self._peaks.get(role, 0.0), peak)

    def peak_rss(self) -> dict[str, float]:
        """Peak RSS (MB) of the server process and of its largest worker while watched, and
        (``together``) the most the server and its processes held at once."""
        return dict(getattr(self, "_peaks", {}))

    def reset_peaks(self) -> None:
        """Start the peaks afresh (``together`` only: a process's own peak is the kernel's)."""
        self._peaks.pop("together", None)

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=10)
            self.notify("exit", {})
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


def _rss(pid: int) -> float:
    """A process's resident memory now (MB; 0 when it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants, parents first (Linux ``/proc``)."""
    tree, at = [pid], 0
    while at < len(tree):
        try:
            tasks = Path(f"/proc/{tree[at]}/task").iterdir()
            for task in tasks:
                tree.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            pass
        at += 1
    return tree


def uri(path: Path) -> str:
    return path.resolve().as_uri()
