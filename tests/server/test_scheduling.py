"""Scheduling end to end: superseded versions never published under a burst of edits, other
requests answered during a long analysis, work-done progress, crashes contained."""

from __future__ import annotations

import asyncio
import time

import pytest
from lsprotocol import types

from .conftest import Session

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")


async def test_burst_of_edits_publishes_only_the_last_version(hooked: Session) -> None:
    uri = hooked.open(
        "mlir/aliased.mlir", "// SLOW(0.6)\n" + (hooked.root / "mlir/aliased.mlir").read_text()
    )
    await asyncio.sleep(0.2)  # version 1 is now being analysed (slowly)
    base = (hooked.root / "mlir/aliased.mlir").read_text()
    for i in range(12):
        hooked.change(uri, f"// edit {i}\n" + base)
    final = hooked.change(uri, "// final\n" + base.replace("return %0, %arg1", "return %0, %0"))
    diagnostics = await hooked.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["TL003"]
    assert diagnostics[0].range.start.line == 4
    await asyncio.sleep(0.8)  # the slow version-1 run has finished by now
    if hooked.mode == "push":
        assert [p.version for p in hooked.published if p.uri == uri] == [final]
    else:
        assert hooked.published == []
        assert [d.code for d in await hooked.diagnostics(uri)] == ["TL003"]


async def test_crash_becomes_one_internal_error(hooked: Session) -> None:
    broken = hooked.open(
        "mlir/aliased.mlir", "// CRASH\n" + (hooked.root / "mlir/aliased.mlir").read_text()
    )
    (diagnostic,) = await hooked.diagnostics(broken)
    assert diagnostic.code == "PL002"  # internal-error
    assert diagnostic.source == "passlint"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert "Traceback" not in diagnostic.message and "simulated" not in diagnostic.message
    # the server keeps serving other documents
    other = hooked.open("mlir/split.mlir")
    assert [d.code for d in await hooked.diagnostics(other)] == ["TL001", "TL002"]
    assert hooked.client.messages == []


def big_module(lines: int) -> str:
    body = ["func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {"]
    body.append("  %0 = stablehlo.abs %arg0 : tensor<4x8xf32>")
    body += [f"  %{i} = stablehlo.add %{i - 1}, %arg0 : tensor<4x8xf32>" for i in range(1, lines)]
    body += [f"  return %{lines - 1}, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>", "}", ""]
    return "\n".join(body)


async def test_requests_answered_during_a_long_analysis(session: Session) -> None:
    if session.name != "vscode":
        pytest.skip("one client is enough for the timing test (2 shared cores)")
    text = big_module(25_000)
    (session.root / "big.mlir").write_text(text)
    big = session.open("big.mlir")
    await asyncio.sleep(0.1)
    small = session.open("mlir/split.mlir")
    started = time.monotonic()
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=small))
    )
    assert symbols and time.monotonic() - started < 2.0
    assert [d.code for d in await session.diagnostics(small)] == ["TL001", "TL002"]
    (diagnostic,) = await session.diagnostics(big)
    assert diagnostic.code == "TL001"

    # work-done progress was shown for the long analysis, begun and ended (the quick answer
    # for a large file may come before the full analysis ends)
    def kinds() -> list[str]:
        reports = session.client.progress_reports.values()
        return [type(p).__name__ for report in reports for p in report]

    deadline = time.monotonic() + 30
    while kinds()[-1:] != ["WorkDoneProgressEnd"] and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert kinds()[0] == "WorkDoneProgressBegin" and kinds()[-1] == "WorkDoneProgressEnd"
