"""Which passes run on which document, with settings and suppression comments applied."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from passlint.analysis.findings import Finding
from passlint.analysis.rules import RULES
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.config import Settings

Language = Literal["mlir", "pl"]

_PL_IMPORT = re.compile(
    r"^\s*(?:import\s+pypto\.language\b|from\s+pypto(?:\.language)?\s+import\b)", re.MULTILINE
)
_SUPPRESS = re.compile(r"(?://|#)\s*passlint:\s*ignore\[([A-Z0-9, ]+)\]")
_SUPPRESS_FILE = re.compile(r"(?://|#)\s*passlint:\s*ignore-file\b")


def language_of(path: str, text: str) -> Language | None:
    """``mlir`` for .mlir files, ``pl`` for Python files importing pypto.language, else None."""
    if path.endswith(".mlir"):
        return "mlir"
    if path.endswith(".py") and _PL_IMPORT.search(text):
        return "pl"
    return None


def analyze(
    path: str,
    text: str,
    settings: Settings | None = None,
    workspace: Workspace | None = None,
) -> list[Finding]:
    """All findings for one document, filtered and re-graded by ``settings``."""
    settings = settings or Settings()
    language = language_of(path, text)
    if language == "mlir":
        raw = _mlir_findings(path, text, settings)
    elif language == "pl":
        from passlint.passes import materialize_valid_shape_symbols

        raw = materialize_valid_shape_symbols.check_text(path, text, workspace)
    else:
        return []
    return _postprocess(raw, SourceText(text), settings)


def _mlir_findings(path: str, text: str, settings: Settings) -> list[Finding]:
    from passlint.analysis.mlir.parser import parse_file
    from passlint.analysis.mlir.syntax_findings import syntax_findings
    from passlint.passes import tensorizer_legalization

    parsed = parse_file(text)
    source = SourceText(text)
    return syntax_findings(path, parsed, source) + tensorizer_legalization.check(
        path, parsed, source, settings.pipeline
    )


def _postprocess(raw: list[Finding], source: SourceText, settings: Settings) -> list[Finding]:
    if _SUPPRESS_FILE.search(source.text):
        return []
    suppressed = _suppressions(source)
    result = []
    for finding in raw:
        if not settings.is_selected(finding.code):
            continue
        line = finding.range.start.line
        if finding.code in suppressed.get(line, ()) or finding.code in suppressed.get(line - 1, ()):
            continue
        severity = settings.severity_of(finding.code, finding.severity)
        result.append(
            replace(finding, severity=severity) if severity != finding.severity else finding
        )
    result.sort(key=lambda f: (f.range.start, f.code))
    return result


def _suppressions(source: SourceText) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    if "passlint:" not in source.text:
        return found
    for match in _SUPPRESS.finditer(source.text):
        codes = {code.strip() for code in match.group(1).split(",") if code.strip() in RULES}
        found.setdefault(source.position(match.start()).line, set()).update(codes)
    return found
