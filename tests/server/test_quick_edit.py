"""Incremental edits of a large .mlir, end to end: the server applies each didChange itself,
its quick run reuses the last answer where the edit leaves it alone, and each version's
published diagnostics are the quick answer from scratch for that version's text."""

from __future__ import annotations

import asyncio
import functools
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from passlint.quick import quick_analyze

from .conftest import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def spans(diagnostics: list[types.Diagnostic]) -> list[tuple[object, int, int, int, int]]:
    return [
        (
            d.code,
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
        )
        for d in diagnostics
    ]


def expected(text: str) -> list[tuple[object, int, int, int, int]]:
    quick = quick_analyze("big.mlir", text)
    assert quick is not None
    return [
        (f.code, f.range.start.line, f.range.start.column, f.range.end.line, f.range.end.column)
        for f in quick
    ]


async def test_each_version_gets_its_own_quick_answer(hooked: Session) -> None:
    if hooked.mode != "push":
        pytest.skip("versions are visible on published diagnostics")
    text = "// SLOW(10)\n" + mlir_module(70)  # ~650 KB; the quick answers come first
    uri = hooked.open("big.mlir", text)
    assert spans(await hooked.diagnostics(uri)) == expected(text)
    rows = text.split("\n")
    ret = next(i for i, row in enumerate(rows) if row.startswith("    return "))
    edits = [
        (types.Range(start=at(40, 4), end=at(40, 4)), "  "),  # in the body: reused
        (
            types.Range(start=at(50, 0), end=at(50, 0)),
            "    %extra = stablehlo.abs %arg0 : tensor<4xf32>\n",
        ),
        (types.Range(start=at(60, 0), end=at(62, 0)), ""),  # two lines fewer
        (types.Range(start=at(ret - 1, 11), end=at(ret - 1, 11)), "x"),  # the returned names
        (types.Range(start=at(ret - 1, 11), end=at(ret - 1, 12)), ""),  # ... and back
        (
            types.Range(start=at(ret - 1, 0), end=at(ret - 1, 0)),
            "    %output1_copy = stablehlo.abs %76 : tensor<4xf32>\n",
        ),
        (types.Range(start=at(ret, 0), end=at(ret, 0)), "// passlint: ignore[TL001]\n"),
        (types.Range(start=at(ret + 1, 11), end=at(ret + 1, 11)), "%arg2, "),
    ]
    for rng, new_text in edits:
        hooked.edit(uri, rng, new_text)
        got = spans(await hooked.diagnostics(uri))
        assert got == expected(hooked.texts[uri]), (rng, new_text)


async def test_runs_stopped_with_another_documents_process_run_again(hooked: Session) -> None:
    """A newer version of one large document stops the analysis process, and with it the
    runs of other documents there: they still give their full results."""
    if hooked.mode != "push":
        pytest.skip("the pull path is the same scheduling")
    slow = hooked.open("slow.mlir", "// SLOW(2)\n" + mlir_module(70))
    await asyncio.sleep(0.5)  # its full run holds the analysis process
    broken = mlir_module(70).replace(" : tensor<4x128x128xf32>\n", " : tensor<4x128x128xf32>)\n", 1)
    others = [hooked.open(f"other{i}.mlir", broken) for i in range(2)]  # queued behind it
    await asyncio.sleep(0.5)
    hooked.edit(slow, types.Range(start=at(40, 4), end=at(40, 4)), " ")

    for uri in others:
        full = functools.partial(hooked.last_published_with, uri, "E009")
        diagnostics = await hooked.wait_for(full, timeout=60)
        assert [d.code for d in diagnostics] == ["E009", "TL001", "TL002"]


async def test_a_syntax_error_stays_shown_while_the_next_full_analysis_runs(
    hooked: Session,
) -> None:
    """The quick answer of an edit keeps the last full analysis' syntax error (moved down by
    the line the edit added) rather than hiding it until the next full result."""
    if hooked.mode != "push":
        pytest.skip("versions are visible on published diagnostics")
    module = mlir_module(70)
    broken = module.replace(" : tensor<4x128x128xf32>\n", " : tensor<4x128x128xf32>)\n", 1)
    uri = hooked.open("broken.mlir", "// SLOW(2)\n" + broken)

    first = await hooked.wait_for(
        functools.partial(hooked.last_published_with, uri, "E009"), timeout=60
    )
    error = next(d for d in first if d.code == "E009")
    version = hooked.edit(uri, types.Range(start=at(1, 0), end=at(1, 0)), "// a new line\n")

    def quick() -> list[types.Diagnostic] | None:
        for params in hooked.published:
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        return None

    answer = await hooked.wait_for(quick)  # the first answer for the new version
    moved = [d for d in answer if d.code == "E009"]
    assert [(d.range.start.line, d.message) for d in moved] == [
        (error.range.start.line + 1, error.message)
    ]
    assert {d.code for d in answer} == {d.code for d in first}
