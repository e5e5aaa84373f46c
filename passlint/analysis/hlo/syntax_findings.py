"""E010 findings from the syntax issues of a parsed HLO text (the rule is in ``rules``)."""

from __future__ import annotations

from passlint.analysis.findings import Finding
from passlint.analysis.hlo.ir import HloFile
from passlint.analysis.hlo.rules import HLO_SYNTAX_ERROR


def syntax_findings(path: str, parsed: HloFile) -> list[Finding]:
    """One E010 finding per syntax issue, at its span."""
    rule = HLO_SYNTAX_ERROR
    return [
        Finding(rule.code, rule.severity, path, parsed.range(issue.span), issue.message)
        for issue in parsed.issues
    ]
