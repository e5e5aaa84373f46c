"""Workspace folders added and removed while the server runs
(``workspace/didChangeWorkspaceFolders``, advertised as LSP says): what the workspace index,
cross-file navigation and loc() resolution read follows the folders open now. A file in a
removed folder is no longer read; a new folder's files are."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import DATA, SERVER, Session, make_client

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

CROSS_FILE = DATA.parent / "pl" / "cross_file"
MODULE = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    '  %0 = stablehlo.sine %arg0 : tensor<4xf32> loc("model.py":2:1)\n'
    "  return %0 : tensor<4xf32>\n"
    "}\n"
)


def folder(path: Path) -> types.WorkspaceFolder:
    return types.WorkspaceFolder(uri=from_fs_path(str(path)) or "", name=path.name)


@pytest_lsp.fixture(
    params=["vscode"],
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def two_folders(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """A server opened on folder ``app`` (a program calling kernels, an exported module
    located in ``model.py``) while ``lib`` (the kernels, ``model.py``) is not a folder yet."""
    base = request.getfixturevalue("tmp_path")
    app, lib = base / "app", base / "lib"
    app.mkdir()
    lib.mkdir()
    shutil.copy(CROSS_FILE / "program.py", app / "program.py")
    shutil.copy(CROSS_FILE / "kernels.py", lib / "kernels.py")
    (app / "export.mlir").write_text(MODULE)
    (lib / "model.py").write_text("import jax\nMODEL_LINE = jax.numpy.sin(x)\n")
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(app)),
            workspace_folders=[folder(app)],
        )
    )
    lsp_client.folders = (result, app, lib)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def change(client: LanguageClient, added: list[Path], removed: list[Path]) -> None:
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[folder(p) for p in added], removed=[folder(p) for p in removed]
            )
        )
    )


async def definition(session: Session, uri: str, line: int, character: int) -> list[str]:
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )
    assert isinstance(found, list | tuple)
    return [location.uri for location in found if isinstance(location, types.Location)]


async def hover_text(session: Session, uri: str, line: int, character: int) -> str:
    found = await session.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    return found.contents.value


def call_sites(diagnostics: list[types.Diagnostic]) -> str:
    (finding,) = diagnostics
    assert finding.code == "VS001" and isinstance(finding.data, dict)
    title = finding.data["fix"]["title"]
    assert isinstance(title, str)
    return title.rsplit(" at ", 1)[1]


async def test_the_server_advertises_workspace_folder_changes(two_folders: LanguageClient) -> None:
    result, _, _ = two_folders.folders  # type: ignore[attr-defined]
    workspace = result.capabilities.workspace
    assert workspace is not None and workspace.workspace_folders is not None
    assert workspace.workspace_folders.supported is True
    assert workspace.workspace_folders.change_notifications is True


async def test_navigation_reads_the_folders_open_now(two_folders: LanguageClient) -> None:
    _, app, lib = two_folders.folders  # type: ignore[attr-defined]
    session = Session(two_folders, app, "vscode")
    program = session.open("program.py")
    kernels = from_fs_path(str(lib / "kernels.py"))
    assert await definition(session, program, 19, 16) == []  # lib is not a folder yet
    change(two_folders, added=[lib], removed=[])
    assert await definition(session, program, 19, 16) == [kernels]
    change(two_folders, added=[], removed=[lib])
    assert await definition(session, program, 19, 16) == []


async def test_the_workspace_index_reads_the_folders_open_now(
    two_folders: LanguageClient,
) -> None:
    _, app, lib = two_folders.folders  # type: ignore[attr-defined]
    session = Session(two_folders, lib, "vscode")
    kernels = session.open("kernels.py")
    assert call_sites(await session.diagnostics(kernels)) == "0 call sites"  # app's only

    def published(count: str) -> bool:
        found = session.last_published_with(kernels, "VS001")
        return found is not None and call_sites(found) == count

    change(two_folders, added=[lib], removed=[])  # program.py in app calls it twice
    await session.wait_for(lambda: published("2 call sites"))
    change(two_folders, added=[], removed=[app])
    await session.wait_for(lambda: published("0 call sites"))


async def test_locations_resolve_in_the_folders_open_now(two_folders: LanguageClient) -> None:
    _, app, lib = two_folders.folders  # type: ignore[attr-defined]
    session = Session(two_folders, app, "vscode")
    uri = session.open("export.mlir")
    await session.diagnostics(uri)
    assert await hover_text(session, uri, 1, 50) == "**Source location**\n\n- `model.py:2:1`"
    change(two_folders, added=[lib], removed=[])
    assert await hover_text(session, uri, 1, 50) == (
        "**Source location**\n\n- `model.py:2:1`\n  `MODEL_LINE = jax.numpy.sin(x)`"
    )
    assert await definition(session, uri, 1, 50) == [from_fs_path(str(lib / "model.py"))]
    change(two_folders, added=[], removed=[lib])
    assert await hover_text(session, uri, 1, 50) == "**Source location**\n\n- `model.py:2:1`"
    assert await definition(session, uri, 1, 50) == []
