"""The text format: ``path:line:col: CODE message`` per finding and a summary line.

On a terminal (``color=True``) the location and code are coloured and each finding is
followed by its source line with carets under the range; otherwise the output is plain
text, one finding per line, for grep and editors' problem matchers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from passlint.analysis.findings import Finding, Severity

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_SEVERITY_COLOR = {
    Severity.ERROR: "\x1b[1;31m",
    Severity.WARNING: "\x1b[1;33m",
    Severity.INFORMATION: "\x1b[1;34m",
    Severity.HINT: "\x1b[1;36m",
}
_CARET_COLOR = "\x1b[1;31m"


def location(finding: Finding) -> str:
    return f"{finding.path}:{finding.range.start.line + 1}:{finding.range.start.column + 1}"


def render_finding(
    finding: Finding, color: bool = False, lines: Mapping[int, str] | None = None
) -> str:
    if not color:
        return f"{location(finding)}: {finding.code} {finding.message}"
    code = f"{_SEVERITY_COLOR[finding.severity]}{finding.code}{_RESET}"
    fixable = f" {_DIM}[*]{_RESET}" if finding.fix is not None and finding.fix.preferred else ""
    out = [f"{_BOLD}{location(finding)}{_RESET}: {code}{fixable} {finding.message}"]
    line = finding.range.start.line
    source = (lines or {}).get(line)
    if source is not None:
        number = str(line + 1)
        gutter = " " * len(number)
        start = finding.range.start.column
        end = finding.range.end.column if finding.range.end.line == line else len(source)
        width = max(1, min(end, len(source)) - start)
        shown = source.expandtabs(1)
        out.append(f"{_DIM}{gutter} |{_RESET}")
        out.append(f"{_DIM}{number} |{_RESET} {shown}")
        out.append(f"{_DIM}{gutter} |{_RESET} {' ' * start}{_CARET_COLOR}{'^' * width}{_RESET}")
        out.append("")
    return "\n".join(out)


def render_text(
    findings: Sequence[Finding],
    files_checked: int,
    *,
    color: bool = False,
    lines: Mapping[str, Mapping[int, str]] | None = None,
    quiet: bool = False,
) -> str:
    out = [render_finding(f, color, (lines or {}).get(f.path)) for f in findings]
    if not quiet:
        out.append(summary(findings, files_checked))
    return "".join(line + "\n" for line in out)


def summary(findings: Sequence[Finding], files_checked: int) -> str:
    files = f"{files_checked} file{'s' if files_checked != 1 else ''}"
    if not findings:
        return f"All checks passed ({files} checked)."
    counts = Counter(f.severity.label for f in findings)
    fixable = sum(1 for f in findings if f.fix is not None and f.fix.preferred)
    detail = ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
    text = (
        f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({detail}) in {files}."
    )
    if fixable:
        text += f" {fixable} fixable with --fix."
    return text
