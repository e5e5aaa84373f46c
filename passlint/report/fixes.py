"""``--show-fixes``: after the findings of a text report, the fixes by file and rule: those
``--fix`` applied or, without it, those it would apply (a fix that leaves call sites to edit
by hand is never applied, so never listed). One row per rule as ``--statistics`` prints
them: count, code, name; file names escaped as in the rest of the text format."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from passlint.analysis.findings import Finding
from passlint.catalog import RULES
from passlint.report.escape import terminal_name


def fixable_by_rule(findings: Sequence[Finding]) -> Counter[tuple[str, str]]:
    """How many findings ``--fix`` would fix, by (path, code)."""
    return Counter(
        (finding.path, finding.code)
        for finding in findings
        if finding.fix is not None and finding.fix.preferred
    )


def render_fixes(counts: Mapping[tuple[str, str], int], *, applied: bool) -> str:
    """The listing (nothing when there is no fix); ``applied``: the fixes were made."""
    total = sum(counts.values())
    if not total:
        return ""
    by_path: defaultdict[str, list[tuple[str, int]]] = defaultdict(list)
    for (path, code), count in counts.items():
        if count:
            by_path[path].append((code, count))
    noun = "finding" if total == 1 else "findings"
    out = [f"Fixed {total} {noun}:" if applied else f"{total} {noun} fixable with --fix:"]
    for path in sorted(by_path):
        out.append(f"  {terminal_name(path)}")
        out.extend(
            f"  {count:5}  {code:6} {RULES[code].name}" for code, count in sorted(by_path[path])
        )
    return "".join(line + "\n" for line in out)
