"""Helpers shared by the TensorizerLegalization tests: run the pass, apply fixes."""

from __future__ import annotations

from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Finding
from passlint.config import Settings
from passlint.pipeline import analyze

PATH = "test.mlir"


def check(
    text: str, pipeline: str = "auto", select: tuple[str, ...] | None = None
) -> list[Finding]:
    settings = Settings(pipeline=pipeline, select=select)  # type: ignore[arg-type]
    return analyze(PATH, text, settings)


def codes(text: str, pipeline: str = "auto") -> list[str]:
    return [f.code for f in check(text, pipeline)]


def fix_one(text: str, finding: Finding) -> str:
    assert finding.fix is not None
    return apply_edits(text, finding.fix.edits)


def fix_all(text: str, pipeline: str = "auto") -> str:
    fixes = [f.fix for f in check(text, pipeline) if f.fix is not None]
    return apply_edits(text, edits_by_path(fixes).get(PATH, []))


def span_text(text: str, finding: Finding) -> str:
    lines = text.split("\n")
    start, end = finding.range.start, finding.range.end
    if start.line == end.line:
        return lines[start.line][start.column : end.column]
    raise AssertionError("multi-line range")
