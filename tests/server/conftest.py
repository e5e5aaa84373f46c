"""End-to-end fixtures: the real `passlint serve` over stdio, driven by pytest-lsp clients
that impersonate VS Code 1.65 and Neovim 0.7 (push diagnostics), Neovim 0.11 (pull), and
Emacs 29 eglot without markdown-mode (push, hover in plain text)."""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Position, Range, TextEdit
from passlint.analysis.source import SourceText

DATA = Path(__file__).resolve().parents[1] / "data" / "server"
EXPECTED = DATA / "expected"
HERE = Path(__file__).resolve().parent
TIMEOUT = 20.0

# name -> (pytest-lsp capability snapshot, diagnostics mode)
CLIENTS = {
    "vscode": ("visual-studio-code", "push"),
    "neovim-0.7": ("neovim@0.7", "push"),
    "neovim-0.11": ("neovim@0.11", "pull"),
    "eglot": ("emacs@29.1", "push"),
}
PLAINTEXT = {"eglot"}  # clients that take hover in plain text only
DEFAULT_CLIENTS = ["vscode", "neovim-0.7", "neovim-0.11"]
# The editor features: push and pull, Markdown and plain text.
EDITOR_CLIENTS = ["vscode", "neovim-0.11", "eglot"]

SERVER = [sys.executable, "-m", "passlint", "serve", "--debounce", "0.05"]
HOOKED_SERVER = [
    sys.executable,
    str(HERE / "hooked_server.py"),
    "--debounce",
    "0.05",
    "--threads-only",
]


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def rng(line: int, start: int, end: int) -> types.Range:
    """Characters ``start`` to ``end`` of ``line``."""
    return types.Range(start=pos(line, start), end=pos(line, end))


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def make_client() -> LanguageClient:
    """pytest-lsp's test client, recording every publishDiagnostics with its version and
    applying (and recording) workspace/applyEdit requests."""
    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(
        client,
        {
            method: handler
            for method, handler in DEFAULT_CLIENT_FEATURES.items()
            if method != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
        },
    )
    client.published = []  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)  # type: ignore[attr-defined]

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params.edit)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    client.registrations = []  # type: ignore[attr-defined]
    return client


