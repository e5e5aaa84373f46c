"""A large .mlir gets a quick answer (TL findings from @main's outline) before the full one."""

from __future__ import annotations

import asyncio
import functools
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import HOOKED_SERVER, Session, copy_data, initialize_params, make_client

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module


def big_document() -> str:
    return "// SLOW(4)\n" + mlir_module(70)  # ~650 KB; the full analysis is held 4 s


@pytest_lsp.fixture(
    params=["push", "pull-with-refresh"],
    config=ClientServerConfig(server_command=HOOKED_SERVER, client_factory=make_client),
)
async def quick_lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    root = copy_data(request.getfixturevalue("tmp_path") / "ws")
    client = "vscode" if request.param == "push" else "neovim-0.11"
    params = initialize_params(client, root)
    if request.param == "pull-with-refresh":
        workspace = params.capabilities.workspace
        assert workspace is not None
        workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        lsp_client.refreshes = 0  # type: ignore[attr-defined]
        # pytest-lsp answers refresh requests itself; count them instead.
        lsp_client.protocol.fm._features.pop(types.WORKSPACE_DIAGNOSTIC_REFRESH, None)

        @lsp_client.feature(types.WORKSPACE_DIAGNOSTIC_REFRESH)
        def refresh(params: None) -> None:
            lsp_client.refreshes += 1  # type: ignore[attr-defined]

    await lsp_client.initialize_session(params)
    lsp_client.session = Session(lsp_client, root, client)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_quick_answer_comes_first_then_the_full_one(quick_lsp: LanguageClient) -> None:
    session: Session = quick_lsp.session  # type: ignore[attr-defined]
    text = big_document()
    (session.root / "big.mlir").write_text(text)
    started = time.monotonic()
    uri = session.open("big.mlir", text)
    first = await session.diagnostics(uri)
    took = time.monotonic() - started
    assert [d.code for d in first] == ["TL001", "TL002"]
    assert took < 3.5, f"the quick answer took {took:.2f} s"
    if session.mode == "push":
        await session.wait_for(
            lambda: len([p for p in session.published if p.uri == uri]) >= 2, timeout=30
        )
        full = [p for p in session.published if p.uri == uri][-1]
        assert [d.code for d in full.diagnostics] == ["TL001", "TL002"]
    else:
        await session.wait_for(lambda: quick_lsp.refreshes >= 1, timeout=30)  # type: ignore[attr-defined]
        again = await session.diagnostics(uri)
        assert again == first


async def test_quick_answer_for_an_edit_keeps_the_version(quick_lsp: LanguageClient) -> None:
    session: Session = quick_lsp.session  # type: ignore[attr-defined]
    if session.mode != "push":
        pytest.skip("versions are visible on published diagnostics")
    text = big_document()
    uri = session.open("big.mlir", text)
    await session.diagnostics(uri)
    edited = text.replace("    return %", "    return %arg2, %", 1).replace(
        ") -> (tensor<128x256xf32>,", ") -> (tensor<256x256xf32>, tensor<128x256xf32>,", 1
    )
    started = time.monotonic()
    version = session.change(uri, edited)
    diagnostics = await session.diagnostics(uri)  # published for exactly this version
    took = time.monotonic() - started
    assert [d.code for d in diagnostics] == ["TL001", "TL001", "TL002"]
    assert took < 3.5, f"the edit was answered after {took:.2f} s, not by the quick run"
    latest = [p for p in session.published if p.uri == uri][-1]
    assert latest.version == version


async def test_large_document_is_analysed_in_a_worker_process(session: Session) -> None:
    """The full answer for a large document (here with a syntax error, which only the full
    analysis finds) comes from the analysis process, after or instead of the quick one."""
    if session.mode != "push":
        pytest.skip("the pull path is the same analysis")
    text = mlir_module(70).replace(" : tensor<4x128x128xf32>\n", " : tensor<4x128x128xf32>)\n", 1)
    uri = session.open("big.mlir", text)

    diagnostics = await session.wait_for(
        functools.partial(session.last_published_with, uri, "E009"), timeout=60
    )
    assert [d.code for d in diagnostics] == ["E009", "TL001", "TL002"]


async def test_new_version_stops_the_analysis_in_the_worker_process(session: Session) -> None:
    """Versions of a large document arriving while the worker process analyses an older
    one stop that analysis; the final diagnostics are those of the last version."""
    if session.mode != "push":
        pytest.skip("the pull path is the same scheduling")
    base = mlir_module(70)
    broken = base.replace(" : tensor<4x128x128xf32>\n", " : tensor<4x128x128xf32>)\n", 1)
    uri = session.open("big.mlir", broken)
    await asyncio.sleep(0.3)  # the worker process is busy with version 1
    session.change(uri, base)
    final = session.change(uri, base.replace("%arg1, %cst_out", "%arg2, %cst_out", 1))

    def last() -> list[types.Diagnostic] | None:
        mine = [p for p in session.published if p.uri == uri]
        if mine and mine[-1].version == final and len(mine) >= 2:
            return list(mine[-1].diagnostics)
        return None

    diagnostics = await session.wait_for(last, timeout=60)
    assert [d.code for d in diagnostics] == ["TL001", "TL002"]
    await session.settle(1.0)
    versions = [p.version for p in session.published if p.uri == uri]
    assert versions[-1] == final
    assert versions == sorted(versions)  # nothing older is published after something newer
