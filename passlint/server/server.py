"""The passlint language server's handlers: one per LSP feature, each a few lines.

A handler converts the request, calls one helper and returns its answer: the client's state
is the ``session``, talking to the client is ``language_server``, and each feature is computed
in its own module (``actions``, ``hover``, ``inlay``, ``symbols``, ``navigation``, ``folding``,
``completion``, ``rename``, ``pl_assist``, ``legalized``, ``suppress``). Analysis runs in the
``scheduler``; nothing here analyses anything itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from passlint.server import (
    actions,
    bytecode,
    completion,
    folding,
    hover,
    inlay,
    legalized,
    navigation,
    pl_assist,
    rename,
    suppress,
    symbols,
)
from passlint.server.convert import JsonData
from passlint.server.language_server import PasslintServer
from passlint.server.session.client import SECTION, learn

LEGALIZED_MODULE = "passlint.legalizedModule"
FIX_ALL = "passlint.fixAll"
ANALYZE_FILE = "passlint.analyzeFile"
FORGET_FILE = "passlint.forgetFile"


def command_uri(args: tuple[Any, ...]) -> str:
    """The document a command is about: ``"file:///..."`` or ``{"uri": "file:///..."}``."""
    first = args[0] if args else None
    if isinstance(first, Mapping):
        first = first.get("uri")
    if not isinstance(first, str):
        raise JsonRpcInvalidParams(message="expected the document URI as the first argument")
    return first


server = PasslintServer()


# -- lifecycle ---------------------------------------------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: PasslintServer, params: types.InitializeParams) -> None:
    if ls.client_log is not None:  # (LSP lets window/logMessage out during initialize)
        ls.client_log.start(asyncio.get_running_loop())
    ls.session.start(learn(params))


@server.feature(types.INITIALIZED)
async def initialized(ls: PasslintServer, params: types.InitializedParams) -> None:
    await ls.load_client_settings()
    await ls.watch_files()
    ls.scheduler.refresh()


@server.feature(types.SHUTDOWN)
def shutdown(ls: PasslintServer, params: None) -> None:
    if ls.client_log is not None:
        ls.client_log.stop()
    ls.scheduler.shutdown()


# -- documents ---------------------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: PasslintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.session.opened(ls.workspace, params)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: PasslintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.session.changed(ls.workspace, params)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: PasslintServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.session.saved(ls.workspace, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PasslintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    document = ls.session.closed(uri)
    if document is not None and not ls.session.pull:
        ls.clear_diagnostics(uri)
    if document is not None and document.path.endswith(".py"):
        ls.session.refresh_python()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_workspace_folders(
    ls: PasslintServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    added, removed = params.event.added, params.event.removed
    ls.session.folders_changed([f.uri for f in added], [f.uri for f in removed])


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(
    ls: PasslintServer, params: types.DidChangeConfigurationParams
) -> None:
    if ls.supports("workspace.configuration"):
        await ls.load_client_settings()
    elif isinstance(params.settings, Mapping) and SECTION in params.settings:
        ls.session.settings.set_client_section(params.settings[SECTION])
    ls.session.settings.invalidate()
    ls.scheduler.refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: PasslintServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.session.files_changed([change.uri for change in params.changes])


# -- diagnostics (pull) ------------------------------------------------------------------------


@server.feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(
        identifier=SECTION, inter_file_dependencies=True, workspace_diagnostics=False
    ),
)
async def diagnostic(ls: PasslintServer, params: types.DocumentDiagnosticParams) -> JsonData:
    """A ``DocumentDiagnosticReport``, as JSON data."""
    uri = params.text_document.uri
    result = await ls.scheduler.result(uri, provisional_ok=ls.can_refresh())
    if result is None:
        return JsonData({"kind": "full", "items": []})
    if result is ls.scheduler.provisional(uri):
        ls.session.owe_refresh.add(uri)  # the full result will ask the client to pull again
    if params.previous_result_id == result.result_id:
        return JsonData({"kind": "unchanged", "resultId": result.result_id})
    return JsonData(
        {"kind": "full", "items": list(result.diagnostics), "resultId": result.result_id}
    )


# -- code actions and commands -----------------------------------------------------------------


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND],
        resolve_provider=False,
    ),
)
async def code_action(
    ls: PasslintServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    return actions.answer(ls.session, params)


@server.command(FIX_ALL)
async def fix_all_command(ls: PasslintServer, *args: Any) -> bool:
    edit = await actions.fix_all(ls.session, command_uri(args))
    if edit is None:
        return False
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=actions.FIX_ALL_TITLE)
    )
    return bool(answer.applied)


@server.command(LEGALIZED_MODULE)
async def legalized_module(ls: PasslintServer, *args: Any) -> str:
    text, warning = await legalized.legalized_module(ls.session, ls.executor, command_uri(args))
    if warning is not None:
        ls.show(types.MessageType.Warning, warning)
    return text


@server.command(ANALYZE_FILE)
async def analyze_file(ls: PasslintServer, *args: Any) -> JsonData | None:
    """The diagnostics of a file read from disk, for an editor that does not hand it over
    (VS Code's above 50 MB): ``{"diagnostics": [...]}``, also published to a push client."""
    result = await ls.session.analyze_file(command_uri(args))
    return None if result is None else JsonData({"diagnostics": list(result.diagnostics)})


@server.command(FORGET_FILE)
def forget_file(ls: PasslintServer, *args: Any) -> bool:
    uri = command_uri(args)
    forgotten = ls.session.forget_file(uri)
    if forgotten and not ls.session.pull:
        ls.clear_diagnostics(uri)
    return forgotten


@server.command(suppress.EXPLAIN)
def explain_rule(ls: PasslintServer, *args: Any) -> str:
    """``passlint rule CODE``'s text, returned and shown as a message; with a second argument
    ``{"show": false}`` only returned (the VS Code extension opens it as a read-only
    document)."""
    code = args[0] if args and isinstance(args[0], str) else ""
    try:
        text = suppress.explanation(code)
    except ValueError as error:
        raise JsonRpcInvalidParams(message=str(error)) from None
    options = args[1] if len(args) > 1 and isinstance(args[1], Mapping) else {}
    if options.get("show", True):
        ls.show(types.MessageType.Info, text)
    return text


@server.feature(bytecode.CONVERT_FROM_BYTECODE)
async def convert_from_bytecode(ls: PasslintServer, params: Any) -> JsonData:
    """mlir-lsp-server's request: ``{"output": text}``, the MLIR text of the bytecode file
    ``params.uri`` names (a file of the workspace; jaxlib reads it)."""
    return await bytecode.convert_from_bytecode(ls.session, ls.executor, params)


# -- hover, hints, symbols, navigation ---------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def on_hover(ls: PasslintServer, params: types.HoverParams) -> types.Hover | None:
    return await hover.answer(ls.session, params)


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
async def inlay_hints(ls: PasslintServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    return await inlay.answer(ls.session, params)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbols(
    ls: PasslintServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    return await symbols.answer(ls.session, params)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: PasslintServer, params: types.DefinitionParams) -> list[types.Location]:
    return await navigation.definition(ls.session, params)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
async def references(ls: PasslintServer, params: types.ReferenceParams) -> list[types.Location]:
    return await navigation.references(ls.session, params)


# -- folding, completion, rename ---------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
async def folding_ranges(
    ls: PasslintServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange]:
    return await folding.answer(ls.session, params)


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=[*completion.TRIGGERS, "["], resolve_provider=False),
)
async def complete(ls: PasslintServer, params: types.CompletionParams) -> types.CompletionList:
    view = await ls.session.mlir_view(params.text_document.uri)
    if view is not None:
        return completion.answer(ls.session, view, params)
    return await pl_assist.completion_answer(ls.session, params)


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
async def prepare_rename(
    ls: PasslintServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | types.Range | None:
    view = await ls.session.mlir_view(params.text_document.uri)
    if view is not None:
        return rename.prepare_answer(view, params)
    return await pl_assist.prepare_rename_answer(ls.session, params)


@server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
async def on_rename(ls: PasslintServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    view = await ls.session.mlir_view(params.text_document.uri, exact=True)
    if view is not None:
        return rename.answer(ls.session, view, params)
    return await pl_assist.rename_answer(ls.session, params)


__all__ = ["PasslintServer", "server"]
