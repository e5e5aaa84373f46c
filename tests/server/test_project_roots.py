"""The workspace of a document when the editor names no folder (``passlint.roots``): the
document's project (a configuration file's folder, else the git work tree), else the document
alone; never the folder it happens to be in (a home or temporary folder would have the server
index everything below it)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import DATA, SERVER, Session, make_client

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

CROSS_FILE = DATA.parent / "pl" / "cross_file"


@pytest_lsp.fixture(
    params=["vscode"],
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def folderless(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """A server whose client opened files without a workspace folder (nor rootUri)."""
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


def call_sites(diagnostic: types.Diagnostic) -> str:
    assert diagnostic.code == "VS001" and isinstance(diagnostic.data, dict)
    title = diagnostic.data["fix"]["title"]
    assert isinstance(title, str)
    return title.rsplit(" at ", 1)[1]


def session_in(client: LanguageClient, folder: Path) -> Session:
    folder.mkdir(parents=True)
    for name in ("kernels.py", "program.py"):
        shutil.copy(CROSS_FILE / name, folder / name)
    return Session(client, folder, "vscode")


async def test_a_lone_file_is_its_own_workspace(folderless: LanguageClient, tmp_path: Path) -> None:
    session = session_in(folderless, tmp_path / "downloads")  # no project around it
    (finding,) = await session.diagnostics(session.open("kernels.py"))
    assert call_sites(finding) == "0 call sites"  # program.py beside it is not read


@pytest.mark.parametrize("marker", [".git", "pyproject.toml"])
async def test_the_project_of_the_file_is_its_workspace(
    folderless: LanguageClient, tmp_path: Path, marker: str
) -> None:
    session = session_in(folderless, tmp_path / "repo" / "src")
    if marker == ".git":
        (tmp_path / "repo" / ".git").mkdir()
    else:
        (tmp_path / "repo" / marker).write_text("[tool.passlint]\n")
    (finding,) = await session.diagnostics(session.open("kernels.py"))
    assert call_sites(finding) == "2 call sites"
