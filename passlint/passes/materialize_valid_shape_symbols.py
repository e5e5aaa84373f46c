"""MaterializeValidShapeSymbols over pl kernel sources: dry run (findings + source fixes)."""

from __future__ import annotations

from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace


def check_text(path: str, text: str, workspace: Workspace | None) -> list[Finding]:
    """Findings of the pass for one pl source (placeholder until the pass lands)."""
    return []
