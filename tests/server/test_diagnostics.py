"""Diagnostics end to end: push or pull per client, exact UTF-16 ranges, rule metadata,
split files, configuration, cross-file pl findings, never both push and pull."""

from __future__ import annotations

import pytest
from lsprotocol import types

from passlint.catalog import RULES

from .conftest import Session

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def rng(a: int, b: int, c: int, d: int) -> types.Range:
    return types.Range(
        start=types.Position(line=a, character=b), end=types.Position(line=c, character=d)
    )


def summary(diagnostics: list[types.Diagnostic]) -> list[tuple[str, types.Range]]:
    return [(str(d.code), d.range) for d in diagnostics]


async def test_aliased_output(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    diagnostics = await session.diagnostics(uri)
    assert summary(diagnostics) == [("TL001", rng(3, 15, 3, 20))]
    (d,) = diagnostics
    assert d.source == "passlint"
    assert d.severity == types.DiagnosticSeverity.Warning
    assert "returns input `%arg1`; copy it before the return." in d.message
    assert RULES["TL001"].url is None and d.code_description is None  # no page: no link
    assert d.related_information is not None
    assert d.related_information[0].location.uri == uri
    assert d.related_information[0].location.range == rng(1, 47, 1, 52)
    assert isinstance(d.data, dict) and d.data["version"] == 1


async def test_utf16_ranges(session: Session) -> None:
    uri = session.open("mlir/unicode.mlir")
    diagnostics = await session.diagnostics(uri)
    # Line 1 holds four astral characters before the end of output_names: each counts as
    # two UTF-16 code units, so the character column 101 becomes 105.
    assert summary(diagnostics) == [
        ("TL004", rng(0, 84, 0, 105)),
        ("TL001", rng(2, 9, 2, 14)),
    ]


async def test_split_file_positions(session: Session) -> None:
    uri = session.open("mlir/split.mlir")
    diagnostics = await session.diagnostics(uri)
    assert summary(diagnostics) == [("TL001", rng(9, 9, 9, 14)), ("TL002", rng(21, 9, 21, 11))]


async def test_clean_and_fixed_documents(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    assert len(await session.diagnostics(uri)) == 1
    text = session.texts[uri].replace("return %0, %arg1", "return %0, %0")
    session.change(uri, text)
    assert summary(await session.diagnostics(uri)) == [("TL003", rng(3, 15, 3, 17))]
    session.change(uri, text.replace("return %0, %0", "return %0"))
    # now two results for one return type: still parses; only the count differs
    assert all(d.code != "TL001" for d in await session.diagnostics(uri))


async def test_incremental_edit(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    await session.diagnostics(uri)
    session.edit(uri, rng(3, 15, 3, 20), "%0")
    assert summary(await session.diagnostics(uri)) == [("TL003", rng(3, 15, 3, 17))]


async def test_pl_diagnostic(session: Session) -> None:
    uri = session.open("pl/softmax_prepare.py")
    (d,) = await session.diagnostics(uri)
    assert d.code == "VS001"
    assert d.range == rng(13, 49, 13, 54)
    assert d.source == "passlint"


async def test_configuration_from_pyproject(session: Session) -> None:
    uri = session.open("configured/aliased.mlir")
    assert await session.diagnostics(uri) == []


async def test_push_or_pull_never_both(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    await session.diagnostics(uri)
    await session.settle(0.3)
    if session.mode == "pull":
        assert session.published == []
    else:
        assert [p.uri for p in session.published] == [uri]
