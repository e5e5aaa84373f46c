"""`passlint serve` on documents that are unusual but valid, over a real pipe
(``server.wire``): a byte order mark, CR-only and mixed line ends, NUL characters, lone
surrogates in the didOpen text (JSON carries ``"\\ud800"``), a 1 MB line, 100,000 empty
lines; and URIs that name no file of this machine (``untitled:``, notebook cells, other
schemes, ``file:`` with ``%00``, ``..``, a lone surrogate or 100 KB). Every request the
server offers answers each of them, .py and .mlir alike, within ``ANSWER_WITHIN`` seconds:
a result (no internal error among the diagnostics, no raw control character in what is
shown), or a JSON-RPC error (InvalidParams, RequestFailed) with a one-line message; and the
server goes on answering. A client whose answer to the server's own request does not
convert gets its command failed, not waited for. UTF-16 columns of many positions on one
long non-ASCII line cost linear time."""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from linear_time import assert_doubling_linear
from server.wire import Wire

from passlint.analysis.source import SourceText
from passlint.config import Settings
from passlint.server import navigation
from passlint.server.convert import ClientFeatures
from passlint.server.jobs import Job, run_job
from passlint.server.lsp_objects import span_range
from passlint.server.views import MlirView, Shift

ANSWER_WITHIN = 3.0  # seconds, for each answer (the first waits for the analysis)
ANSWERED_ERRORS = {-32602, -32803}  # InvalidParams, RequestFailed: never InternalError
CAPABILITIES = {
    "textDocument": {
        "diagnostic": {},  # pull: each document's diagnostics are asked for
        "hover": {"contentFormat": ["markdown"]},
        "inlayHint": {},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
    },
    "workspace": {"workspaceEdit": {"documentChanges": True}},
}

PL = """\
import pypto.language as pl

V = pl.dynamic("V")

@pl.function(type=pl.FunctionType.Orchestration)
def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):
    return k(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]))


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V])]):
    return x
"""
MLIR = """\
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32> loc("model.py":2:1)
  return %arg0, %0 : tensor<4xf32>, tensor<4xf32>
}
"""
NORMAL = {"py": PL, "mlir": MLIR}
FOUND = {"py": "VS001", "mlir": "TL001"}  # what the analysis of the normal text finds
COMMENT = {"py": "#", "mlir": "//"}


# name: (what the normal text becomes, given the language's comment; marks by language)
TEXTS: dict[str, tuple[Any, dict[str, Any]]] = {
    "a byte order mark": (lambda t, c: "\ufeff" + t, {}),
    "CR line ends": (lambda t, c: t.replace("\n", "\r"), {}),
    "CRLF line ends": (lambda t, c: t.replace("\n", "\r\n"), {}),
    "mixed line ends": (
        lambda t, c: t.replace("\n", "\r\n", 3).replace("\n", "\r", 2),
        {},
    ),
    "NUL characters": (lambda t, c: t.replace("V", "V\0", 1).replace("%0", "%0\0", 1), {}),
    "lone surrogates": (
        lambda t, c: t.replace("\n", f"  {c} \ud800 \udfff\n", 1).replace("model", "m\udc80"),
        {},
    ),
    "a 1 MB line": (lambda t, c: t + f"{c} " + "é" * 1_000_000 + "\n", {}),
    "100,000 empty lines": (lambda t, c: "\n" * 100_000, {}),
}

# name: the URI of a document of extension ``ext`` in folder ``root`` (none of them a file
# of this machine, except the climbing one, which names a file outside the workspace)
URIS: dict[str, Any] = {
    "untitled": lambda root, ext: f"untitled:Untitled-1.{ext}",
    "notebook cell": lambda root, ext: f"vscode-notebook-cell:{root}/nb.ipynb#W0s{ext}",
    "relative file": lambda root, ext: f"file:doc.{ext}",
    "file with %00": lambda root, ext: f"file://{root}/a%00b.{ext}",
    "file climbing with ..": lambda root, ext: f"file://{root}/../../../etc/doc.{ext}",
    "file with a lone surrogate": lambda root, ext: f"file://{root}/\ud800.{ext}",
    "https": lambda root, ext: f"https://example.com/doc.{ext}",
    "a 100 KB file URI": lambda root, ext: "file:///" + "a" * 100_000 + f"/doc.{ext}",
}


def _rows() -> Iterator[Any]:
    for ext in ("py", "mlir"):
        for name, (make, marks) in TEXTS.items():
            mark = [marks[ext]] if ext in marks else []
            text = make(NORMAL[ext], COMMENT[ext])
            yield pytest.param(ext, text, None, id=f"{ext}: {name}", marks=mark)
        for name, uri in URIS.items():
            yield pytest.param(ext, NORMAL[ext], uri, id=f"{ext}: {name} URI")


