"""Compatibility names for the renderers, which live in ``passlint.report``."""

from __future__ import annotations

from collections.abc import Sequence

from passlint.analysis.findings import Finding
from passlint.report.json_report import JSON_VERSION, finding_to_json, render_json
from passlint.report.text import render_text as _render_text

__all__ = ["JSON_VERSION", "finding_to_json", "render_json", "render_text"]


def render_text(findings: Sequence[Finding], files_checked: int) -> str:
    """Plain text: one ``path:line:col: CODE message`` line per finding and a summary."""
    return _render_text(findings, files_checked)
