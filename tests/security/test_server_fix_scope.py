"""The server's quick fixes see every file once and only inside the workspace: a caller
reached through a second name (a link ``alias.py -> program.py``) gets one edit per call,
whichever of the two names is open, in the quick fix and in fix-all."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient
from server.conftest import SERVER, Session, initialize_params, make_client
from server.test_actions import actions_for

FIX_ALL = "source.fixAll.passlint"
CROSS = Path(__file__).resolve().parents[1] / "data" / "pl" / "cross_file"


@pytest_lsp.fixture(
    params=["vscode"],
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def aliased(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    root = request.getfixturevalue("tmp_path") / "ws"
    root.mkdir()
    for name in ("kernels.py", "program.py"):
        shutil.copy(CROSS / name, root / name)
    os.symlink("program.py", root / "alias.py")
    await lsp_client.initialize_session(initialize_params(request.param, root))
    lsp_client.session = Session(lsp_client, root, request.param)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def edits_by_file(fix: dict[str, Any], root: Path) -> dict[str, list[str]]:
    """The new texts of the fix's edits, by the real file each edits."""
    found: dict[str, list[str]] = {}
    for document in fix["files"]:
        path = os.path.realpath(to_fs_path(document["uri"]) or "")
        name = os.path.relpath(path, os.path.realpath(root))
        found.setdefault(name, []).extend(edit["newText"] for edit in document["edits"])
    return found


async def test_a_caller_reached_twice_gets_one_edit_per_call(aliased: LanguageClient) -> None:
    session: Session = aliased.session  # type: ignore[attr-defined]
    for opened in ([], ["alias.py"], ["alias.py", "program.py"]):
        for name in opened:
            session.open(name)
        uri = session.uri("kernels.py")
        if uri not in session.texts:
            session.open("kernels.py")
        (finding,) = [d for d in await session.diagnostics(uri) if d.code == "VS001"]
        assert isinstance(finding.data, dict)
        fix = finding.data["fix"]
        assert fix["title"].endswith("at 2 call sites"), opened
        assert edits_by_file(fix, session.root) == {
            "kernels.py": ["VALID_COLS: pl.Scalar[pl.INDEX],\n    "],
            "program.py": ["cols, ", "width, "],
        }, opened
        for kind, title in ((types.CodeActionKind.QuickFix, fix["title"]), (FIX_ALL, None)):
            actions = await actions_for(session, uri, [finding], [kind])
            (action,) = [a for a in actions if a.kind == kind and title in (None, a.title)]
            assert _edited_files(action.edit, session.root) == {
                "kernels.py": 1,
                "program.py": 2,
            }, (opened, kind)
        session.change(uri, session.texts[uri] + "\n")  # a new version for the next round


def _edited_files(edit: types.WorkspaceEdit | None, root: Path) -> dict[str, int]:
    """How many text edits ``edit`` makes in each real file."""
    assert edit is not None and edit.document_changes is not None
    found: dict[str, int] = {}
    for change in edit.document_changes:
        assert isinstance(change, types.TextDocumentEdit)
        path = os.path.realpath(to_fs_path(change.text_document.uri) or "")
        name = os.path.relpath(path, os.path.realpath(root))
        found[name] = found.get(name, 0) + len(change.edits)
    return found
