"""``--statistics``: how many findings of each rule, instead of the findings themselves.

Text: one row per rule (count, code, ``[*]`` when fixable, name) and the totals, as ruff
prints them; JSON: ruff's shape, a list of ``{code, name, count, fixable, fixable_count}``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from passlint.analysis.findings import Finding
from passlint.catalog import RULES
from passlint.report.text import fixable_note, totals


def _rows(findings: Sequence[Finding]) -> list[tuple[str, int, int]]:
    counts = Counter(f.code for f in findings)
    fixable = Counter(f.code for f in findings if f.fix is not None and f.fix.preferred)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [(code, count, fixable[code]) for code, count in ordered]


def render_statistics_text(
    findings: Sequence[Finding], files_checked: int, *, quiet: bool = False
) -> str:
    rows = "".join(
        f"{count:5}  {code:6} {'[*]' if fixable else '   '} {RULES[code].name}\n"
        for code, count, fixable in _rows(findings)
    )
    if quiet:
        return rows
    files = f"{files_checked} file{'s' if files_checked != 1 else ''}"
    if not findings:
        return f"No findings ({files} checked).\n"
    return rows + f"Found {totals(findings)} in {files}.{fixable_note(findings)}\n"


def render_statistics_json(findings: Sequence[Finding]) -> str:
    rows = [
        {
            "code": code,
            "name": RULES[code].name,
            "count": count,
            "fixable": fixable > 0,
            "fixable_count": fixable,
        }
        for code, count, fixable in _rows(findings)
    ]
    return json.dumps(rows, indent=2) + "\n"
