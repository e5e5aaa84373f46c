"""Completion as the client has the document (issue 30, point 1): the word being typed is
not offered as an item of its own, and the names the lines edited since the last analysis
define are offered at once, before that analysis is in."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from passlint import pipeline
from passlint.analysis.source import SourceText
from passlint.analysis.text_change import replace_span
from passlint.server.completion import items, typed_only_here
from passlint.server.mlir_index import build_index
from passlint.server.pending_names import changed_spans, pending_names
from passlint.server.views import MlirView, Shift

from .conftest import Session, doc, pos

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

DATA = Path(__file__).resolve().parents[1] / "data"
EXPORT = "located/export.mlir"
TEXT = (DATA / "server" / EXPORT).read_text()


def labels(view: MlirView, offset: int) -> list[str]:
    line_start = view.source.text.rfind("\n", 0, offset) + 1
    return [item.label for item in items(view, offset, view.source.text[line_start:offset])[0]]


def analysed(text: str) -> MlirView:
    analysis = pipeline.analyze_document("x.mlir", text)
    assert analysis.parsed is not None
    index = build_index(analysis.parsed, SourceText(text), analysis.tensorizer, [])
    return MlirView(index, Shift(), SourceText(text))


def typed(view: MlirView, line: int, inserted: str) -> MlirView:
    """``view``'s index seen from its text with ``inserted`` at the start of ``line``."""
    text = view.source.text
    start = SourceText(text).line_starts[line]
    new, change = replace_span(text, start, start, inserted, line)
    return MlirView(view.index, Shift([*view.shift.changes, change]), SourceText(new))


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("    %3 = stablehlo.ad", "stablehlo.ad"),
        ("    st", "st"),
        ("    %3 = func.call @he", "@he"),
        ("    %3 = stablehlo.abs %ar", "%ar"),
        ("    cf.br ^b", "^b"),
    ],
)
def test_the_half_typed_word_the_analysis_saw_is_not_offered(line: str, word: str) -> None:
    text = TEXT.replace("    return %2, %arg0", line + "\n    return %2, %arg0", 1)
    view = analysed(text)  # the analysis already read the half-typed word
    offset = text.index(line) + len(line)
    assert word not in labels(view, offset)


def test_a_complete_name_written_elsewhere_is_still_offered() -> None:
    line = "    %3 = func.call @helper"
    text = TEXT.replace("    return %2, %arg0", line + "\n    return %2, %arg0", 1)
    assert "@helper" in labels(analysed(text), text.index(line) + len(line))
    assert not typed_only_here(text, "@helper", text.index(line) + len(line) - 7)
    assert typed_only_here("a %x b", "%x", 2) and not typed_only_here("%x %x", "%x", 3)


def test_values_labels_and_symbols_of_the_edited_lines_are_offered_before_the_analysis() -> None:
    view = typed(analysed(TEXT), 5, "    %7 = stablehlo.abs %2 : tensor<4xf32>\n")
    view = typed(view, 6, "    %8:2 = stablehlo.custom_call @f(%7) : (tensor<4xf32>) -> \n")
    view = typed(view, 7, "    %9 = stablehlo.add %")
    offset = view.source.line_starts[7] + len("    %9 = stablehlo.add %")
    found = labels(view, offset)
    assert {"%7", "%8#0", "%8#1", "%2", "%arg0"} <= set(found)
    assert "%9" not in found  # defined on the cursor's line: not usable there
    spans = changed_spans(view.shift)
    assert len(spans) == 1  # three lines typed one after another: one span
    names = pending_names(view.source.text, spans)
    assert [name for name, _ in names.values][:3] == ["%7", "%8#0", "%8#1"]


def test_labels_arguments_and_symbols_of_edited_lines() -> None:
    text = "func.func @fresh(%a: i32) {\n^bb9(%b: i32):\n  return\n}\n"
    names = pending_names(text, [(0, len(text))])
    assert [name for name, _ in names.values] == ["%a", "%b"]
    assert names.labels == ["^bb9"] and names.symbols == ["@fresh"]


def test_changed_spans_follow_later_edits() -> None:
    text = "a\nb\nc\nd\n"
    first, change1 = replace_span(text, 6, 6, "X\n", 3)  # a line before d
    second, change2 = replace_span(first, 0, 0, "Y\n", 0)  # a line before a: moves it
    spans = changed_spans(Shift([change1, change2]))
    assert [second[s:e] for s, e in spans] == ["Y\na", "X\nd"]


async def complete(session: Session, uri: str, line: int, character: int) -> list[str]:
    found = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(found, types.CompletionList)
    return [item.label for item in found.items]


async def test_through_the_client_the_typed_word_is_never_an_item(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    line = "    %3 = func.call @he"
    editor.edit(uri, types.Range(start=pos(5, 0), end=pos(5, 0)), line + "\n")
    await editor.diagnostics(uri)  # analysed with the half-typed word in it
    found = await complete(editor, uri, 5, len(line))
    assert "@he" not in found and "@helper" in found


async def test_the_value_defined_on_the_line_above_is_in_the_first_answer(
    editor: Session,
) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    editor.edit(
        uri,
        types.Range(start=pos(5, 0), end=pos(5, 0)),
        "    %fresh = stablehlo.abs %2 : tensor<4xf32>\n    %",
    )
    assert "%fresh" in await complete(editor, uri, 6, 5)  # no waiting for the analysis
