"""The server under stress: a burst of 500 incremental edits in a second, requests answered
while a 20 MB document is analysed, `$/cancelRequest`, and the size limit.

(A crash of the analysis becoming one PL002 internal-error diagnostic while the server keeps
serving the other documents is tested in test_scheduling.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient

from passlint import pipeline
from passlint.analysis.source import SourceText
from passlint.passes.tensorizer_legalization.apply import legalize_text

from .conftest import SERVER, Session, copy_data, initialize_params, make_client

# Inserted at random places: ASCII, letters outside the BMP (two UTF-16 units each), MLIR
# punctuation, line breaks, and whole statements.
SNIPPETS = [
    "x",
    " ",
    "\n",
    "é",
    "\U0001d54f",
    "😀",
    "%",
    "{",
    "}",
    "// c\n",
    "  %9 = stablehlo.abs %arg0 : tensor<4xf32>\n",
    "\r\n",
]


def expected(session: Session, uri: str, text: str) -> list[tuple[object, ...]]:
    """What the server should publish for ``text``: the engine's findings in UTF-16."""
    source = SourceText(text)
    out = []
    for finding in pipeline.analyze(str(session.path(uri)), text):
        start = source.to_utf16(finding.range.start)
        end = source.to_utf16(finding.range.end)
        out.append((finding.code, (start.line, start.column), (end.line, end.column)))
    return sorted(out, key=repr)


def seen(diagnostics: list[types.Diagnostic]) -> list[tuple[object, ...]]:
    return sorted(
        (
            (
                d.code,
                (d.range.start.line, d.range.start.character),
                (d.range.end.line, d.range.end.character),
            )
            for d in diagnostics
        ),
        key=repr,
    )


def random_edit(rng: random.Random, text: str) -> tuple[types.Range, str]:
    """A random incremental change of ``text``, as an LSP range (UTF-16) and new text."""
    source = SourceText(text)
    a = rng.randrange(len(text) + 1)
    b = min(len(text), a + rng.choice([0, 0, 1, 2, 5, 20]))
    new = rng.choice(SNIPPETS) if rng.random() < 0.7 else ""
    start, end = source.to_utf16(source.position(a)), source.to_utf16(source.position(b))
    return (
        types.Range(
            start=types.Position(line=start.line, character=start.column),
            end=types.Position(line=end.line, character=end.column),
        ),
        new,
    )


async def test_burst_of_500_incremental_edits_ends_with_the_final_text(session: Session) -> None:
    if session.name == "neovim-0.7":
        pytest.skip("one push and one pull client are enough (2 shared cores)")
    uri = session.open("mlir/aliased.mlir")
    first = await session.diagnostics(uri)
    assert first
    rng = random.Random(9)
    started = time.monotonic()
    for index in range(500):
        rng_range, new_text = random_edit(rng, session.texts[uri])
        session.edit(uri, rng_range, new_text)
        if index % 10 == 9:
            await asyncio.sleep(0.01)  # 500 edits spread over about a second
    burst = time.monotonic() - started
    assert burst < 5
    final_version, final_text = session.versions[uri], session.texts[uri]
    assert final_version == 501
    diagnostics = await session.diagnostics(uri)
    assert seen(diagnostics) == expected(session, uri, final_text)
    # the server holds exactly the text the client has: its legalized module is ours
    legalized = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.legalizedModule", arguments=[uri])
    )
    assert legalized == legalize_text(final_text)
    await asyncio.sleep(0.5)  # any superseded run still computing has finished by now
    if session.mode == "push":
        mine = [p for p in session.published if p.uri == uri]
        versions = [p.version for p in mine]
        assert versions == sorted(versions)  # never an older version after a newer one
        assert mine[-1].version == final_version
        assert seen(list(mine[-1].diagnostics)) == expected(session, uri, final_text)
    else:
        assert seen(await session.diagnostics(uri)) == expected(session, uri, final_text)


def big_module(megabytes: int) -> str:
    """A @main of one long chain of adds (about 57 bytes a line), returning an input."""
    lines = megabytes * 1024 * 1024 // 57
    body = ["func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {"]
    body.append("  %0 = stablehlo.abs %arg0 : tensor<4x8xf32>")
    body += [f"  %{i} = stablehlo.add %{i - 1}, %arg0 : tensor<4x8xf32>" for i in range(1, lines)]
    body += [f"  return %{lines - 1}, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>", "}", ""]
    return "\n".join(body)


