"""SARIF 2.1.0 (for GitHub code scanning and other SARIF viewers).

One run with the whole rule catalog as ``tool.driver.rules`` (short and full descriptions,
help text as ``passlint rule CODE`` prints it, a help URI only where a page exists, default
level), one result per
finding with its fix as ``fixes[].artifactChanges``. Artifact URIs are relative to
``%SRCROOT%`` (the repository's top folder, given as ``root``) so the file is portable;
columns count Unicode code points (``columnKind``), as passlint's do. A URI holds the
file name's bytes percent-encoded (RFC 3986), so a name of any bytes has one; messages are
kept exact. A finding in a binary file (an HLO proto, MLIR bytecode) has no region: the file
alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from passlint import __version__
from passlint.analysis.findings import Finding, Range, Severity
from passlint.analysis.language import is_binary
from passlint.analysis.rules import Rule
from passlint.catalog import RULES
from passlint.report.escape import percent_encoded

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "note",
    Severity.HINT: "note",
}


def artifact_location(path: str, root: str) -> dict[str, str]:
    """``{"uri", "uriBaseId"}`` relative to ``root``; an absolute file URI when outside it."""
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(os.path.abspath(root))
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": percent_encoded(relative.as_posix()), "uriBaseId": "%SRCROOT%"}


def _region(rng: Range) -> dict[str, int]:
    return {
        "startLine": rng.start.line + 1,
        "startColumn": rng.start.column + 1,
        "endLine": rng.end.line + 1,
        "endColumn": rng.end.column + 1,
    }


def _physical_location(finding: Finding, root: str) -> dict[str, object]:
    """Where ``finding`` is: its file and region; a binary file (an HLO proto, MLIR bytecode)
    has no lines, and SARIF gives no text region in one, so its findings name the file alone."""
    location: dict[str, object] = {"artifactLocation": artifact_location(finding.path, root)}
    if not is_binary(finding.path):
        location["region"] = _region(finding.range)
    return location


def _rule(rule: Rule) -> dict[str, object]:
    described: dict[str, object] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why},
        "help": {"text": rule.explain()},
        "defaultConfiguration": {
            "level": _LEVEL[rule.severity],
            "enabled": not rule.opt_in,
        },
    }
    if rule.url is not None:  # no link to a page that does not exist
        described["helpUri"] = rule.url
    return described


def _result(finding: Finding, rule_index: int, root: str) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": _physical_location(finding, root)}],
    }
    if finding.related:
        result["relatedLocations"] = [
            {
                "id": index,
                "message": {"text": related.message},
                "physicalLocation": {
                    "artifactLocation": artifact_location(related.path, root),
                    "region": _region(related.range),
                },
            }
            for index, related in enumerate(finding.related)
        ]
    if finding.fix is not None:
        by_path: dict[str, list[dict[str, object]]] = {}
        for edit in finding.fix.edits:
            by_path.setdefault(edit.path, []).append(
                {"deletedRegion": _region(edit.range), "insertedContent": {"text": edit.new_text}}
            )
        result["fixes"] = [
            {
                "description": {"text": finding.fix.title},
                "artifactChanges": [
                    {"artifactLocation": artifact_location(path, root), "replacements": changes}
                    for path, changes in by_path.items()
                ],
            }
        ]
    return result


def render_sarif(findings: Sequence[Finding], root: str) -> str:
    index = {code: i for i, code in enumerate(RULES)}
    root_uri = Path(os.path.abspath(root)).as_uri().rstrip("/") + "/"
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "passlint",
                        "version": __version__,
                        "rules": [_rule(rule) for rule in RULES.values()],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": [_result(f, index[f.code], root) for f in findings],
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"
