"""MLIR bytecode in the language server, end to end: ``mlir/convertFromBytecode`` (as
mlir-lsp-server answers it) gives the text of a .mlirbc file of the workspace (MLIR bytecode
or a StableHLO portable artifact, read by jaxlib), and that text open as a
``passlint-mlirbc:`` document is analysed as MLIR (TL001); bytes that are no bytecode, a file
outside the workspace and a server without jaxlib are answered with an error saying so."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER, Session, make_client, start_session

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

DATA = Path(__file__).resolve().parents[1] / "data" / "bytecode"
CONVERT = "mlir/convertFromBytecode"
REQUEST_FAILED = -32803
INVALID_PARAMS = -32602
# A Python path whose `jax` and `jaxlib` cannot be imported (``sitecustomize`` below).
NO_JAX = Path(__file__).resolve().parent / "no_jax"


def _workspace_file(session: Session, name: str, data: bytes | None = None) -> str:
    """``bytecode/name`` in the workspace (the fixture's bytes, or ``data``); its URI."""
    folder = session.root / "bytecode"
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes((DATA / name).read_bytes() if data is None else data)
    return session.uri(f"bytecode/{name}")


async def _convert(session: Session, uri: str) -> str:
    answer = await session.client.protocol.send_request_async(CONVERT, {"uri": uri})
    output = answer["output"] if isinstance(answer, dict) else answer.output
    assert isinstance(output, str)
    return output


async def _refused(session: Session, uri: str) -> JsonRpcException:
    with pytest.raises(JsonRpcException) as refused:
        await _convert(session, uri)
    return refused.value


def _open_view(session: Session, uri: str, text: str) -> str:
    """The text open as the editor's view of the bytecode file ``uri``."""
    view = "passlint-mlirbc:" + uri.removeprefix("file://")
    session.texts[view], session.versions[view] = text, 1
    session.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=view, language_id="mlir", version=1, text=text)
        )
    )
    return view


@pytest.mark.parametrize("name", ["identity.mlirbc", "identity.portable.mlirbc"])
async def test_bytecode_converts_and_its_text_is_analysed(session: Session, name: str) -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    uri = _workspace_file(session, name)
    text = await _convert(session, uri)
    assert text.startswith('#loc2 = loc("model.py":3:8)\nmodule @identity {\n')
    assert "    return %arg0 : tensor<2x3xf32> loc(#loc4)\n" in text
    view = _open_view(session, uri, text)
    assert await _convert(session, view) == text  # (the view's URI names the file too)
    diagnostics = await session.diagnostics(view)
    assert [(str(d.code), d.range.start.line) for d in diagnostics] == [("TL001", 4)]


async def test_bytes_that_are_no_bytecode_are_refused(session: Session) -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    text = await _refused(session, _workspace_file(session, "text.mlirbc", b"module {}\n"))
    assert text.code == REQUEST_FAILED
    assert text.message == "text.mlirbc: not MLIR bytecode (it does not start with ML\\xefR)"
    data = (DATA / "identity.mlirbc").read_bytes()
    cut = await _refused(session, _workspace_file(session, "cut.mlirbc", data[:100]))
    assert cut.code == REQUEST_FAILED
    assert "cut.mlirbc: jaxlib cannot read it: " in cut.message


async def test_files_outside_the_workspace_are_not_read(session: Session) -> None:
    outside = session.root.parent / "outside.mlirbc"
    shutil.copy(DATA / "identity.mlirbc", outside)
    refused = await _refused(session, outside.as_uri())
    assert refused.code == REQUEST_FAILED
    assert "outside the workspace" in refused.message
    link = session.root / "link.mlirbc"
    link.symlink_to(outside)
    through = await _refused(session, session.uri("link.mlirbc"))
    assert "outside the workspace" in through.message
    folder = await _refused(session, session.uri("."))
    assert "not a regular file" in folder.message or "a folder" in folder.message
    with pytest.raises(JsonRpcException) as no_uri:
        await session.client.protocol.send_request_async(CONVERT, {"url": outside.as_uri()})
    assert no_uri.value.code == INVALID_PARAMS
    assert "expected params {uri: string}" in no_uri.value.message
    untitled = await _refused(session, "untitled:Untitled-1")
    assert untitled.code == INVALID_PARAMS
    assert "names no file of this machine" in untitled.message


@pytest_lsp.fixture(
    params=["vscode"],
    config=ClientServerConfig(
        server_command=SERVER,
        client_factory=make_client,
        server_env={**os.environ, "PYTHONPATH": str(NO_JAX)},
    ),
)
async def no_jax_lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """The server in a Python where jax and jaxlib cannot be imported."""
    await start_session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


async def test_without_jaxlib_the_answer_names_the_extra(no_jax_lsp: LanguageClient) -> None:
    session: Session = no_jax_lsp.session  # type: ignore[attr-defined]
    refused = await _refused(session, _workspace_file(session, "identity.mlirbc"))
    assert refused.code == REQUEST_FAILED
    assert refused.message == (
        "reading MLIR bytecode needs jaxlib's MLIR bindings (jaxlib is not installed): "
        "install them with `pip install jax==0.10.2 jaxlib==0.10.2` (passlint's optional "
        "extra `bytecode`)"
    )
