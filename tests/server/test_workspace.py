"""Configuration changes, dependency changes (open and on disk), lifecycle and TCP."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys

import pytest
from lsprotocol import types

from .conftest import SERVER, Session

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def configure(session: Session, section: dict[str, object]) -> None:
    session.client.set_configuration(section, section="passlint")
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"passlint": section})
    )


async def next_result(session: Session, uri: str, seen: int) -> list[types.Diagnostic]:
    """Diagnostics after a re-analysis with unchanged text (push: a new publish)."""
    if session.mode == "pull":
        await asyncio.sleep(0.4)
        return await session.diagnostics(uri)
    await session.wait_for(lambda: len([p for p in session.published if p.uri == uri]) > seen)
    return list([p for p in session.published if p.uri == uri][-1].diagnostics)


async def fix_title_after(session: Session, uri: str, seen: int, words: str) -> str:
    """The fix title of the one diagnostic of ``uri`` after ``seen`` publishes, once one
    says ``words`` (a few re-analyses at most): opening a caller re-analyses its kernels
    too, and under load that publish came after the test's edit."""
    for _ in range(5):
        (after,) = await next_result(session, uri, seen)
        assert after.data
        title = str(after.data["fix"]["title"])
        if words in title or session.mode == "pull":
            break
        seen = published(session, uri)
    return title


def published(session: Session, uri: str) -> int:
    return len([p for p in session.published if p.uri == uri])


async def test_configuration_change_reanalyses(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    assert {d.code for d in await session.diagnostics(uri)} == {"TL001", "TL002", "TL006"}
    seen = published(session, uri)
    configure(session, {"ignore": ["TL001"], "severity": {"TL002": "error"}})
    after = await next_result(session, uri, seen)
    assert {d.code for d in after} == {"TL002", "TL006"}
    tl002 = next(d for d in after if d.code == "TL002")
    assert tl002.severity == types.DiagnosticSeverity.Error
    assert session.client.messages == []


async def test_bad_configuration_is_shown_once(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    await session.diagnostics(uri)
    seen = published(session, uri)
    configure(session, {"select": ["XX9"]})
    after = await next_result(session, uri, seen)
    assert [d.code for d in after] == ["TL001"]  # the project's settings stay in force
    await session.wait_for(lambda: session.client.messages)
    (message,) = session.client.messages
    assert message.type == types.MessageType.Error
    assert "XX9" in message.message


async def test_open_dependency_change_updates_kernel_findings(session: Session) -> None:
    kernels = session.open("pl/cross_file/kernels.py")
    (before,) = await session.diagnostics(kernels)
    assert before.data and "2 call sites" in before.data["fix"]["title"]
    program = session.open("pl/cross_file/program.py")
    await session.diagnostics(program)
    seen = published(session, kernels)
    text = session.texts[program].replace("        out = scale_rows(head, out)\n", "")
    session.change(program, text)
    assert "1 call site" in await fix_title_after(session, kernels, seen, "1 call site")


async def test_disk_dependency_change_updates_kernel_findings(session: Session) -> None:
    kernels = session.open("pl/cross_file/kernels.py")
    await session.diagnostics(kernels)
    seen = published(session, kernels)
    program = session.root / "pl/cross_file/program.py"
    program.write_text(program.read_text().replace("        out = scale_rows(head, out)\n", ""))
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=session.uri("pl/cross_file/program.py"), type=types.FileChangeType.Changed
                )
            ]
        )
    )
    (after,) = await next_result(session, kernels, seen)
    assert after.data and "1 call site" in after.data["fix"]["title"]


def report(session: Session, relative: str, kind: types.FileChangeType) -> None:
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=session.uri(relative), type=kind)]
        )
    )


async def test_added_and_deleted_files_update_the_workspace_index(session: Session) -> None:
    """A file created on disk that calls the kernel adds a call site to its fix; deleting
    it takes the call site away again (the session's workspace index follows the events)."""
    kernels = session.open("pl/cross_file/kernels.py")
    (before,) = await session.diagnostics(kernels)
    assert before.data and "2 call sites" in before.data["fix"]["title"]
    program = session.root / "pl/cross_file/program.py"
    added = session.root / "pl/cross_file/more.py"
    added.write_text(program.read_text())
    seen = published(session, kernels)
    report(session, "pl/cross_file/more.py", types.FileChangeType.Created)
    (after,) = await next_result(session, kernels, seen)
    assert after.data and "4 call sites" in after.data["fix"]["title"]
    added.unlink()
    seen = published(session, kernels)
    report(session, "pl/cross_file/more.py", types.FileChangeType.Deleted)
    (last,) = await next_result(session, kernels, seen)
    assert last.data and "2 call sites" in last.data["fix"]["title"]


async def test_watchers_registered_when_supported(session: Session) -> None:
    await session.settle(0.3)
    registrations = session.client.registrations  # type: ignore[attr-defined]
    if session.name == "vscode":
        (registration,) = registrations
        assert registration.method == "workspace/didChangeWatchedFiles"
    else:
        assert registrations == []


async def test_pyproject_change_reanalyses(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    await session.diagnostics(uri)
    seen = published(session, uri)
    (session.root / "pyproject.toml").write_text('[tool.passlint]\nignore = ["TL001"]\n')
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=session.uri("pyproject.toml"), type=types.FileChangeType.Created
                )
            ]
        )
    )
    assert await next_result(session, uri, seen) == []


async def test_close_clears_pushed_diagnostics(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    await session.diagnostics(uri)
    session.close(uri)
    if session.mode == "push":
        await session.wait_for(lambda: not session.published[-1].diagnostics)
        assert session.published[-1].uri == uri


def test_tcp_binds_localhost_and_says_so() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [a for a in SERVER if a not in ("--debounce", "0.05")] + ["--tcp", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stderr is not None
        line = process.stderr.readline().decode()
        assert f"listening on 127.0.0.1:{port}" in line
        for _ in range(50):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                subprocess.run([sys.executable, "-c", "import time; time.sleep(0.1)"])
        else:
            raise AssertionError("the TCP server does not accept connections")
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert process.stdout is not None and process.stdout.read() == b""
