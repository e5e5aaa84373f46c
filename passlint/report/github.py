"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` per finding,
so findings show as annotations on the pull request's diff.

Values are escaped as GitHub's runner reads them (``%``, CR and LF in the message; also
``:`` and ``,`` in properties), and every other control character is made visible as on a
terminal (``escape.terminal_safe``: the job's log is one too). So ``file`` is the
repository's path whenever the name holds no control character and is valid Unicode."""

from __future__ import annotations

from collections.abc import Sequence

from passlint.analysis.findings import Finding, Severity
from passlint.catalog import RULES
from passlint.report.escape import terminal_safe

_COMMAND = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
    Severity.HINT: "notice",
}

# What GitHub's own escaping carries.
_GITHUB_ESCAPES = "\r\n"


def _escape_data(text: str) -> str:
    text = terminal_safe(text, keep=_GITHUB_ESCAPES)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(findings: Sequence[Finding]) -> str:
    out = []
    for finding in findings:
        rng = finding.range
        properties = ",".join(
            f"{key}={_escape_property(value)}"
            for key, value in (
                ("file", finding.path),
                ("line", str(rng.start.line + 1)),
                ("col", str(rng.start.column + 1)),
                ("endLine", str(rng.end.line + 1)),
                ("endColumn", str(rng.end.column + 1)),
                ("title", f"{finding.code} {RULES[finding.code].name}"),
            )
        )
        message = _escape_data(f"{finding.code} {finding.message}")
        out.append(f"::{_COMMAND[finding.severity]} {properties}::{message}\n")
    return "".join(out)
