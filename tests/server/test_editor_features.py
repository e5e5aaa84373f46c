"""The editor features of issue 16 end to end, through push, pull and plain-text clients:
completion, source locations, suppression and explanation actions, rule links, folding,
rename, hover formats, and quick fixes offered right after an edit."""

from __future__ import annotations

import ast

import pytest
from lsprotocol import types

from passlint.catalog import RULES

from .conftest import Session, apply_workspace_edit, doc, pos

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

EXPORT = "located/export.mlir"


def at_line(line: int) -> types.Range:
    return types.Range(start=pos(line, 0), end=pos(line, 0))


def column(session: Session, uri: str, line: int, needle: str, nth: int = 0) -> int:
    text = session.texts[uri].split("\n")[line]
    found = -1
    for _ in range(nth + 1):
        found = text.index(needle, found + 1)
    return found


async def complete(session: Session, uri: str, line: int, character: int) -> list[str]:
    found = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(found, types.CompletionList)
    return [item.label for item in found.items]


async def definition(session: Session, uri: str, line: int, character: int) -> list[object]:
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(found, list)
    return [
        (loc.uri.rsplit("/", 2)[-2:], loc.range.start.line, loc.range.start.character)
        for loc in found
        if isinstance(loc, types.Location)
    ]


async def hover_text(session: Session, uri: str, line: int, character: int) -> str | None:
    found = await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, character))
    )
    if found is None:
        return None
    assert isinstance(found.contents, types.MarkupContent)
    plain = session.name == "eglot"
    assert found.contents.kind == (
        types.MarkupKind.PlainText if plain else types.MarkupKind.Markdown
    )
    if plain:
        assert "**" not in found.contents.value and "`" not in found.contents.value
    return found.contents.value


async def code_actions(
    session: Session, uri: str, diagnostics: list[types.Diagnostic]
) -> list[types.CodeAction]:
    found = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    return [_action(a) for a in found or []]


def _action(found: types.CodeAction | types.Command) -> types.CodeAction:
    """lsprotocol reads a CodeAction that has a command as a Command (whose command is then
    the text of the object): read it back as the CodeAction it is."""
    if isinstance(found, types.CodeAction):
        return found
    command = ast.literal_eval(found.command)
    return types.CodeAction(
        title=found.title,
        kind=types.CodeActionKind.QuickFix,
        command=types.Command(
            title=command["title"],
            command=command["command"],
            arguments=command.get("arguments"),
        ),
    )


def applied(session: Session, uri: str, edit: types.WorkspaceEdit | None) -> str:
    assert edit is not None
    return apply_workspace_edit(edit, lambda u: session.texts[u])[uri]


# -- completion ---------------------------------------------------------------------------------


async def test_completion_of_values_labels_symbols(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    add = column(editor, uri, 4, "%1") + 1  # `%2 = stablehlo.add %|1, ...`
    assert await complete(editor, uri, 4, add) == ["%0", "%1", "%arg0", "%arg1"]
    helper = column(editor, uri, 9, "%0") + 1  # @helper is isolated from @main
    assert await complete(editor, uri, 9, helper) == ["%0", "%arg0"]
    block = column(editor, uri, 17, "%arg0") + 1  # ^bb2 sees the entry block's arguments
    assert "%arg0" in await complete(editor, uri, 17, block)
    label = column(editor, uri, 15, "^bb2") + 1
    assert await complete(editor, uri, 15, label) == ["^bb1", "^bb2"]
    symbol = column(editor, uri, 3, "@helper") + 1
    assert set(await complete(editor, uri, 3, symbol)) >= {"@main", "@helper", "@loop"}


async def test_completion_of_op_names_and_types_right_after_an_edit(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    editor.edit(uri, at_line(5), "    %3 = stablehlo.ad\n")
    found = await editor.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(5, 21))
    )
    assert isinstance(found, types.CompletionList)
    item = next(i for i in found.items if i.label == "stablehlo.add")
    assert isinstance(item.text_edit, types.TextEdit)
    assert item.text_edit.range == types.Range(start=pos(5, 9), end=pos(5, 21))
    assert all(i.label.startswith("stablehlo.ad") for i in found.items)
    editor.edit(uri, at_line(6), "    %4 = stablehlo.abs %2 : \n")
    assert "tensor<4xf32>" in await complete(editor, uri, 6, 28)


