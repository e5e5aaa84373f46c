"""`passlint serve --tcp PORT` binds the loopback interface only, and says so."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> list[str]:
    """Local addresses (hex, as /proc/net/tcp* spell them) listening on ``port``."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            address, state = fields[1], fields[3]
            if state == "0A" and int(address.rsplit(":", 1)[1], 16) == port:
                found.append(address.rsplit(":", 1)[0])
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc/net/tcp (Linux)")
def test_tcp_listens_on_127_0_0_1_only() -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "passlint", "serve", "--tcp", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline().decode()
        assert line.strip() == f"passlint: language server listening on 127.0.0.1:{port} (TCP)"
        deadline = time.monotonic() + 20
        while not listening(port) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert listening(port) == ["0100007F"]  # 127.0.0.1, and nothing else (no 0.0.0.0, no ::)
        # every non-loopback address of this machine refuses the connection
        for address in {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None)}:
            if address.startswith("127.") or address == "::1" or ":" in address:
                continue
            with pytest.raises(OSError), socket.create_connection((address, port), timeout=1):
                pass
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_help_says_the_default_host() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "passlint", "serve", "--help"], capture_output=True, text=True
    )
    assert "host 127.0.0.1 unless given" in " ".join(result.stdout.split())
