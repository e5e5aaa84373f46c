"""The server keeps no text of a version once a newer one is in, nor of a closed document
(P9: during a burst of edits of a multi-megabyte dump, each text kept is megabytes)."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from .conftest import Session

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def module(marker: str, lines: int = 400) -> str:
    body = [f"// {marker}", "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {"]
    body.append("  %0 = stablehlo.abs %arg0 : tensor<4xf32>")
    body += [f"  %{i} = stablehlo.add %{i - 1}, %arg0 : tensor<4xf32>" for i in range(1, lines)]
    body += [f"  return %{lines - 1} : tensor<4xf32>", "}", ""]
    return "\n".join(body)


async def texts(session: Session, marker: str) -> int:
    found: int = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.test.texts", arguments=[marker])
    )
    return found


async def texts_once_settled(session: Session, marker: str, expected: int) -> int:
    """The texts holding ``marker`` once the work in flight has ended: asked again until
    there are ``expected`` (a loaded machine may take seconds), at most for 20 s."""
    deadline = asyncio.get_running_loop().time() + 20
    await session.settle()
    while (found := await texts(session, marker)) != expected:
        if asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.25)
    return found


def position(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def test_a_burst_of_edits_leaves_only_the_current_text(hooked: Session) -> None:
    """Nothing keeps an old version: not a superseded analysis, not the text a feature read,
    not a memo of changes for quick runs this document does not get (16 texts, before)."""
    uri = hooked.open("mlir/burst.mlir", module("MARKER-burst"))
    await hooked.diagnostics(uri)
    await hooked.client.text_document_hover_async(  # a feature reads the current text
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position(3, 3)
        )
    )
    for line in range(10, 30, 2):  # each edit supersedes the analysis of the one before
        here = types.Range(start=position(line, 0), end=position(line, 0))
        hooked.edit(uri, here, " ")
        await asyncio.sleep(0.01)
    await hooked.diagnostics(uri)
    assert await texts_once_settled(hooked, "MARKER-burst", 1) == 1


async def test_a_closed_documents_text_is_not_kept(hooked: Session) -> None:
    uri = hooked.open("mlir/closed.mlir", module("MARKER-closed"))
    await hooked.diagnostics(uri)
    hooked.edit(uri, types.Range(start=position(5, 0), end=position(5, 0)), " ")
    hooked.close(uri)
    found = await texts_once_settled(hooked, "MARKER-closed", 0)
    if found:
        # Held only by garbage in a reference cycle, which the collector frees (seen in
        # full runs of the suite, never in this file alone; its holder is not found yet),
        # or by something alive, which still fails here.
        await hooked.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="passlint.test.collect", arguments=[])
        )
        found = await texts(hooked, "MARKER-closed")
    assert found == 0
