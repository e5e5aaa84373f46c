"""The stable JSON format (version 1) that other tools read: keys are only ever added.

A fix's ``preferred`` is false when applying it leaves call sites to edit by hand (its
title names them); ``--fix`` applies only preferred fixes."""

from __future__ import annotations

import json
from collections.abc import Sequence

from passlint.analysis.findings import Finding, Range
from passlint.analysis.rules import RULES

JSON_VERSION = 1


def json_range(rng: Range) -> dict[str, dict[str, int]]:
    """A range with 1-based lines and columns (columns count characters)."""
    return {
        "start": {"line": rng.start.line + 1, "column": rng.start.column + 1},
        "end": {"line": rng.end.line + 1, "column": rng.end.column + 1},
    }


def finding_to_json(finding: Finding) -> dict[str, object]:
    fix = None
    if finding.fix is not None:
        fix = {
            "title": finding.fix.title,
            "preferred": finding.fix.preferred,
            "edits": [
                {"path": edit.path, "range": json_range(edit.range), "new_text": edit.new_text}
                for edit in finding.fix.edits
            ],
        }
    return {
        "path": finding.path,
        "code": finding.code,
        "name": RULES[finding.code].name,
        "severity": finding.severity.label,
        "message": finding.message,
        "range": json_range(finding.range),
        "fix": fix,
    }


def render_json(findings: Sequence[Finding]) -> str:
    document = {"version": JSON_VERSION, "findings": [finding_to_json(f) for f in findings]}
    return json.dumps(document, indent=2) + "\n"
