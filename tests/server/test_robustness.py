"""Robustness seen in real editors: a run cancelled while the client has not yet answered its
work-done progress request ends silently (no error toast)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER, Session, make_client, start_session

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import layers_for, mlir_module

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

REPLY_DELAY = 1.0  # how long the client takes to answer window/workDoneProgress/create


def slow_progress_client() -> LanguageClient:
    """A client that answers ``window/workDoneProgress/create`` only after a while, as VS Code
    does when it is busy: edits made meanwhile cancel the run that asked."""
    client = make_client()
    client.protocol.fm.features.pop(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    client.create_requests = []  # type: ignore[attr-defined]

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    async def create(params: types.WorkDoneProgressCreateParams) -> None:
        client.create_requests.append(params.token)  # type: ignore[attr-defined]
        await asyncio.sleep(REPLY_DELAY)
        client.progress_reports.setdefault(params.token, [])

    return client


@pytest_lsp.fixture(
    params=["vscode", "neovim-0.11"],
    config=ClientServerConfig(server_command=SERVER, client_factory=slow_progress_client),
)
async def slow_lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    await start_session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def slow_client(slow_lsp: LanguageClient) -> Session:
    return slow_lsp.session  # type: ignore[attr-defined,no-any-return]


async def test_edit_while_progress_is_being_created_shows_no_error(slow_client: Session) -> None:
    text = mlir_module(layers_for(1_100_000))  # above 1 MB: progress from the start
    assert len(text) > 1_000_000
    uri = slow_client.open("big.mlir", text)
    client = slow_client.client
    await slow_client.wait_for(lambda: client.create_requests, timeout=60)  # type: ignore[attr-defined]
    for i in range(3):  # edits while the run waits for the client's answer
        line = 5 + i
        slow_client.edit(
            uri,
            types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line, character=0),
            ),
            " ",
        )
        await asyncio.sleep(0.1)
    diagnostics = await slow_client.diagnostics(uri)
    assert "TL001" in [d.code for d in diagnostics]
    await asyncio.sleep(REPLY_DELAY + 0.5)  # every delayed answer has arrived
    assert client.messages == []