def requests(uri: str, lines: int) -> list[tuple[str, Any]]:
    """Every request the server offers, about document ``uri`` (of ``lines`` lines)."""
    document = {"uri": uri}
    inside = {"line": min(5, lines - 1), "character": 12}
    beyond = {"line": 2**31 - 1, "character": 2**31 - 1}
    whole = {"start": {"line": 0, "character": 0}, "end": beyond}
    bad_payload = {
        "range": whole,
        "message": "x",
        "source": "passlint",
        "code": "VS001",
        "data": {"fix": {"title": "x" * 1000, "files": [{"uri": uri, "edits": [{"range": 1}]}]}},
    }
    out: list[tuple[str, Any]] = []
    for position in (inside, beyond):
        at = {"textDocument": document, "position": position}
        out += [
            ("textDocument/hover", at),
            ("textDocument/definition", at),
            ("textDocument/references", {**at, "context": {"includeDeclaration": True}}),
            ("textDocument/completion", at),
            ("textDocument/prepareRename", at),
            ("textDocument/rename", {**at, "newName": "W"}),
        ]
    return [
        *out,
        ("textDocument/documentSymbol", {"textDocument": document}),
        ("textDocument/inlayHint", {"textDocument": document, "range": whole}),
        ("textDocument/foldingRange", {"textDocument": document}),
        (
            "textDocument/codeAction",
            {"textDocument": document, "range": whole, "context": {"diagnostics": [bad_payload]}},
        ),
        (
            "textDocument/codeAction",
            {"textDocument": document, "range": whole, "context": {"diagnostics": []}},
        ),
        ("textDocument/diagnostic", {"textDocument": document}),
        ("workspace/executeCommand", {"command": "passlint.fixAll", "arguments": [uri]}),
        ("workspace/executeCommand", {"command": "passlint.legalizedModule", "arguments": [uri]}),
        (
            "workspace/executeCommand",
            {"command": "passlint.explainRule", "arguments": [uri, {"show": False}]},
        ),
    ]


class Client(Wire):
    """A well-behaved client: it declines ``workspace/applyEdit`` with a valid answer."""

    def send(self, message: dict[str, Any]) -> None:
        if message.get("result", 0) is None and self._answering_apply_edit(message):
            message = {**message, "result": {"applied": False}}
        super().send(message)

    def _answering_apply_edit(self, message: dict[str, Any]) -> bool:
        asked = [m for m in self.seen if m.get("id") == message.get("id") and "method" in m]
        return bool(asked) and asked[-1]["method"] == "workspace/applyEdit"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Client, Path]]:
    root = tmp_path_factory.mktemp("ws")
    (root / "model.py").write_text("import jax\nMODEL = jax.numpy.sin(x)\n")
    session = Client(cwd=root)
    session.initialize(root, CAPABILITIES)
    yield session, root
    try:
        assert session.close() == 0
    finally:
        session.kill()


def shown_strings(method: str, result: Any) -> list[str]:
    """What an editor shows as text of a result: hover text, hint labels and tooltips,
    symbol names and details."""
    if method == "textDocument/hover" and result:
        return [result["contents"]["value"]]
    if method == "textDocument/inlayHint":
        return [str(h.get(key, "")) for h in result or [] for key in ("label", "tooltip")]
    if method == "textDocument/documentSymbol":
        out: list[str] = []
        stack = list(result or [])
        while stack:
            symbol = stack.pop()
            out += [symbol["name"], symbol.get("detail") or ""]
            stack += symbol.get("children") or []
        return out
    return []


def check_answer(method: str, answer: dict[str, Any], took: float, what: str) -> None:
    assert took < ANSWER_WITHIN, f"{what}: {method} took {took:.1f} s"
    if "error" in answer:
        error = answer["error"]
        assert error["code"] in ANSWERED_ERRORS, f"{what}: {method}: {error}"
        message = error["message"]
        assert message and "\n" not in message and len(message) <= 300, (what, method, message)
        assert "Traceback" not in json.dumps(error), (what, method)
        return
    result = answer.get("result")
    for text in shown_strings(method, result):
        hidden = {c for c in text if unicodedata.category(c) in ("Cc", "Cf") and c != "\n"}
        assert not hidden, f"{what}: {method} shows {hidden!r}"
    if method == "textDocument/diagnostic":
        codes = [item.get("code") for item in result.get("items", [])]
        assert "PL002" not in codes, f"{what}: an internal error: {result}"


