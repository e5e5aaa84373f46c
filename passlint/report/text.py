"""The text format: ``path:line:col: CODE message`` per finding and a summary line (with
``--show-fixes``, the fixes between them: ``report.fixes``).

On a terminal (``color=True``) the location and code are coloured; with ``source=True``
(on a terminal by default, always with ``--output-format full``) each finding is followed
by its source line with carets under the range (of a long line, the ``FRAME_WIDTH``
characters around the range's start, cut off with ``...``). Otherwise the output is plain text, one
finding per line, for grep and editors' problem matchers. File names, messages and source
lines are escaped (``escape.terminal_name``, ``escape.terminal_safe``): no control
character of theirs reaches the terminal, and the carets stay under the escaped range.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from passlint.analysis.findings import Finding, Severity
from passlint.report.escape import terminal_name, terminal_safe

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
FRAME_WIDTH = 160  # the characters of a source line a finding shows at most
FRAME_LEAD = 40  # of them, those before the range's start
_CUT = "..."


def location(finding: Finding) -> str:
    start = finding.range.start
    return f"{terminal_name(finding.path)}:{start.line + 1}:{start.column + 1}"


def render_finding(
    finding: Finding,
    color: bool = False,
    lines: Mapping[int, str] | None = None,
    source: bool | None = None,
) -> str:
    """One finding; ``source`` (default: ``color``) adds its line from ``lines``."""
    dim, reset = (_DIM, _RESET) if color else ("", "")
    message = terminal_safe(finding.message)
    if color:
        code = f"{_SEVERITY_COLOR[finding.severity]}{finding.code}{_RESET}"
        fixable = f" {_DIM}[*]{_RESET}" if finding.fix is not None and finding.fix.preferred else ""
        out = [f"{_BOLD}{location(finding)}{_RESET}: {code}{fixable} {message}"]
    else:
        out = [f"{location(finding)}: {finding.code} {message}"]
    line = finding.range.start.line
    text = (lines or {}).get(line) if (color if source is None else source) else None
    if text is not None:
        number = str(line + 1)
        gutter = " " * len(number)
        start = finding.range.start.column
        end = finding.range.end.column if finding.range.end.line == line else len(text)
        end = max(start, min(end, len(text)))
        # A long line is shown around the range: a finding on a 1 MB line printed all of it,
        # and each further finding there all of it again.
        first, last = 0, len(text)
        if len(text) > FRAME_WIDTH:
            first = max(0, min(start, len(text)) - FRAME_LEAD)
            last = min(len(text), first + FRAME_WIDTH)
        head, tail = _CUT if first else "", _CUT if last < len(text) else ""
        shown = text[first:last].expandtabs(1)  # (a tab is one column, as in the range)
        start, end = start - first, min(end, last) - first
        before, marked = terminal_safe(shown[:start]), terminal_safe(shown[start:end])
        indent = len(head) + len(before) + max(0, start - len(shown))  # (may start past the end)
        width = max(1, len(marked))
        carets = f"{_CARET_COLOR}{'^' * width}{_RESET}" if color else "^" * width
        after = terminal_safe(shown[end:])
        out.append(f"{dim}{gutter} |{reset}")
        out.append(f"{dim}{number} |{reset} {head}{before}{marked}{after}{tail}")
        out.append(f"{dim}{gutter} |{reset} {' ' * indent}{carets}")
        out.append("")
    return "\n".join(out)


def render_text(
    findings: Sequence[Finding],
    files_checked: int,
    *,
    color: bool = False,
    lines: Mapping[str, Mapping[int, str]] | None = None,
    quiet: bool = False,
    errors: int = 0,
    source: bool | None = None,
    fixes: str = "",
) -> str:
    """The findings, then ``fixes`` (``--show-fixes``: ``report.fixes``) after a blank line,
    then the summary line unless ``quiet``."""
    out = [render_finding(f, color, (lines or {}).get(f.path), source) for f in findings]
    if fixes:
        out.extend(["", *fixes.splitlines()] if out else fixes.splitlines())
    if not quiet:
        out.append(summary(findings, files_checked, errors))
    return "".join(line + "\n" for line in out)


def summary(findings: Sequence[Finding], files_checked: int, errors: int = 0) -> str:
    """The closing line; it never says "All checks passed" when there were ``errors``
    (paths that could not be checked or fixed, reported on stderr)."""
    files = f"{files_checked} file{'s' if files_checked != 1 else ''}"
    also = f", and {errors} error{'s' if errors != 1 else ''} (see stderr)" if errors else ""
    if not findings:
        if errors:
            return f"No findings in {files} checked{also}."
        return f"All checks passed ({files} checked)."
    return f"Found {totals(findings)} in {files}{also}." + fixable_note(findings)


def totals(findings: Sequence[Finding]) -> str:
    """``3 findings (1 error, 2 warning)``."""
    counts = Counter(f.severity.label for f in findings)
    detail = ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
    return f"{len(findings)} finding{'s' if len(findings) != 1 else ''} ({detail})"


def fixable_note(findings: Sequence[Finding]) -> str:
    fixable = sum(1 for f in findings if f.fix is not None and f.fix.preferred)
    return f" {fixable} fixable with --fix." if fixable else ""
