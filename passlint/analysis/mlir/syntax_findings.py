"""E findings from the syntax issues of a parsed .mlir file (E001 and the precise codes)."""

from __future__ import annotations

from passlint.analysis.findings import Finding, Location, Severity
from passlint.analysis.mlir.ir import ParsedFile
from passlint.analysis.source import SourceText


def syntax_findings(path: str, parsed: ParsedFile, source: SourceText) -> list[Finding]:
    findings = []
    for issue in parsed.errors:
        related: tuple[Location, ...] = ()
        if issue.related is not None:
            related = (Location(path, source.range(*issue.related), issue.related_note),)
        findings.append(
            Finding(
                issue.code,
                Severity.ERROR,
                path,
                source.range(issue.start, issue.end),
                issue.message,
                related,
            )
        )
    return findings
