"""JUnit XML (GitLab's and Jenkins' test reports): a ``testsuite`` per file checked.

A file's suite holds a failed ``testcase`` per finding (named by its code, rule name and
place; the ``failure`` has the message, the severity as its ``type`` and the finding's
``path:line:col: CODE message`` line as its text), or one passing ``testcase`` when the file
has none, so the report counts every file checked (ruff writes one passing case for a whole
clean run instead). A file that could not be checked has a ``testcase`` with an ``error``.

Text is exact where XML can hold it. A character XML 1.0 cannot hold at all (a control
character other than tab, line feed and carriage return, U+FFFE, U+FFFF, a lone surrogate:
a byte of a file name that is not UTF-8) is written as a visible escape (``\\x1b``,
``\\uffff``, ``\\xff``); ``&``, ``<``, ``>`` and ``"`` are escaped everywhere and line ends
and tabs as character references, so no message or name can end the document or add markup
(``]]>`` included: there is no CDATA).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from passlint.analysis.findings import Finding
from passlint.catalog import RULES
from passlint.report.escape import readable_name

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _visible(match: re.Match[str]) -> str:
    value = ord(match[0])
    return f"\\x{value:02x}" if value < 0x80 else f"\\u{value:04x}"


def _text(value: str) -> str:
    """``value`` as XML character data."""
    value = _NOT_XML.sub(_visible, readable_name(value))
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    )


def _attributes(**values: str | int) -> str:
    escaped = (
        _text(str(value)).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")
        for value in values.values()
    )
    return "".join(f' {name}="{value}"' for name, value in zip(values, escaped, strict=True))


def _case(finding: Finding) -> str:
    start = finding.range.start
    where = f"{start.line + 1}:{start.column + 1}"
    name = f"{finding.code} {RULES[finding.code].name} at {where}"
    head = _attributes(name=name, classname=finding.path, file=finding.path, line=start.line + 1)
    failure = _attributes(message=finding.message, type=finding.severity.label)
    text = _text(f"{finding.path}:{where}: {finding.code} {finding.message}")
    return f"    <testcase{head}>\n      <failure{failure}>{text}</failure>\n    </testcase>\n"


def render_junit(findings: Sequence[Finding], files: Mapping[str, str | None]) -> str:
    """The report; ``files``: each file checked, with why it could not be (None: it was)."""
    by_path: defaultdict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_path[finding.path].append(finding)
    suites = []
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for path in sorted({*files, *by_path}):
        error = files.get(path)
        found = by_path.get(path, [])
        cases = "".join(_case(finding) for finding in found)
        if error is not None:
            attributes = _attributes(name="passlint", classname=path, file=path)
            cases += (
                f"    <testcase{attributes}>\n"
                f"      <error{_attributes(message=error)}>{_text(f'{path}: {error}')}</error>\n"
                "    </testcase>\n"
            )
        elif not found:
            cases = f"    <testcase{_attributes(name='passlint', classname=path, file=path)}/>\n"
        counts = {
            "tests": len(found) + (1 if error is not None or not found else 0),
            "failures": len(found),
            "errors": 0 if error is None else 1,
        }
        for key, count in counts.items():
            totals[key] += count
        suites.append(f"  <testsuite{_attributes(name=path, **counts)}>\n{cases}  </testsuite>\n")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<testsuites{_attributes(name='passlint', **totals)}>\n"
        + "".join(suites)
        + "</testsuites>\n"
    )
