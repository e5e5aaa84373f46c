"""Source locations lead only into the workspace: hover and go-to-definition on a ``loc()``
naming a file outside (``/etc/passwd``, ``../..``, a link inside that points out) show no line
of it and return no URI of it; one naming a FIFO, a device or a file of gigabytes answers at
once, without reading it. A file inside, named by its absolute path, is shown as always."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient
from server.conftest import SERVER, Session, initialize_params, make_client

ANSWER_WITHIN = 5.0  # seconds: every answer here is immediate


def module(files: list[str]) -> str:
    """An exported module whose ops are located in ``files``, one op per file (line i+2)."""
    ops = "".join(
        f'    %{i} = stablehlo.sine %arg0 : tensor<4xf32> loc("{name}":1:1)\n'
        for i, name in enumerate(files)
    )
    return (
        "module @jit_model {\n"
        "  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        f"{ops}"
        "    return %arg0 : tensor<4xf32>\n"
        "  }\n"
        "}\n"
    )


def make_tree(base: Path) -> dict[str, str]:
    """``base/ws/proj`` (the workspace's document folder) and ``base/outside``; the names a
    loc() may give, by what they lead to."""
    ws, outside = base / "ws", base / "outside"
    (ws / "proj").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.py").write_text("SECRET_LINE = 'outside'\n")
    (ws / "proj" / "inside.py").write_text("INSIDE_LINE = 'inside'\n")
    os.symlink(outside / "secret.py", ws / "proj" / "link.py")
    os.mkfifo(ws / "proj" / "pipe.py")
    os.symlink("/dev/zero", ws / "proj" / "zero.py")
    with open(ws / "proj" / "huge.txt", "wb") as handle:
        handle.truncate(2 << 30)  # 2 GiB without a line break (sparse: no disk used)
    return {
        "system": "/etc/passwd",
        "climbing": "../../outside/secret.py",
        "absolute outside": str(outside / "secret.py"),
        "link out": "link.py",
        "absolute inside": str(ws / "proj" / "inside.py"),
        "fifo": "pipe.py",
        "device": "zero.py",
        "device by name": "/dev/zero",
        "huge": "huge.txt",
    }


@pytest_lsp.fixture(
    params=["vscode", "neovim-0.11"],
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def located_lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    base = request.getfixturevalue("tmp_path")
    names = make_tree(base)
    root = base / "ws"
    await lsp_client.initialize_session(initialize_params(request.param, root))
    session = Session(lsp_client, root, request.param)
    uri = session.open("proj/export.mlir", module(list(names.values())))
    await session.diagnostics(uri)
    lsp_client.located = (session, uri, names, base)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def located(located_lsp: LanguageClient) -> Any:
    """The session, the module's URI, the names its loc()s give, the base folder."""
    return located_lsp.located  # type: ignore[attr-defined]


async def ask(session: Session, uri: str, line: int) -> tuple[str, list[str]]:
    """Hover text and definition targets on the loc() of module line ``line``."""
    text = session.texts[uri].split("\n")[line]
    at = types.Position(line=line, character=text.index("loc(") + 1)
    document = types.TextDocumentIdentifier(uri=uri)
    started = time.monotonic()
    hover = await asyncio.wait_for(
        session.client.text_document_hover_async(
            types.HoverParams(text_document=document, position=at)
        ),
        ANSWER_WITHIN,
    )
    targets = await asyncio.wait_for(
        session.client.text_document_definition_async(
            types.DefinitionParams(text_document=document, position=at)
        ),
        ANSWER_WITHIN,
    )
    assert time.monotonic() - started < ANSWER_WITHIN
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert isinstance(targets, list)
    return hover.contents.value, [t.uri for t in targets if isinstance(t, types.Location)]


OUTSIDE = ["system", "climbing", "absolute outside", "link out"]
UNREADABLE = ["fifo", "device", "device by name", "huge"]


@pytest.mark.parametrize("case", OUTSIDE)
async def test_a_location_outside_shows_nothing_of_it(located: Any, case: str) -> None:
    session, uri, names, _ = located
    text, targets = await ask(session, uri, 2 + list(names).index(case))
    assert f"- `{names[case]}:1:1`" in text  # the location itself, as written
    assert "root:" not in text and "SECRET_LINE" not in text
    assert targets == []


@pytest.mark.parametrize("case", UNREADABLE)
async def test_a_location_naming_what_is_no_source_file_answers_at_once(
    located: Any, case: str
) -> None:
    session, uri, names, base = located
    text, targets = await ask(session, uri, 2 + list(names).index(case))
    assert text.splitlines()[-1] == f"- `{names[case]}:1:1`"  # no line quoted
    huge = from_fs_path(str(base / "ws" / "proj" / "huge.txt"))
    assert targets == ([huge] if case == "huge" else [])  # a regular file inside: a target


async def test_a_location_inside_by_its_absolute_path_is_shown(located: Any) -> None:
    session, uri, names, base = located
    text, targets = await ask(session, uri, 2 + list(names).index("absolute inside"))
    assert "`INSIDE_LINE = 'inside'`" in text
    assert targets == [from_fs_path(str(base / "ws" / "proj" / "inside.py"))]