async def test_requests_answered_while_a_20_mb_file_is_analysed(session: Session) -> None:
    if session.name != "vscode":
        pytest.skip("one client is enough for the timing test (2 shared cores)")
    text = big_module(20)
    assert len(text) >= 20 * 1000 * 1000
    big = session.open("big.mlir", text)
    await asyncio.sleep(0.3)  # its analysis, seconds long, is under way
    small = session.open("mlir/split.mlir")
    latencies = []
    for _ in range(5):
        started = time.monotonic()
        symbols = await asyncio.wait_for(
            session.client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=small))
            ),
            10,
        )
        latencies.append(time.monotonic() - started)
        assert symbols
        await asyncio.wait_for(
            session.client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=small),
                    position=types.Position(line=3, character=12),
                )
            ),
            10,
        )
        await asyncio.sleep(0.05)
    assert max(latencies) < 3.0, latencies
    assert [d.code for d in await session.diagnostics(small)] == ["TL001", "TL002"]
    # and the big document gets its diagnostic in bounded time
    (diagnostic,) = await session._latest(
        lambda: next(
            (list(p.diagnostics) for p in reversed(session.published) if p.uri == big), None
        )
    )
    assert diagnostic.code == "TL001"
    session.close(big)


async def test_cancel_request_is_honoured(hooked: Session) -> None:
    """A pull for a document whose analysis takes 5 s is cancelled at once; the server keeps
    serving, and the analysis still ends with diagnostics."""
    text = "// SLOW(5)\n" + (hooked.root / "mlir/aliased.mlir").read_text()
    uri = hooked.open("mlir/aliased.mlir", text)
    await asyncio.sleep(0.3)
    protocol = hooked.client.protocol
    msg_id = "passlint-cancel-test"
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    future = asyncio.wrap_future(
        protocol.send_request(types.TEXT_DOCUMENT_DIAGNOSTIC, params, msg_id=msg_id)
    )
    await asyncio.sleep(0.2)
    started = time.monotonic()
    protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    with pytest.raises(JsonRpcRequestCancelled):
        await asyncio.wait_for(future, 3)
    assert time.monotonic() - started < 2.0  # well before the 5 s analysis ends
    # other requests are answered meanwhile
    other = hooked.open("mlir/split.mlir")
    symbols = await hooked.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=other))
    )
    assert symbols
    # a symbol request that waits for a model is cancelled the same way
    symbol_id = "passlint-cancel-symbols"
    symbol_future = asyncio.wrap_future(
        protocol.send_request(
            types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)),
            msg_id=symbol_id,
        )
    )
    protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=symbol_id))
    # cancelled before it finished (or answered first, if the model was quicker)
    with contextlib.suppress(JsonRpcRequestCancelled):
        await asyncio.wait_for(symbol_future, 5)
    # the cancelled pull did not stop the analysis: its diagnostics still come
    (diagnostic,) = await hooked.diagnostics(uri)
    assert diagnostic.code == "TL001"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def limited(lsp_client: LanguageClient, tmp_path: object) -> object:
    """The server with a 2,000-byte max-file-size from the editor's settings."""
    root = copy_data(tmp_path / "ws")  # type: ignore[operator]
    params = initialize_params("vscode", root, {"passlint": {"maxFileSize": 2000}})
    params.capabilities.workspace.configuration = False  # type: ignore[union-attr]
    await lsp_client.initialize_session(params)
    lsp_client.session = Session(lsp_client, root, "vscode")  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_files_above_max_file_size_get_one_information_diagnostic(
    limited: LanguageClient,
) -> None:
    session: Session = limited.session  # type: ignore[attr-defined]
    big_text = (session.root / "mlir/aliased.mlir").read_text() + "// " + "x" * 3000 + "\n"
    big = session.open("mlir/big.mlir", big_text)
    (diagnostic,) = await session.diagnostics(big)
    assert diagnostic.code == "PL001"
    assert diagnostic.severity == types.DiagnosticSeverity.Information
    assert diagnostic.message.startswith("File not analysed: it is larger than `max-file-size`")
    assert f"It has {len(big_text)} bytes" in diagnostic.message
    assert diagnostic.code_description is None  # no published rule page: no link
    # no analysis behind the other features either
    document = types.TextDocumentIdentifier(uri=big)
    assert not await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document)
    )
    assert (
        await session.client.text_document_hover_async(
            types.HoverParams(text_document=document, position=types.Position(line=2, character=12))
        )
        is None
    )
    # a document under the limit is analysed as usual
    small = session.open("mlir/split.mlir")
    assert [d.code for d in await session.diagnostics(small)] == ["TL001", "TL002"]
    # and shrinking the big one under the limit analyses it
    session.change(big, (session.root / "mlir/aliased.mlir").read_text())
    assert [d.code for d in await session.diagnostics(big)] == ["TL001"]
