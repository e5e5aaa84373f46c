"""Hover, inlay hints, document symbols, definition, references and the legalized-module
command end to end, on .mlir (plain and `// -----` split) and pl fixtures."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import Session, doc, pos

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


def starts(locations: object) -> list[tuple[int, int]]:
    assert isinstance(locations, list | tuple)
    return [(loc.range.start.line, loc.range.start.character) for loc in locations]


async def test_hover_on_returned_input(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(26, 18))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    # what the value is, then the pass's section: TL001 beside it says what the pass does,
    # so the hover does not say it again
    assert hover.contents.value == (
        "`%arg0`: `tensor<8x4xf32>`\n\nargument 0 of `@main` (`func.func`, line 5) · 2 uses"
        "\n\n---\n\n"
        "**TensorizerLegalization** (StableHLO variant)\n\n- output 0 `passthrough` (input, TL001)"
    )
    assert hover.range == types.Range(start=pos(26, 16), end=pos(26, 21))


async def test_hover_on_fusion_and_composite(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    sched = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(26, 35))
    )
    assert sched is not None and isinstance(sched.contents, types.MarkupContent)
    assert "output 3 `sched` (fusion)" in sched.contents.value
    assert "stablehlo.tanh" in sched.contents.value
    comp = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(24, 10))
    )
    assert comp is not None and isinstance(comp.contents, types.MarkupContent)
    # no CompositeKind: the pass names the composite itself, not its decomposition
    assert "output 6 `comp` (compute)" in comp.contents.value
    assert "slot 0 of `stablehlo.composite`" in comp.contents.value
    nothing = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(0, 3))
    )
    assert nothing is None


async def test_inlay_hints(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=doc(uri), range=types.Range(start=pos(0, 0), end=pos(40, 0))
        )
    )
    assert hints is not None
    got = [(h.position.line, h.position.character, h.label) for h in hints]
    assert got == [
        (4, 40, "→ copy 'passthrough'"),
        (4, 62, "→ copy 'bias_copy'"),
        (4, 86, "→ 'empty'"),
        (5, 60, "→ copy 'splat'"),
        (13, 91, "→ 'fused'"),
        (16, 48, "→ 'sched'"),
        (24, 182, "→ 'comp'"),  # no CompositeKind: named on the composite itself
        (25, 61, "→ 'copied'"),
    ]
    part = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=doc(uri), range=types.Range(start=pos(10, 0), end=pos(20, 0))
        )
    )
    assert part is not None and [h.label for h in part] == ["→ 'fused'", "→ 'sched'"]


async def test_inlay_hints_in_split_file(session: Session) -> None:
    uri = session.open("mlir/split.mlir")
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=doc(uri), range=types.Range(start=pos(0, 0), end=pos(30, 0))
        )
    )
    assert hints is not None
    assert [(h.position.line, h.label) for h in hints] == [
        (2, "→ 'output0'"),
        (8, "→ copy 'output0'"),
        (15, "→ copy 'output0'"),
        (20, "→ 'output1'"),
    ]


async def test_document_symbols(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert symbols is not None
    (module,) = symbols
    assert isinstance(module, types.DocumentSymbol) and module.name == "@hybrid"
    assert [c.name for c in module.children or []] == ["@main", "@my.scale"]
    main = (module.children or [])[0]
    assert main.kind == types.SymbolKind.Function
    assert main.detail is not None and main.detail.startswith("8 outputs: passthrough")
    assert main.selection_range.start == pos(4, 12)


async def test_split_file_symbols(session: Session) -> None:
    uri = session.open("mlir/split.mlir")
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert symbols is not None
    assert [s.name for s in symbols if isinstance(s, types.DocumentSymbol)] == [
        "chunk 1",
        "chunk 2",
        "chunk 3",
    ]
    third = symbols[2]
    assert isinstance(third, types.DocumentSymbol)
    assert third.range.start.line == 14


async def test_pl_symbols(session: Session) -> None:
    uri = session.open("pl/softmax_prepare.py")
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert symbols is not None
    names = [(s.name, s.detail) for s in symbols if isinstance(s, types.DocumentSymbol)]
    assert names == [
        ("Q", 'pl.dynamic("Q")'),
        ("BLK", 'pl.dynamic("BLK")'),
        ("VALID", 'pl.dynamic("VALID")'),
        ("softmax_prepare", "InCore kernel"),
        ("Attention", "pl.program"),
    ]
    program = symbols[-1]
    assert isinstance(program, types.DocumentSymbol)
    assert [c.name for c in program.children or []] == ["entry"]


async def definition(session: Session, uri: str, line: int, character: int) -> object:
    return await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, character))
    )


async def references(session: Session, uri: str, line: int, character: int) -> object:
    return await session.client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri),
            position=pos(line, character),
            context=types.ReferenceContext(include_declaration=True),
        )
    )


async def test_mlir_definitions_and_references(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    assert starts(await definition(session, uri, 26, 35)) == [(14, 4)]  # %1
    assert starts(await references(session, uri, 26, 35)) == [(14, 4), (26, 34)]
    assert starts(await definition(session, uri, 25, 22)) == [(19, 4)]  # %2#0
    assert starts(await definition(session, uri, 16, 28)) == [(15, 9)]  # block arg %q0
    assert starts(await definition(session, uri, 24, 117)) == [(28, 20)]  # @my.scale
    assert starts(await references(session, uri, 28, 22)) == [(24, 114), (28, 20)]
    assert starts(await definition(session, uri, 26, 18)) == [(4, 18)]  # %arg0 of @main


async def test_split_file_definitions(session: Session) -> None:
    uri = session.open("mlir/split.mlir")
    # %arg0 of the second chunk, not the first: chunks are separate modules
    assert starts(await definition(session, uri, 9, 10)) == [(8, 16)]
    assert starts(await references(session, uri, 3, 10)) == [(2, 2), (3, 9)]


async def test_pl_definitions_and_references(session: Session) -> None:
    uri = session.open("pl/softmax_prepare.py")
    assert starts(await definition(session, uri, 30, 18)) == [(11, 4)]  # softmax_prepare
    assert starts(await definition(session, uri, 13, 50)) == [(7, 0)]  # VALID
    assert starts(await references(session, uri, 13, 50)) == [(7, 0), (13, 49)]


async def test_legalized_module_command(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    text = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.legalizedModule", arguments=[uri])
    )
    assert isinstance(text, str) and "func.func public @main" in text


async def test_legalized_module_warns_of_a_name_placed_without_certainty(session: Session) -> None:
    """The text has the name before the unknown custom form's ':', and a warning says so."""
    uri = session.open(
        "mlir/unknown_form.mlir",
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = mydialect.op %arg0 : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}\n",
    )
    text = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.legalizedModule", arguments=[uri])
    )
    assert "%0 = mydialect.op %arg0 {neuron.symName = [@output0]} : tensor<4xf32>" in text
    await session.wait_for(lambda: session.client.messages)
    (message,) = session.client.messages
    assert message.type == types.MessageType.Warning
    assert message.message == (
        "Legalized module, line 2: `mydialect.op` is in a custom form passlint does not know: "
        "its neuron.symName is placed before its ':', where most custom forms take attributes; "
        "MLIR may reject it."
    )
