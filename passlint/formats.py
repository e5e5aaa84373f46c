"""Rendering findings for the terminal and for other tools (text, JSON)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from passlint.analysis.findings import Finding, Range
from passlint.analysis.rules import RULES

JSON_VERSION = 1


def render_text(findings: Sequence[Finding], files_checked: int) -> str:
    lines = [
        f"{f.path}:{f.range.start.line + 1}:{f.range.start.column + 1}: {f.code} {f.message}"
        for f in findings
    ]
    lines.append(_summary(findings, files_checked))
    return "\n".join(lines) + "\n"


def _summary(findings: Sequence[Finding], files_checked: int) -> str:
    files = f"{files_checked} file{'s' if files_checked != 1 else ''}"
    if not findings:
        return f"All checks passed ({files} checked)."
    counts = Counter(f.severity.label for f in findings)
    fixable = sum(1 for f in findings if f.fix is not None)
    detail = ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
    text = (
        f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({detail}) in {files}."
    )
    if fixable:
        text += f" {fixable} fixable with --fix."
    return text


def _json_range(rng: Range) -> dict[str, dict[str, int]]:
    return {
        "start": {"line": rng.start.line + 1, "column": rng.start.column + 1},
        "end": {"line": rng.end.line + 1, "column": rng.end.column + 1},
    }


def finding_to_json(finding: Finding) -> dict[str, object]:
    fix = None
    if finding.fix is not None:
        fix = {
            "title": finding.fix.title,
            "edits": [
                {"path": edit.path, "range": _json_range(edit.range), "new_text": edit.new_text}
                for edit in finding.fix.edits
            ],
        }
    return {
        "path": finding.path,
        "code": finding.code,
        "name": RULES[finding.code].name,
        "severity": finding.severity.label,
        "message": finding.message,
        "range": _json_range(finding.range),
        "fix": fix,
    }


def render_json(findings: Sequence[Finding]) -> str:
    document = {"version": JSON_VERSION, "findings": [finding_to_json(f) for f in findings]}
    return json.dumps(document, indent=2) + "\n"
