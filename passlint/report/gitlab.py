"""GitLab Code Quality (``artifacts:reports:codequality``): a JSON array of one issue per
finding, in the part of the Code Climate format that GitLab reads.

An issue has a ``description`` (the code, then the message: GitLab shows no check name), a
``check_name`` (the code), a ``fingerprint``, a ``severity`` (error ``critical``, warning
``major``, information ``minor``, hint ``info``; GitLab's ``blocker`` is not used) and a
``location``: ``path`` relative to ``root`` (``/`` separators; in full when outside it) and
``lines.begin``/``lines.end``, 1-based.

GitLab compares a merge request's issues with its target branch's by fingerprint. Here it is
a SHA-256 of the code, the location's path, the text of the finding's line (without its
indentation) and how many findings of those three came before it: the line's number is left
out, so a finding keeps its fingerprint when lines are added above it, and no two findings
share one. A file name that is not UTF-8 shows each stray byte as ``\\xff``
(``escape.readable_name``); the output is ASCII.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence

from passlint.analysis.findings import Finding, Severity
from passlint.discovery import relative_to
from passlint.report.escape import readable_name

_SEVERITY = {
    Severity.ERROR: "critical",
    Severity.WARNING: "major",
    Severity.INFORMATION: "minor",
    Severity.HINT: "info",
}


def render_gitlab(
    findings: Sequence[Finding], lines: Mapping[str, Mapping[int, str]], root: str
) -> str:
    """The report; ``lines``: the text of each finding's line, by path and 0-based line."""
    seen: Counter[tuple[str, str, str]] = Counter()
    issues = []
    for finding in findings:
        path = readable_name(relative_to(finding.path, root))
        line = finding.range.start.line
        text = lines.get(finding.path, {}).get(line, "").strip()
        key = (finding.code, path, text)
        fingerprint = hashlib.sha256(
            "\0".join((*key, str(seen[key]))).encode("utf-8", "surrogatepass")
        ).hexdigest()
        seen[key] += 1
        issues.append(
            {
                "description": f"{finding.code} {finding.message}",
                "check_name": finding.code,
                "fingerprint": fingerprint,
                "severity": _SEVERITY[finding.severity],
                "location": {
                    "path": path,
                    "lines": {"begin": line + 1, "end": finding.range.end.line + 1},
                },
            }
        )
    return json.dumps(issues, indent=2) + "\n"
