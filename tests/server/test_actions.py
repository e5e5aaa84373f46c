"""Code actions end to end: each quick fix applied and re-checked, fix-all (code action and
command), the cross-file VS001 fix, versioned edits, stale payloads refused."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import Session, apply_workspace_edit, expected_text

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


async def fixes_for(
    session: Session, uri: str, diagnostics: list[types.Diagnostic]
) -> list[types.CodeAction]:
    """The quick fixes proper (preferred), without the suppression and explanation actions."""
    found = await actions_for(session, uri, diagnostics, ["quickfix"])
    return [a for a in found if a.is_preferred]


async def actions_for(
    session: Session,
    uri: str,
    diagnostics: list[types.Diagnostic],
    only: list[str] | None = None,
    rng: types.Range | None = None,
) -> list[types.CodeAction]:
    whole = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
    )
    result = await session.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng or (diagnostics[0].range if diagnostics else whole),
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def reader(session: Session):  # type: ignore[no-untyped-def]
    def read(uri: str) -> str:
        if uri in session.texts:
            return session.texts[uri]
        return session.path(uri).read_text(encoding="utf-8")

    return read


def check_edit_shape(session: Session, edit: types.WorkspaceEdit | None) -> None:
    assert edit is not None
    caps = session.client.capabilities
    assert caps is not None and caps.workspace is not None
    edit_caps = caps.workspace.workspace_edit
    if not (edit_caps and edit_caps.document_changes):  # Neovim: plain changes
        assert edit.document_changes is None and edit.changes
    else:
        assert edit.changes is None and edit.document_changes
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            expected = session.versions.get(change.text_document.uri)
            assert change.text_document.version == expected


@pytest.mark.parametrize("fixture", ["mlir/hybrid.mlir", "mlir/split.mlir", "mlir/unicode.mlir"])
async def test_each_quick_fix(session: Session, fixture: str) -> None:
    uri = session.open(fixture)
    original = session.texts[uri]
    diagnostics = await session.diagnostics(uri)
    count = len([d for d in diagnostics if d.data])
    assert count
    for i in range(count):
        # payloads are versioned: take the diagnostics of the current version each time
        diagnostics = await session.diagnostics(uri)
        diagnostic = [d for d in diagnostics if d.data][i]
        (action,) = await fixes_for(session, uri, [diagnostic])
        assert action.kind == types.CodeActionKind.QuickFix
        assert action.is_preferred
        assert list(action.diagnostics or []) == [diagnostic]
        check_edit_shape(session, action.edit)
        assert action.edit is not None
        fixed = apply_workspace_edit(action.edit, reader(session))[uri]
        session.change(uri, fixed)
        after = await session.diagnostics(uri)
        # exactly this finding is gone; the others remain
        assert sorted(str(d.code) for d in after) == sorted(
            str(d.code) for d in diagnostics if d is not diagnostic
        )
        session.change(uri, original)


@pytest.mark.parametrize(
    "fixture",
    ["mlir/aliased.mlir", "mlir/hybrid.mlir", "mlir/split.mlir", "pl/softmax_prepare.py"],
)
async def test_fix_all_action(session: Session, fixture: str) -> None:
    uri = session.open(fixture)
    diagnostics = await session.diagnostics(uri)
    actions = await actions_for(session, uri, diagnostics, ["source.fixAll.passlint"])
    (action,) = actions
    assert action.kind == "source.fixAll.passlint"
    check_edit_shape(session, action.edit)
    assert action.edit is not None
    fixed = apply_workspace_edit(action.edit, reader(session))[uri]
    assert fixed == expected_text(fixture)
    session.change(uri, fixed)
    assert all(not d.data for d in await session.diagnostics(uri))


async def test_fix_all_is_offered_with_source_kind(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    await session.diagnostics(uri)
    (action,) = await actions_for(session, uri, [], ["source"])
    assert action.kind == "source.fixAll.passlint"
    assert await actions_for(session, uri, [], ["refactor"]) == []


async def test_fix_all_command(session: Session) -> None:
    uri = session.open("mlir/hybrid.mlir")
    await session.diagnostics(uri)
    applied = await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="passlint.fixAll", arguments=[uri])
    )
    assert applied is True
    (edit,) = session.client.applied_edits  # type: ignore[attr-defined]
    fixed = apply_workspace_edit(edit, reader(session))[uri]
    assert fixed == expected_text("mlir/hybrid.mlir")


async def test_cross_file_vs001_fix(session: Session) -> None:
    uri = session.open("pl/cross_file/kernels.py")
    (diagnostic,) = await session.diagnostics(uri)
    assert diagnostic.code == "VS001"
    (action,) = await fixes_for(session, uri, [diagnostic])
    check_edit_shape(session, action.edit)
    assert action.edit is not None
    fixed = apply_workspace_edit(action.edit, reader(session))
    program = session.uri("pl/cross_file/program.py")
    assert set(fixed) == {uri, program}
    for target in ("kernels.py", "program.py"):
        expected = expected_text(f"pl/cross_file/{target}")
        assert fixed[session.uri(f"pl/cross_file/{target}")] == expected
    # program.py is not open: the client writes it to disk; the kernel is fixed in the editor
    session.path(program).write_text(fixed[program], encoding="utf-8")
    session.change(uri, fixed[uri])
    assert await session.diagnostics(uri) == []


async def test_stale_payload_is_not_offered(session: Session) -> None:
    uri = session.open("mlir/aliased.mlir")
    (diagnostic,) = await session.diagnostics(uri)
    session.change(uri, "// a comment\n" + session.texts[uri])
    await session.diagnostics(uri)
    assert await fixes_for(session, uri, [diagnostic]) == []