# -- source locations ---------------------------------------------------------------------------


async def test_definition_follows_locations_to_the_python_source(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    model = ["located", "model.py"]
    # %0's loc(#loc6): callsite("sin"(model.py:3:11) at model.py:7:9), callee first
    assert await definition(editor, uri, 2, 5) == [(model, 2, 10), (model, 6, 8)]
    # #loc7, an alias followed in one jump: fused["helper"(model.py:7:9), model.py:1:1]
    loc7 = column(editor, uri, 3, "#loc7") + 2
    assert await definition(editor, uri, 3, loc7) == [(model, 6, 8), (model, 0, 0)]
    # an absolute path from another machine: found by its trailing part in the workspace
    assert await definition(editor, uri, 4, 5) == [(model, 8, 9)]
    # a use still goes to its SSA definition
    use = column(editor, uri, 3, "%0")
    assert await definition(editor, uri, 3, use + 1) == [(["located", "export.mlir"], 2, 4)]


async def test_hover_shows_the_source_line(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    text = await hover_text(editor, uri, 8, column(editor, uri, 8, "loc(#loc8)") + 1)
    assert text is not None
    assert "model.py:4:12" in text and "def g(x): return jnp.cos(x)" in text


# -- hover ----------------------------------------------------------------------------------------


async def test_hover_format_follows_the_client(editor: Session) -> None:
    uri = editor.open("mlir/hybrid.mlir")
    await editor.diagnostics(uri)
    text = await hover_text(editor, uri, 26, 35)  # %1, a ScheduleFusion output
    assert text is not None and "output 3" in text and "sched" in text
    passthrough = await hover_text(editor, uri, 26, 18)  # %arg0: TL001 is shown beside it
    assert passthrough is not None and passthrough.endswith("(input, TL001)")


# -- suppression, explanation, rule links -------------------------------------------------------


async def test_disable_for_this_line_and_file(editor: Session) -> None:
    uri = editor.open("mlir/aliased.mlir")
    (diagnostic,) = await editor.diagnostics(uri)
    found = {a.title: a for a in await code_actions(editor, uri, [diagnostic])}
    line = applied(editor, uri, found["Disable TL001 for this line"].edit)
    assert line.split("\n")[3].endswith("tensor<4xf32>  // passlint: ignore[TL001]")
    editor.change(uri, line)
    assert await editor.diagnostics(uri) == []
    editor.change(uri, line.replace("ignore[TL001]", "ignore[TL002]"))  # merged into it
    (diagnostic,) = await editor.diagnostics(uri)
    found = {a.title: a for a in await code_actions(editor, uri, [diagnostic])}
    merged = applied(editor, uri, found["Disable TL001 for this line"].edit)
    assert merged.split("\n")[3].endswith("// passlint: ignore[TL002, TL001]")
    whole = applied(editor, uri, found["Disable TL001 for this file"].edit)
    assert whole.startswith("// passlint: ignore-file[TL001]\nmodule @jit_identity")
    editor.change(uri, whole)
    assert [d.code for d in await editor.diagnostics(uri)] == []


async def test_disable_in_a_pl_source(editor: Session) -> None:
    uri = editor.open("pl/softmax_prepare.py")
    diagnostics = await editor.diagnostics(uri)
    vs001 = next(d for d in diagnostics if d.code == "VS001")
    found = {a.title: a for a in await code_actions(editor, uri, [vs001])}
    fixed = applied(editor, uri, found["Disable VS001 for this line"].edit)
    assert "  # passlint: ignore[VS001]" in fixed.split("\n")[vs001.range.start.line]
    editor.change(uri, fixed)
    assert "VS001" not in [d.code for d in await editor.diagnostics(uri)]


async def test_explain_action_and_command(editor: Session) -> None:
    uri = editor.open("mlir/aliased.mlir")
    (diagnostic,) = await editor.diagnostics(uri)
    found = {a.title: a for a in await code_actions(editor, uri, [diagnostic])}
    command = found["Explain TL001"].command
    assert command is not None and command.command == "passlint.explainRule"
    text = await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
    )
    assert text == RULES["TL001"].explain()  # what `passlint rule TL001` prints
    await editor.wait_for(lambda: editor.client.messages)
    (message,) = editor.client.messages
    assert message.type == types.MessageType.Info and message.message == text
    quiet = await editor.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=["TL001", {"show": False}])
    )
    assert quiet == text and len(editor.client.messages) == 1


