"""pl names as CPython reads them, end to end: hover, definition, references and document
symbols find names of any script (``données``, ``核``), names spelled in another NFKC form
(a fullwidth k, U+FF4B, is ``k``), a ``def`` whose name follows a backslash continuation, on
lines ending at ``\\n``, ``\\r\\n`` or a lone ``\\r``; exact ranges (UTF-16 columns)."""

from __future__ import annotations

from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from passlint.analysis.source import SourceText
from passlint.server.names import defined_name_span, name_span, word_at

from .conftest import SERVER, Session, doc, make_client, pos, rng, start_session

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

NAMES = """\
import pypto.language as pl

données = pl.dynamic("données")
核 = pl.dynamic("核")


@pl.function(type=pl.FunctionType.InCore)
def \uff4b(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[données, 核])]):
    return x


@pl.function(type=pl.FunctionType.InCore)
def \\
        scale(y: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, 核])]):
    return y


@pl.function(type=pl.FunctionType.Orchestration)
def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):
    k(pl.slice(src, [16, 128], [0, 0], valid_shape=[n, 16]))
    return scale(src)
"""

LINE_ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}
LONE_CR_LINES = SourceText("a\rb").line_count == 2


@pytest_lsp.fixture(
    params=["vscode"],
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def vscode(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    await start_session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def session(vscode: LanguageClient) -> Session:
    return vscode.session  # type: ignore[attr-defined,no-any-return]


async def hover(session: Session, uri: str, line: int, character: int) -> tuple[str, types.Range]:
    found = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, character))
    )
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    assert found.range is not None
    return found.contents.value, found.range


async def definition(session: Session, uri: str, line: int, character: int) -> list[Any]:
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(found, list | tuple)
    return [(location.uri, location.range) for location in found]


async def references(session: Session, uri: str, line: int, character: int) -> list[Any]:
    found = await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri),
            position=pos(line, character),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert isinstance(found, list | tuple)
    return [(location.uri, location.range) for location in found]


def with_line_ends(ending: str) -> str:
    if ending == "\r" and not LONE_CR_LINES:
        pytest.xfail("SourceText ends lines at \\n and \\r\\n only (a lone \\r: h-mlir)")
    return NAMES.replace("\n", ending)


@pytest.mark.parametrize("ending", LINE_ENDS.values(), ids=LINE_ENDS.keys())
async def test_hover_on_names_of_any_script(session: Session, ending: str) -> None:
    uri = session.open("names.py", with_line_ends(ending))
    text, found = await hover(session, uri, 7, 69)  # données in k's valid_shape
    assert found == rng(7, 66, 73)
    assert text.startswith(
        "**MaterializeValidShapeSymbols**\n\n"
        "valid_shape symbol `données` of kernel `k`: **unbound**; slots: `x` dim 0."
    )
    text, found = await hover(session, uri, 7, 76)  # 核 in k's valid_shape
    assert found == rng(7, 75, 76)
    assert "valid_shape symbol `核` of kernel `k`: **unbound**; slots: `x` dim 1." in text
    assert "- names.py:20 `k`: passes `16`" in text
    text, found = await hover(session, uri, 7, 4)  # the fullwidth kernel name
    assert found == rng(7, 4, 5)
    assert text.startswith("**MaterializeValidShapeSymbols**\n\nInCore kernel `k`: ")
    text, found = await hover(session, uri, 13, 10)  # the name after `def \`
    assert found == rng(13, 8, 13)
    assert "InCore kernel `scale`: valid_shape symbols `核` (unbound)." in text
    text, found = await hover(session, uri, 13, 14)  # its parameter
    assert found == rng(13, 14, 15)
    assert text.endswith("parameter `y` (tensor, in) of kernel `scale`: slot of `核` (dim 1).")


@pytest.mark.parametrize("ending", LINE_ENDS.values(), ids=LINE_ENDS.keys())
async def test_definition_and_references_of_names_of_any_script(
    session: Session, ending: str
) -> None:
    uri = session.open("names.py", with_line_ends(ending))
    assert await definition(session, uri, 7, 70) == [(uri, rng(2, 0, 7))]  # données
    assert await definition(session, uri, 13, 78) == [(uri, rng(3, 0, 1))]  # 核
    assert await definition(session, uri, 19, 4) == [
        (uri, rng(7, 4, 5))
    ]  # k( -> def of the fullwidth k
    assert await definition(session, uri, 20, 12) == [(uri, rng(13, 8, 13))]  # scale(
    assert await references(session, uri, 3, 0) == [
        (uri, rng(3, 0, 1)),
        (uri, rng(7, 75, 76)),
        (uri, rng(13, 78, 79)),
    ]
    assert await references(session, uri, 7, 4) == [(uri, rng(7, 4, 5)), (uri, rng(19, 4, 5))]


@pytest.mark.parametrize("ending", LINE_ENDS.values(), ids=LINE_ENDS.keys())
async def test_document_symbols_of_names_of_any_script(session: Session, ending: str) -> None:
    uri = session.open("names.py", with_line_ends(ending))
    found = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert found is not None
    assert [(s.name, s.selection_range) for s in found if isinstance(s, types.DocumentSymbol)] == [
        ("données", rng(2, 0, 7)),
        ("核", rng(3, 0, 1)),
        ("k", rng(7, 4, 5)),
        ("scale", rng(13, 8, 13)),
        ("main", rng(18, 4, 8)),
    ]


async def test_completion_of_a_name_typed_in_any_script(session: Session) -> None:
    uri = session.open("names.py", NAMES)
    for character, typed, offered in ((71, (66, 71), "données"), (76, (75, 76), "核")):
        found = await session.client.text_document_completion_async(
            types.CompletionParams(text_document=doc(uri), position=pos(7, character))
        )
        assert isinstance(found, types.CompletionList)
        assert [(i.label, i.text_edit) for i in found.items] == [
            (offered, types.TextEdit(range=rng(7, *typed), new_text=offered))
        ]


# -- the text searches themselves ----------------------------------------------------------------


@pytest.mark.parametrize("ending", LINE_ENDS.values(), ids=LINE_ENDS.keys())
def test_word_at_reads_names_as_cpython_does(ending: str) -> None:
    text = ending.join(["données = 1; 核=2  # x→y", "\uff4b ﬁx 12ab e\u0301t"])
    second = text.index("\uff4b")
    assert word_at(text, 0) == ("données", (0, 7))
    assert word_at(text, 7) == ("données", (0, 7))  # its end counts
    assert word_at(text, 8) is None
    assert word_at(text, 13) == ("核", (13, 14))
    assert word_at(text, text.index("→")) == ("x", (20, 21))  # not a name's character
    assert word_at(text, second) == ("k", (second, second + 1))
    assert word_at(text, second + 2) == ("fix", (second + 2, second + 4))
    assert word_at(text, second + 7) == ("ab", (second + 7, second + 9))  # not from 12
    assert word_at(text, second + 10) == ("ét", (second + 10, second + 13))  # NFKC: é
    assert word_at(text, 23) == ("y", (22, 23))  # the line's end: its own last name


def test_a_defined_name_after_a_continuation_and_in_another_form() -> None:
    for text in (
        "def \\\n  \uff4b(x): ...",
        "def \\\r\n  \uff4b(x): ...",
        "def\t\\\r  \uff4b(x): ...",
    ):
        start = text.index("\uff4b")
        assert defined_name_span(text, 0, len(text), "def", "k") == (start, start + 1)
    assert defined_name_span("def kk(x): ...", 0, 14, "def", "k") is None
    assert name_span("a, ﬁ = 1", 0, 8, "fi") == (3, 4)
