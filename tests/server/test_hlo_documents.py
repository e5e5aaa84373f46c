"""HLO text in the language server, end to end: an opened `.hlo` document gets its
TensorizerLegalization diagnostics (push or pull per client), a quick fix that inserts the
HLO `copy`, E010 for broken text; a `.txt` file that is not HLO gets none."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .conftest import Session, apply_workspace_edit, rng
from .test_actions import fixes_for, reader

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

DATA = Path(__file__).resolve().parents[1] / "data" / "hlo"


def _open(session: Session, name: str) -> str:
    (session.root / "hlo").mkdir(exist_ok=True)
    (session.root / "hlo" / name).write_text((DATA / name).read_text(), encoding="utf-8")
    return session.open(f"hlo/{name}")


async def test_diagnostics_and_quick_fix_on_an_opened_hlo_document(session: Session) -> None:
    uri = _open(session, "outputs.hlo")
    diagnostics = await session.diagnostics(uri)
    assert [(str(d.code), d.range) for d in diagnostics] == [
        ("TL001", rng(15, 113, 116)),
        ("TL002", rng(15, 118, 121)),
        ("TL006", rng(15, 123, 126)),
        ("TL003", rng(15, 128, 133)),
        ("TL007", rng(15, 135, 138)),
    ]
    tl001 = diagnostics[0]
    assert tl001.source == "passlint"
    assert tl001.severity == types.DiagnosticSeverity.Warning
    assert "returns parameter `x.1`; copy it before the ROOT." in tl001.message
    (action,) = await fixes_for(session, uri, [tl001])
    assert action.edit is not None
    fixed = apply_workspace_edit(action.edit, reader(session))[uri]
    assert "  x.1.copy = f32[2,3]{1,0} copy(x.1)\n  ROOT tuple.1" in fixed
    session.change(uri, fixed)
    after = await session.diagnostics(uri)
    assert [str(d.code) for d in after] == ["TL002", "TL006", "TL003", "TL007"]


async def test_broken_hlo_and_other_text_files(session: Session) -> None:
    broken = _open(session, "broken.hlo")
    diagnostics = await session.diagnostics(broken)
    assert [(str(d.code), d.range.start.line) for d in diagnostics] == [("E010", 4), ("E010", 7)]
    dump = _open(session, "dump.txt")
    assert [str(d.code) for d in await session.diagnostics(dump)] == ["TL002"]
    notes = _open(session, "notes.txt")
    assert await session.diagnostics(notes) == []