class Session:
    """A client plus the texts and versions it has open, with waiting helpers."""

    def __init__(self, client: LanguageClient, root: Path, name: str) -> None:
        self.client = client
        self.root = root
        self.name = name
        self.mode = CLIENTS[name][1]
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        return self.client.published  # type: ignore[attr-defined,no-any-return]

    def uri(self, relative: str) -> str:
        return from_fs_path(str(self.root / relative)) or ""

    def path(self, uri: str) -> Path:
        prefix = from_fs_path(str(self.root)) or ""
        return self.root / uri[len(prefix) + 1 :]

    def open(self, relative: str, text: str | None = None) -> str:
        uri = self.uri(relative)
        text = (self.root / relative).read_text(encoding="utf-8") if text is None else text
        self.texts[uri], self.versions[uri] = text, 1
        language = "mlir" if relative.endswith(".mlir") else "python"
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id=language, version=1, text=text
                )
            )
        )
        return uri

    def change(self, uri: str, text: str) -> int:
        """Replace the whole text (one full-content change); returns the new version."""
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def edit(self, uri: str, rng: types.Range, new_text: str) -> int:
        """An incremental change of one range."""
        source = SourceText(self.texts[uri])
        start = source.from_utf16(Position(rng.start.line, rng.start.character))
        end = source.from_utf16(Position(rng.end.line, rng.end.character))
        self.texts[uri] = apply_edits(self.texts[uri], [TextEdit("", Range(start, end), new_text)])
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new_text)],
            )
        )
        return self.versions[uri]

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        self.texts.pop(uri, None)
        self.versions.pop(uri, None)

    def last_published_with(self, uri: str, code: str) -> list[types.Diagnostic] | None:
        """The diagnostics last published for ``uri`` that hold one with ``code``."""
        for params in reversed(self.published):
            if params.uri == uri and any(d.code == code for d in params.diagnostics):
                return list(params.diagnostics)
        return None

    async def wait_for(self, condition: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for the server")
            await asyncio.sleep(0.02)

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics for the current version: pulled, or waited for as published."""
        if self.mode == "pull":
            report = await asyncio.wait_for(
                self.client.text_document_diagnostic_async(
                    types.DocumentDiagnosticParams(
                        text_document=types.TextDocumentIdentifier(uri=uri)
                    )
                ),
                TIMEOUT,
            )
            assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
            return list(report.items)
        version = self.versions[uri]

        def latest() -> list[types.Diagnostic] | None:
            for params in reversed(self.published):
                if params.uri == uri:
                    return list(params.diagnostics) if params.version == version else None
            return None

        return await self._latest(latest)

    async def _latest(
        self, latest: Callable[[], list[types.Diagnostic] | None]
    ) -> list[types.Diagnostic]:
        box: list[list[types.Diagnostic]] = []

        def ready() -> bool:
            found = latest()
            if found is not None:
                box.append(found)
            return found is not None

        await self.wait_for(ready)
        return box[-1]

    async def settle(self, seconds: float = 0.5) -> None:
        await asyncio.sleep(seconds)


# Workspace files that are fixtures of other suites too: where they are kept, and (pl) the
# text their fix-all gives.
SHARED = {
    "mlir/hybrid.mlir": ("mlir/handmade__mhlo_fusion_hybrid.mlir", None),
    "pl/softmax_prepare.py": ("pl/softmax_prepare.py", "pl/softmax_prepare.fixed.py"),
    "pl/cross_file/kernels.py": ("pl/cross_file/kernels.py", "pl/cross_file_fixed/kernels.py"),
    "pl/cross_file/program.py": ("pl/cross_file/program.py", "pl/cross_file_fixed/program.py"),
}


def copy_data(target: Path) -> Path:
    shutil.copytree(DATA, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("expected"))
    for relative, (source, _) in SHARED.items():
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA.parent / source, target / relative)
    return target


def expected_text(fixture: str) -> str:
    """The text of workspace file ``fixture`` once every fix is applied."""
    fixed = SHARED.get(fixture, (None, None))[1]
    path = DATA.parent / fixed if fixed is not None else EXPECTED / fixture
    return path.read_text(encoding="utf-8")


def initialize_params(name: str, root: Path, options: Any = None) -> types.InitializeParams:
    capabilities = client_capabilities(CLIENTS[name][0])
    if name in PLAINTEXT and capabilities.text_document and capabilities.text_document.hover:
        capabilities.text_document.hover.content_format = [types.MarkupKind.PlainText]
    return types.InitializeParams(
        capabilities=capabilities,
        root_uri=from_fs_path(str(root)),
        workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(root)) or "", name="ws")],
        initialization_options=options,
    )


@pytest_lsp.fixture(
    params=DEFAULT_CLIENTS,
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """The real server, one per test, seen through each client's capabilities."""
    await start_session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


async def start_session(request: pytest.FixtureRequest, client: LanguageClient) -> None:
    """Initialize the server on a fresh copy of the workspace, as client ``request.param``."""
    root = copy_data(request.getfixturevalue("tmp_path") / "ws")
    await client.initialize_session(initialize_params(request.param, root))
    client.session = Session(client, root, request.param)  # type: ignore[attr-defined]


@pytest.fixture
def session(lsp: LanguageClient) -> Session:
    return lsp.session  # type: ignore[attr-defined,no-any-return]


@pytest_lsp.fixture(
    params=EDITOR_CLIENTS,
    config=ClientServerConfig(server_command=SERVER, client_factory=make_client),
)
async def editor_lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """The real server seen through a push, a pull and a plain-text client."""
    await start_session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def editor(editor_lsp: LanguageClient) -> Session:
    return editor_lsp.session  # type: ignore[attr-defined,no-any-return]


@pytest_lsp.fixture(
    params=["vscode", "neovim-0.11"],
    config=ClientServerConfig(server_command=HOOKED_SERVER, client_factory=make_client),
)
async def hooked_lsp(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> Any:
    """The server with an analysis that can be slowed down or made to crash on demand."""
    await start_session(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def hooked(hooked_lsp: LanguageClient) -> Session:
    return hooked_lsp.session  # type: ignore[attr-defined,no-any-return]


def apply_workspace_edit(edit: types.WorkspaceEdit, read: Callable[[str], str]) -> dict[str, str]:
    """The new text of every file a WorkspaceEdit touches (``read`` gives the old text)."""
    per_uri: dict[str, list[types.TextEdit]] = {}
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit)
        per_uri.setdefault(change.text_document.uri, []).extend(
            e for e in change.edits if isinstance(e, types.TextEdit)
        )
    for uri, edits in (edit.changes or {}).items():
        per_uri.setdefault(uri, []).extend(edits)
    out = {}
    for uri, edits in per_uri.items():
        text = read(uri)
        source = SourceText(text)
        core = [
            TextEdit(
                uri,
                Range(
                    source.from_utf16(Position(e.range.start.line, e.range.start.character)),
                    source.from_utf16(Position(e.range.end.line, e.range.end.character)),
                ),
                e.new_text,
            )
            for e in edits
        ]
        out[uri] = apply_edits(text, core)
    return out
