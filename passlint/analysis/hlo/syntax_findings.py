"""E010 findings from the syntax issues of a parsed HLO text, and E011 for an HLO proto that
cannot be read (the rules are in ``rules``)."""

from __future__ import annotations

from passlint.analysis.findings import Finding, Position, Range
from passlint.analysis.hlo.ir import HloFile
from passlint.analysis.hlo.rules import HLO_PROTO_UNREADABLE, HLO_SYNTAX_ERROR
from passlint.analysis.hlo.wire import WireError


def syntax_findings(path: str, parsed: HloFile) -> list[Finding]:
    """One E010 finding per syntax issue, at its span."""
    rule = HLO_SYNTAX_ERROR
    return [
        Finding(rule.code, rule.severity, path, parsed.range(issue.span), issue.message)
        for issue in parsed.issues
    ]


def unreadable_finding(path: str, error: WireError) -> Finding:
    """The one E011 finding of an HLO proto that cannot be read, at 0:0 (a binary file has
    no lines), with the byte offset in its message."""
    rule = HLO_PROTO_UNREADABLE
    reason = error.reason[:1].upper() + error.reason[1:]
    message = (
        f"The HLO proto cannot be read at byte {error.offset}; write it again with XLA. {reason}."
    )
    nowhere = Range(Position(0, 0), Position(0, 0))
    return Finding(rule.code, rule.severity, path, nowhere, message)
