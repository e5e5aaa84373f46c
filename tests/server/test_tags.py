"""Diagnostic tags: an unused suppression (PL100) is marked Unnecessary, for clients that
know the tag, and carries its removal as a quick fix."""

from __future__ import annotations

from lsprotocol import types

from .conftest import Session


async def test_unused_suppression_is_tagged_unnecessary(session: Session) -> None:
    uri = session.open("tagged/stale.mlir")
    (diagnostic,) = await session.diagnostics(uri)
    assert diagnostic.code == "PL100"
    assert diagnostic.range.start == types.Position(line=2, character=2)
    capabilities = session.client.capabilities
    publish = capabilities.text_document and capabilities.text_document.publish_diagnostics
    known = set(publish.tag_support.value_set) if publish and publish.tag_support else set()
    if types.DiagnosticTag.Unnecessary in known:
        assert list(diagnostic.tags or ()) == [types.DiagnosticTag.Unnecessary]
    else:
        assert not diagnostic.tags
    if session.name == "vscode":
        assert known  # the snapshot that shows the tag
