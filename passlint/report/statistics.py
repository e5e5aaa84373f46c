"""``--statistics``: how many findings of each rule, instead of the findings themselves."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from passlint.analysis.findings import Finding
from passlint.analysis.rules import RULES


def _rows(findings: Sequence[Finding]) -> list[tuple[str, int, bool]]:
    counts = Counter(f.code for f in findings)
    fixable = {f.code for f in findings if f.fix is not None and f.fix.preferred}
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [(code, count, code in fixable) for code, count in ordered]


def render_statistics_text(findings: Sequence[Finding]) -> str:
    return "".join(
        f"{count:5}  {code:6} {'[*]' if fixable else '   '} {RULES[code].name}\n"
        for code, count, fixable in _rows(findings)
    )


def render_statistics_json(findings: Sequence[Finding]) -> str:
    rows = [
        {"code": code, "name": RULES[code].name, "count": count, "fixable": fixable}
        for code, count, fixable in _rows(findings)
    ]
    return json.dumps(rows, indent=2) + "\n"
