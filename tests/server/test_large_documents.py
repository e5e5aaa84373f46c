"""A module of ``pipeline.STREAM_MIN`` bytes or more in the editor, end to end: its first
answer from @main's outline, then the full analysis from the analysis process (which reads
the module from its file, with the edits made since: ``server.disk_copy``) with work-done
progress that tells how much of it is read, and an edit that changes what the module
returns answered for its version."""

from __future__ import annotations

import asyncio
import time

import pytest
from lsprotocol import types

from passlint import pipeline

from .conftest import Session, rng

LINE = "  %{n} = stablehlo.add %{p}, %arg0 : tensor<4x8xf32>\n"


def large_module() -> str:
    """@main of one-line ops, just above ``STREAM_MIN``, returning a computed value and an
    input (TL001)."""
    lines = ["func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {\n"]
    lines.append("  %0 = stablehlo.abs %arg0 : tensor<4x8xf32>\n")
    size, n = sum(map(len, lines)), 1
    while size < pipeline.STREAM_MIN + 1000:
        lines.append(LINE.format(n=n, p=n - 1))
        size += len(lines[-1])
        n += 1
    lines.append(f"  return %{n - 1}, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>\n}}\n")
    return "".join(lines)


async def test_a_large_module_is_answered_then_read_from_its_file(session: Session) -> None:
    if session.name != "vscode":
        pytest.skip("one client is enough for a module of 16 MB (2 shared cores)")
    text = large_module()
    (session.root / "large.mlir").write_text(text)
    uri = session.open("large.mlir")
    started = time.monotonic()
    (first,) = await session.diagnostics(uri)
    assert first.code == "TL001" and time.monotonic() - started < 10

    def reported() -> list[types.WorkDoneProgressReport]:
        return [
            p
            for report in session.client.progress_reports.values()
            for p in report
            if isinstance(p, types.WorkDoneProgressReport)
        ]

    def ended() -> bool:
        kinds = [type(p).__name__ for r in session.client.progress_reports.values() for p in r]
        return kinds[-1:] == ["WorkDoneProgressEnd"]

    await session.wait_for(ended, timeout=60)
    reports = reported()
    assert reports and all(r.percentage is not None for r in reports)
    assert reports[-1].message is not None and "MB" in reports[-1].message
    # The module returns its input at slot 1: an edit makes it return the value above it,
    # which the analysis of the edited file (its pieces) must see.
    lines = text.split("\n")
    last = len(lines) - 3  # the return
    returned = lines[last].index("%arg0 :")
    version = session.edit(uri, rng(last, returned, returned + 5), "%1")
    await asyncio.sleep(0.1)
    diagnostics = await session.diagnostics(uri)
    assert session.versions[uri] == version
    assert [d.code for d in diagnostics] == []
    await session.wait_for(ended, timeout=60)
    await session.settle(1.0)
    assert [d.code for d in await session.diagnostics(uri)] == []


async def test_a_file_the_editor_does_not_hand_over_is_analysed_from_disk(
    session: Session,
) -> None:
    """VS Code hands no file above 50 MB to extensions: the extension asks for the file's
    diagnostics (``passlint.analyzeFile``), read from disk as it is then, with progress; a
    change on disk is seen when it asks again; ``passlint.forgetFile`` lets it go."""
    if session.name != "vscode":
        pytest.skip("one client is enough for a module of 16 MB (2 shared cores)")
    text = large_module()
    path = session.root / "unsynced.mlir"
    path.write_text(text)
    uri = session.uri("unsynced.mlir")

    async def command(name: str) -> object:
        return await asyncio.wait_for(
            session.client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=name, arguments=[uri])
            ),
            60,
        )

    answer = await command("passlint.analyzeFile")
    assert isinstance(answer, dict)
    assert [d["code"] for d in answer["diagnostics"]] == ["TL001"]
    line = len(text.split("\n")) - 3
    assert answer["diagnostics"][0]["range"]["start"]["line"] == line
    reports = [
        p
        for report in session.client.progress_reports.values()
        for p in report
        if isinstance(p, types.WorkDoneProgressReport)
    ]
    assert reports and reports[-1].message is not None and "unsynced.mlir" in reports[-1].message
    path.write_text(
        text.replace(", %arg0 : tensor<4x8xf32>, tensor", ", %1 : tensor<4x8xf32>, tensor")
    )
    answer = await command("passlint.analyzeFile")
    assert isinstance(answer, dict) and answer["diagnostics"] == []
    assert await command("passlint.forgetFile") is True
    assert await command("passlint.forgetFile") is False
    missing = session.uri("missing.mlir")
    assert (
        await asyncio.wait_for(
            session.client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="passlint.analyzeFile", arguments=[missing])
            ),
            60,
        )
        is None
    )
