"""The stable JSON format (version 1) that other tools read: keys are only ever added.

A fix's ``preferred`` is false when applying it leaves call sites to edit by hand (its
title names them); ``--fix`` applies only preferred fixes.

Every string is exact except a file name that is not UTF-8, which no JSON string can hold:
its ``path`` shows each byte that is not UTF-8 as ``\\xff`` (as the text format does), and
``raw_path`` beside it holds the name's bytes percent-encoded (RFC 3986, as in SARIF's
URIs; ``urllib.parse.unquote_to_bytes`` gives them back). Other names have no ``raw_path``.
The output is ASCII (``\\u`` escapes), so valid UTF-8 whatever the terminal's encoding."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from passlint.analysis.findings import Finding, Range
from passlint.catalog import RULES
from passlint.discovery import relative_to
from passlint.report.escape import is_undecodable, percent_encoded, readable_name

JSON_VERSION = 1


def json_range(rng: Range) -> dict[str, dict[str, int]]:
    """A range with 1-based lines and columns (columns count characters)."""
    return {
        "start": {"line": rng.start.line + 1, "column": rng.start.column + 1},
        "end": {"line": rng.end.line + 1, "column": rng.end.column + 1},
    }


def path_to_json(path: str) -> dict[str, str]:
    """``{"path"}``, and ``"raw_path"`` when the name is not UTF-8 (module docstring)."""
    if not is_undecodable(path):
        return {"path": path}
    return {"path": readable_name(path), "raw_path": percent_encoded(path)}


def edit_path(path: str, finding_path: str) -> str:
    """The file of a fix's edit named as its finding's file is: the pass names the other files
    of the workspace a fix edits by their real paths, in full; when the finding's path is
    relative to the working folder (as the user named it), an edit's is too, if its file is
    below that folder (as ``--diff`` shows it)."""
    if os.path.isabs(finding_path) or not os.path.isabs(path):
        return path
    return relative_to(path, os.curdir)


def finding_to_json(finding: Finding) -> dict[str, object]:
    fix = None
    if finding.fix is not None:
        fix = {
            "title": finding.fix.title,
            "preferred": finding.fix.preferred,
            "edits": [
                {
                    **path_to_json(edit_path(edit.path, finding.path)),
                    "range": json_range(edit.range),
                    "new_text": edit.new_text,
                }
                for edit in finding.fix.edits
            ],
        }
    return {
        **path_to_json(finding.path),
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
