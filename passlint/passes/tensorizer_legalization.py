"""TensorizerLegalization (MHLO and StableHLO variants): dry run and apply mode."""

from __future__ import annotations

from passlint.analysis.findings import Finding
from passlint.analysis.mlir.ir import ParsedFile
from passlint.analysis.source import SourceText


def check(path: str, parsed: ParsedFile, source: SourceText, pipeline: str) -> list[Finding]:
    """Findings of the pass for one parsed .mlir file (placeholder until the pass lands)."""
    return []
