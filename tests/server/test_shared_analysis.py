"""One analysis per document version serves the diagnostics and every feature: no feature
parses the document again, and right after an edit the features answer from the last
analysis moved through the edit, before the new version's analysis is in."""

from __future__ import annotations

from typing import Any

import pytest
from lsprotocol import types

from .conftest import Session, doc, pos

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

EXPORT = "located/export.mlir"


async def parses(session: Session) -> Any:
    return await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.test.parses", arguments=[])
    )


async def every_feature(session: Session, uri: str, line: int) -> dict[str, Any]:
    """Each feature once at ``line`` (the line of ``%2 = stablehlo.add``)."""
    client = session.client
    whole = types.Range(start=pos(0, 0), end=pos(60, 0))
    return {
        "hover": await client.text_document_hover_async(
            types.HoverParams(text_document=doc(uri), position=pos(line, 5))
        ),
        "definition": await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc(uri), position=pos(line, 25))
        ),
        "references": await client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc(uri),
                position=pos(line, 25),
                context=types.ReferenceContext(include_declaration=True),
            )
        ),
        "symbols": await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=doc(uri))
        ),
        "hints": await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc(uri), range=whole)
        ),
        "folding": await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=doc(uri))
        ),
        "completion": await client.text_document_completion_async(
            types.CompletionParams(text_document=doc(uri), position=pos(line, 25))
        ),
        "prepare_rename": await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=doc(uri), position=pos(line, 25))
        ),
    }


async def test_features_do_not_parse_again(hooked: Session) -> None:
    uri = hooked.open(EXPORT)
    await hooked.diagnostics(uri)
    assert await parses(hooked) == 1
    found = await every_feature(hooked, uri, 4)
    assert all(found.values()), found
    await hooked.client.text_document_rename_async(
        types.RenameParams(text_document=doc(uri), position=pos(4, 25), new_name="%one")
    )
    assert await parses(hooked) == 1  # the analysis' parse served every feature


async def test_features_answer_from_the_last_analysis_right_after_an_edit(
    hooked: Session,
) -> None:
    if hooked.mode != "push":
        pytest.skip("the publication of the new version is what tells it has not come")
    uri = hooked.open(EXPORT, "// SLOW(3)\n" + (hooked.root / EXPORT).read_text())
    before = await hooked.diagnostics(uri)
    old = await every_feature(hooked, uri, 5)
    hooked.edit(uri, types.Range(start=pos(0, 0), end=pos(0, 0)), "// a line\n// another\n")
    version = hooked.versions[uri]
    new = await every_feature(hooked, uri, 7)
    assert not [p for p in hooked.published if p.uri == uri and p.version == version]

    # the same answers, two lines further down
    assert new["hover"].range.start.line == old["hover"].range.start.line + 2
    assert [loc.range.start.line for loc in new["definition"]] == [
        loc.range.start.line + 2 for loc in old["definition"]
    ]
    assert [h.position.line for h in new["hints"]] == [h.position.line + 2 for h in old["hints"]]
    assert list(new["folding"]) == [
        types.FoldingRange(start_line=r.start_line + 2, end_line=r.end_line + 2, kind=r.kind)
        for r in old["folding"]
    ]
    assert [i.label for i in new["completion"].items] == [i.label for i in old["completion"].items]
    # and the quick fix published for the last version, moved too
    (tl001,) = [d for d in before if d.code == "TL001"]
    actions = await hooked.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=tl001.range,
            context=types.CodeActionContext(diagnostics=[tl001], only=["quickfix"]),
        )
    )
    (fix,) = [a for a in actions or [] if isinstance(a, types.CodeAction) and a.is_preferred]
    assert fix.edit is not None
    assert not [p for p in hooked.published if p.uri == uri and p.version == version]
