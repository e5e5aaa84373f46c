"""Each document takes its closest configuration file, as `passlint check` gives each file
(``config_files``, one rule for both): the server's diagnostics and the CLI's findings of
a tree with configuration files at two levels agree, and a configuration file that links
out of the workspace is refused by both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER, Session, initialize_params, make_client

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

ALIASED = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    return %arg0 : tensor<4xf32>\n  }\n}\n"
)
FILES = ("top.mlir", "sub/inner.mlir", "sub/gen/made.mlir", "sub/deep/er.mlir")


@pytest_lsp.fixture(
    params=["vscode", "neovim-0.11"],
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def tree(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """A server (push and pull) on a workspace with a configuration file at its top, that
    ignores TL001, and one in ``sub`` that does not but ignores TL in ``gen/``."""
    root = request.getfixturevalue("tmp_path") / "ws"
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(ALIASED)
    (root / "passlint.toml").write_text('ignore = ["TL001"]\n')
    (root / "sub" / "pyproject.toml").write_text(
        '[tool.passlint]\nper-file-ignores = { "gen/*" = ["TL"] }\n'
    )
    await lsp_client.initialize_session(initialize_params(request.param, root))
    lsp_client.session = Session(lsp_client, root, request.param)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def session(tree: LanguageClient) -> Session:
    return tree.session  # type: ignore[attr-defined,no-any-return]


def check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passlint", "check", "--format", "json", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )


def cli_codes(root: Path, *args: str) -> dict[str, list[str]]:
    """The codes `passlint check` finds in each file of ``FILES``."""
    result = check(root, *args)
    assert result.returncode in (0, 1), result.stderr
    codes: dict[str, list[str]] = {name: [] for name in FILES}
    for finding in json.loads(result.stdout)["findings"]:
        codes[finding["path"]].append(finding["code"])
    return codes


async def server_codes(session: Session) -> dict[str, list[str]]:
    return {
        name: [str(d.code) for d in await session.diagnostics(session.open(name))] for name in FILES
    }


async def test_each_document_takes_its_closest_configuration(session: Session) -> None:
    expected = {
        "top.mlir": [],  # the top's passlint.toml ignores TL001
        "sub/inner.mlir": ["TL001"],  # sub's pyproject.toml governs sub: TL001 is reported
        "sub/gen/made.mlir": [],  # its per-file ignore, relative to sub
        "sub/deep/er.mlir": ["TL001"],  # sub's, the nearest above
    }
    assert await server_codes(session) == expected
    assert cli_codes(session.root) == expected  # the whole tree
    for name in FILES:  # each file named alone, as pre-commit names them
        assert cli_codes(session.root, name)[name] == expected[name]


async def test_a_configuration_linked_out_of_the_workspace_is_refused(
    session: Session, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere" / "passlint.toml"
    outside.parent.mkdir()
    outside.write_text('ignore = ["TL001"]\n')
    link = session.root / "sub" / "deep" / "passlint.toml"
    os.symlink(outside, link)
    uri = session.open("sub/deep/er.mlir")
    assert [d.code for d in await session.diagnostics(uri)] == ["TL001"]  # not read
    await session.wait_for(lambda: session.client.messages)
    (message,) = session.client.messages
    assert message.type == types.MessageType.Error
    refusal = f"{link}: a symbolic link out of the workspace (to {outside}); not read"
    assert message.message == f"passlint configuration error: {refusal}"
    result = check(session.root)
    assert result.returncode == 2
    assert result.stderr == f"passlint: configuration error: {refusal}\n"


async def test_a_configuration_linked_inside_the_workspace_is_read(session: Session) -> None:
    shared = session.root / "shared" / "strict.toml"
    shared.parent.mkdir()
    shared.write_text('ignore = ["TL001"]\n')
    os.symlink(shared, session.root / "sub" / "deep" / "passlint.toml")
    uri = session.open("sub/deep/er.mlir")
    assert await session.diagnostics(uri) == []
    assert cli_codes(session.root)["sub/deep/er.mlir"] == []
    assert session.client.messages == []