async def test_rule_links_lead_somewhere_or_are_left_out(editor: Session) -> None:
    from passlint.server.convert import rule_url

    uri = editor.open("mlir/hybrid.mlir")
    for diagnostic in await editor.diagnostics(uri):
        expected = rule_url(str(diagnostic.code))
        got = diagnostic.code_description.href if diagnostic.code_description else None
        assert got == expected


# -- folding --------------------------------------------------------------------------------------


async def test_folding_ranges(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    found = await editor.client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(uri))
    )
    assert found is not None
    got = {(r.start_line, r.end_line, r.kind) for r in found}
    resource = next(i for i, line in enumerate(editor.texts[uri].split("\n")) if line == "{-#")
    assert got >= {
        (0, 18, None),  # the module
        (1, 5, None),  # @main's body
        (7, 9, None),  # @helper's
        (13, 15, None),  # the block ^bb1
        (resource, resource + 5, types.FoldingRangeKind.Imports),  # the resource blob
    }


async def test_folding_split_chunks(editor: Session) -> None:
    uri = editor.open("mlir/split.mlir")
    await editor.diagnostics(uri)
    found = await editor.client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(uri))
    )
    assert found is not None
    chunks = [(r.start_line, r.end_line) for r in found if r.kind == types.FoldingRangeKind.Region]
    assert chunks == [(0, 4), (6, 10), (12, 22)]  # from each `// -----` to the last line


# -- rename ----------------------------------------------------------------------------------------


async def rename(session: Session, uri: str, line: int, character: int, name: str) -> str:
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    edit = await session.client.text_document_rename_async(
        types.RenameParams(text_document=doc(uri), position=pos(line, character), new_name=name)
    )
    return applied(session, uri, edit)


async def test_rename_value_label_and_symbol(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    text = editor.texts[uri]
    lines = text.split("\n")
    renamed = (await rename(editor, uri, 3, column(editor, uri, 3, "%0") + 1, "sin")).split("\n")
    assert renamed[2].startswith("    %sin = stablehlo.sine")
    assert "@helper(%sin)" in renamed[3]
    assert renamed[8] == lines[8]  # @helper's own %0 is another value
    label = await rename(editor, uri, 12, column(editor, uri, 12, "^bb1") + 1, "^loop")
    assert label.count("^loop") == 3 and "^bb1" not in label
    symbol = await rename(editor, uri, 3, column(editor, uri, 3, "@helper") + 2, "assist")
    assert symbol.count("@assist") == 2 and "@helper" not in symbol


async def test_rename_refuses_a_taken_name(editor: Session) -> None:
    uri = editor.open(EXPORT)
    await editor.diagnostics(uri)
    with pytest.raises(Exception, match="already defined"):
        await editor.client.text_document_rename_async(
            types.RenameParams(text_document=doc(uri), position=pos(2, 5), new_name="%1")
        )


# -- quick fixes right after an edit ---------------------------------------------------------------


async def test_quick_fix_moved_through_an_edit_elsewhere(editor: Session) -> None:
    uri = editor.open("mlir/hybrid.mlir")
    old = await editor.diagnostics(uri)
    tl001 = next(d for d in old if d.code == "TL001")
    editor.edit(uri, at_line(1), "// a new line above everything\n")  # no analysis awaited
    fixes = [a for a in await code_actions(editor, uri, [tl001]) if a.is_preferred]
    (fix,) = fixes
    fixed = applied(editor, uri, fix.edit)
    lines = fixed.split("\n")
    assert lines[27].strip() == "%passthrough_copy = mhlo.copy %arg0 : tensor<8x4xf32>"
    assert lines[28].lstrip().startswith("func.return %passthrough_copy, %arg1")
    editor.edit(uri, at_line(27), "    // the return line is edited now\n")
    touched = editor.versions[uri]
    assert [a for a in await code_actions(editor, uri, [tl001]) if a.is_preferred] == []
    assert editor.versions[uri] == touched