@pytest.mark.parametrize(("ext", "text", "uri"), list(_rows()))
def test_every_request_answers_an_unusual_document(
    client: tuple[Client, Path], ext: str, text: str, uri: Any, request: pytest.FixtureRequest
) -> None:
    session, root = client
    what = request.node.callspec.id
    name = "".join(c if c.isalnum() else "_" for c in what) + f".{ext}"
    address = uri(str(root), ext) if uri is not None else (root / name).as_uri()
    language = "python" if ext == "py" else "mlir"
    session.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": address, "languageId": language, "version": 1, "text": text}},
    )
    lines = max(1, text.count("\n"))
    for version, change in ((1, None), (2, {"line": 1, "character": 0})):
        if change is not None:  # an incremental edit of the text, then every request again
            session.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": address, "version": version},
                    "contentChanges": [{"range": {"start": change, "end": change}, "text": "#"}],
                },
            )
        for method, params in requests(address, lines):
            started = time.monotonic()
            answer = session.call(method, params, timeout=30)
            check_answer(method, answer, time.monotonic() - started, what)
            if method == "textDocument/diagnostic" and version == 1 and uri is not None:
                # a document of an editor only is analysed all the same (a notebook cell
                # is no pl source nor MLIR module)
                codes = [item.get("code") for item in answer["result"].get("items", [])]
                analysed = address.endswith(f".{ext}")
                assert (FOUND[ext] in codes) == analysed, (what, codes)
    session.notify("textDocument/didClose", {"textDocument": {"uri": address}})
    control = (root / f"control.{ext}").as_uri()
    session.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": control,
                "languageId": language,
                "version": 1,
                "text": NORMAL[ext],
            }
        },
    )
    answer = session.call(
        "textDocument/hover",
        {"textDocument": {"uri": control}, "position": {"line": 2, "character": 3}},
        timeout=ANSWER_WITHIN,
    )
    assert "error" not in answer, answer
    session.notify("textDocument/didClose", {"textDocument": {"uri": control}})
    assert session.popups() == []


def test_a_client_answer_that_does_not_convert_fails_the_command(tmp_path: Path) -> None:
    """``workspace/applyEdit`` answered with ``null`` (no ApplyWorkspaceEditResult): the
    fix-all command waited for good before; now it is answered with an error."""
    session = Wire(cwd=tmp_path)  # answers every request of the server with null
    try:
        session.initialize(tmp_path, CAPABILITIES)
        uri = session.open(tmp_path / "k.py", PL)
        answer = session.call(
            "workspace/executeCommand",
            {"command": "passlint.fixAll", "arguments": [uri]},
            timeout=10,
        )
        assert answer["error"]["code"] == -32603
        assert answer["error"]["message"].startswith(
            "the client's answer: invalid params: invalid value for type, expected "
            "ApplyWorkspaceEditResult"
        )
        assert session.close() == 0
    finally:
        session.kill()


# -- UTF-16 columns of many positions on one long line ---------------------------------------


def _one_line_module(uses: int) -> str:
    """A function on one line: a non-ASCII string first, then ``uses`` uses of ``%arg0``."""
    operands = ", ".join(["%arg0"] * uses)
    types = ", ".join(["tensor<4xf32>"] * uses)
    return (
        'func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {note = "'
        + "é" * 100
        + f'"}} {{ %0 = "test.op"({operands}) : ({types}) -> tensor<4xf32> '
        "return %0 : tensor<4xf32> }\n"
    )


def _indexed(uses: int) -> tuple[str, Any]:
    """``_one_line_module(uses)`` and the index the server's analysis builds of it."""
    text = _one_line_module(uses)
    path, uri = "/ws/one_line.mlir", "file:///ws/one_line.mlir"
    job = Job(
        uri, path, 1, text, Settings(), (), {path: text}, {path: uri}, {path: 1}, ClientFeatures()
    )
    index = run_job(job).index
    assert index is not None
    return text, index


def _references(indexed: tuple[str, Any]) -> list[Any]:
    """The references of ``%arg0`` as the server answers them: the spans, then their LSP
    ranges in UTF-16."""
    text, index = indexed
    view = MlirView(index, Shift(), SourceText(text))
    spans = navigation.mlir_references(view, text.index("%arg0") + 1, True)
    return [span_range(view.source, span) for span in spans]


def test_utf16_columns_of_many_positions_on_one_line_cost_linear_time() -> None:
    assert len(_references(_indexed(10))) == 11
    assert_doubling_linear(_indexed, _references, 8000)
