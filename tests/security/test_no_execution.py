"""A pl file whose top level would run code is never executed or imported: not by `passlint
check` (with --fix, --diff, standard input), not by the language server, not through the
imports cross-file resolution follows. Executing any of the files writes a marker file."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from security_testing import AUDITED, environment, make_tree, pycache_dirs, run

MARKER_DIR = Path(os.environ.get("TMPDIR", "/tmp")) / f"passlint-security-{os.getpid()}"
SERVER_MARKER = MARKER_DIR / "server-marker.txt"


def user_code_events(events: list[list[str]], root: Path) -> list[list[str]]:
    """Compilations, executions and imports of anything in the tree (``ast.parse`` is a
    ``compile`` event too: it may parse, never execute, and never import)."""
    real = str(root.resolve())
    names = {p.stem for p in root.rglob("*.py")} | {"pkg", "outside", "secret"}
    return [
        [event, detail]
        for event, detail in events
        if (event == "exec" and os.path.realpath(detail).startswith(real))
        or (event == "import" and detail.split(".")[0] in names)
        or event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn")
    ]


def test_the_marker_shows_execution(tmp_path: Path) -> None:
    """Control: running or importing the files does write the marker."""
    ws, _ = make_tree(tmp_path)
    for code in ("import runpy; runpy.run_path('side_effect.py')", "import pkg"):
        marker = tmp_path / "marker.txt"
        run(["-c", code], ws, marker)
        assert marker.exists()
        marker.unlink()


@pytest.mark.parametrize(
    "args",
    [
        ["."],
        ["--fix", "."],
        ["--diff", "."],
        ["--format", "sarif", "kernels.py", "program.py", "side_effect.py"],
    ],
    ids=["check", "fix", "diff", "sarif"],
)
def test_cli_never_executes_or_imports_the_sources(tmp_path: Path, args: list[str]) -> None:
    ws, _ = make_tree(tmp_path)
    marker = tmp_path / "marker.txt"
    result = run([str(AUDITED), "check", *args], ws, marker)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr
    events = json.loads(result.stdout.splitlines()[-1])
    assert user_code_events(events, tmp_path) == []
    assert not [e for e in events if e[0].startswith("socket.")]  # no network either
    assert not marker.exists()
    assert pycache_dirs(tmp_path) == []  # nothing was compiled to bytecode


def test_standard_input_is_never_executed(tmp_path: Path) -> None:
    ws, _ = make_tree(tmp_path)
    marker = tmp_path / "marker.txt"
    text = (ws / "side_effect.py").read_text()
    result = subprocess.run(
        [sys.executable, "-m", "passlint", "check", "--stdin-filename", "side_effect.py", "-"],
        cwd=ws,
        input=text,
        capture_output=True,
        text=True,
        env=environment(marker),
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert "side_effect.py:17:71: VS001" in result.stdout
    assert not marker.exists()


# -- the language server -------------------------------------------------------------------------


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "passlint", "serve", "--debounce", "0.05"],
        server_env={**environment(SERVER_MARKER), "PASSLINT_MARKER": str(SERVER_MARKER)},
    ),
)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> Any:
    MARKER_DIR.mkdir(exist_ok=True)

    @lsp_client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        return types.ApplyWorkspaceEditResult(applied=False)

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    ws, _ = make_tree(tmp_path)
    lsp_client.root = ws  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=from_fs_path(str(ws)),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(ws)) or "", name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(MARKER_DIR, ignore_errors=True)


async def test_server_never_executes_or_imports_the_sources(client: LanguageClient) -> None:
    ws: Path = client.root  # type: ignore[attr-defined]
    uris = {}
    for name in ("kernels.py", "program.py", "side_effect.py", "pkg/__init__.py", "linked_file.py"):
        uri = from_fs_path(str(ws / name)) or ""
        uris[name] = uri
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="python", version=1, text=(ws / name).read_text()
                )
            )
        )
    for _ in range(400):  # wait for the side-effect file's VS001
        published = client.diagnostics.get(uris["side_effect.py"], [])
        if any(d.code == "VS001" for d in published):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("no diagnostics for side_effect.py")
    document = types.TextDocumentIdentifier(uri=uris["side_effect.py"])
    where = types.Position(line=16, character=71)
    await client.text_document_hover_async(
        types.HoverParams(text_document=document, position=where)
    )
    await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document)
    )
    await client.text_document_definition_async(
        types.DefinitionParams(text_document=document, position=where)
    )
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=types.Range(start=where, end=where),
            context=types.CodeActionContext(diagnostics=client.diagnostics[uris["side_effect.py"]]),
        )
    )
    assert actions
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.fixAll", arguments=[uris["kernels.py"]])
    )
    assert not SERVER_MARKER.exists()
    assert pycache_dirs(ws.parent) == []
