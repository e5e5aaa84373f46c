"""TensorizerLegalization (MHLO and StableHLO variants): dry run and apply mode."""

from __future__ import annotations

from passlint.analysis.findings import Finding


def check_text(path: str, text: str, pipeline: str) -> list[Finding]:
    """Findings for one .mlir document (placeholder until the front end lands)."""
    return []
