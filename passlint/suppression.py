"""Suppression comments and PL100 (unused-suppression) with its fix: what the settings and a
text's ``passlint: ignore[CODE]`` / ``ignore-file[...]`` comments leave of a pass's findings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from passlint.analysis.findings import Finding, Fix, TextEdit
from passlint.analysis.source import SourceText
from passlint.catalog import RULES, UNUSED_SUPPRESSION
from passlint.config import Settings

_SUPPRESS = re.compile(r"(?://|#)\s*passlint:\s*ignore(-file)?\[([A-Za-z0-9, ]+)\]")
_SUPPRESS_FILE = re.compile(r"(?://|#)\s*passlint:\s*ignore-file\b(?!\[)")


def postprocess(
    raw: list[Finding], source: SourceText, settings: Settings, path: str = ""
) -> list[Finding]:
    """Apply ``settings`` (selection, severity) and suppression comments to ``raw``.

    A suppression ``ignore[CODE]`` is *used* when the pass raised CODE on its line or the
    line below, whether or not CODE is selected: turning a rule off must not make its
    suppressions look stale. PL100 (unused-suppression, opt-in) reports the codes of a
    suppression that matched nothing, and codes that are not rules at all.
    """
    if "passlint:" not in source.text:  # (the usual case, found in one search)
        suppressions = []
    elif _SUPPRESS_FILE.search(source.text):
        return []
    else:
        suppressions = suppression_comments(source)
    by_line: dict[int, list[Suppression]] = {}
    whole_file: list[Suppression] = []
    for suppression in suppressions:
        if suppression.whole_file:
            whole_file.append(suppression)
        else:
            by_line.setdefault(suppression.line, []).append(suppression)
    result = []
    selected: dict[str, bool] = {}  # by code: a module has hundreds of findings, few codes
    for finding in raw:
        line = finding.range.start.line
        matching = [
            s
            for s in (*by_line.get(line, ()), *by_line.get(line - 1, ()), *whole_file)
            if finding.code in s.codes
        ]
        for suppression in matching:
            suppression.used.add(finding.code)
        if finding.code not in selected:
            selected[finding.code] = settings.is_selected(finding.code)
        if matching or not selected[finding.code]:
            continue
        severity = settings.severity_of(finding.code, finding.severity)
        result.append(
            replace(finding, severity=severity) if severity != finding.severity else finding
        )
    if suppressions and settings.is_selected(UNUSED_SUPPRESSION.code):
        unused = [_unused_finding(s, source, path or _path_of(raw)) for s in suppressions]
        result.extend(
            replace(f, severity=settings.severity_of(f.code, f.severity))
            for f in unused
            if f is not None
        )
    result.sort(key=lambda f: (f.range.start, f.code))
    return result


@dataclass
class Suppression:
    """One ``passlint: ignore[...]`` (or ``ignore-file[...]``) comment: where it is and which
    codes it names."""

    line: int
    start: int  # offset of the comment marker (``//`` or ``#``)
    end: int  # offset just past ``]``
    list_start: int  # offset of the first character inside ``[...]``
    list_end: int  # offset of ``]``
    codes: tuple[str, ...]
    whole_file: bool = False  # ``ignore-file[...]``: the codes anywhere in the file
    used: set[str] = field(default_factory=set)


def suppression_comments(source: SourceText) -> list[Suppression]:
    """The suppression comments of a text, as the suppression rules read them (the editor's
    suppression actions merge their codes into these)."""
    found: list[Suppression] = []
    if "passlint:" not in source.text:
        return found
    for match in _SUPPRESS.finditer(source.text):
        codes = tuple(
            dict.fromkeys(
                code.strip().upper() for code in match.group(2).split(",") if code.strip()
            )
        )
        found.append(
            Suppression(
                line=source.position(match.start()).line,
                start=match.start(),
                end=match.end(),
                list_start=match.start(2),
                list_end=match.end(2),
                codes=codes,
                whole_file=match.group(1) is not None,
            )
        )
    return found


def _path_of(raw: list[Finding]) -> str:
    return raw[0].path if raw else ""


def _unused_finding(suppression: Suppression, source: SourceText, path: str) -> Finding | None:
    unknown = [code for code in suppression.codes if code not in RULES]
    unused = [code for code in suppression.codes if code in RULES and code not in suppression.used]
    if not unknown and not unused:
        return None
    message = _unused_message(unused, unknown)
    keep = [code for code in suppression.codes if code in suppression.used]
    text = source.text
    if keep:
        title = f"Keep only {', '.join(keep)} in the suppression"
        start, end, new_text = suppression.list_start, suppression.list_end, ", ".join(keep)
    else:
        title = "Remove the suppression comment"
        line_start = source.line_starts[suppression.line]
        line_end = line_start + len(source.line_text(suppression.line))
        before = text[line_start : suppression.start]
        after = text[suppression.end : line_end]
        if after.strip():
            # More comment follows: it stays a comment (``x = 1  # why``).
            start = text.index("passlint:", suppression.start)
            end = suppression.end + len(after) - len(after.lstrip())
        elif not before.strip():
            # The comment is the whole line: remove the line with its line break.
            following = suppression.line + 1
            start = line_start
            end = source.line_starts[following] if following < source.line_count else len(text)
        else:
            start = line_start + len(before.rstrip())
            end = suppression.end
        new_text = ""
    rng = source.range(suppression.start, suppression.end)
    fix = Fix(title, (TextEdit(path, source.range(start, end), new_text),))
    return Finding(
        UNUSED_SUPPRESSION.code,
        UNUSED_SUPPRESSION.severity,
        path,
        rng,
        message,
        fix=fix,
        tags=("unnecessary",),
    )


def _unused_message(unused: list[str], unknown: list[str]) -> str:
    """PL100's message: what is stale in the suppression, then why."""
    names = unused + unknown
    them = "it" if len(names) == 1 else "them"
    if unused and unknown:
        first = (
            f"Suppression of {', '.join(unused)} is unused and {', '.join(unknown)} is no rule; "
            f"remove {them}."
        )
    elif unused:
        first = f"Unused suppression of {', '.join(unused)}; remove {them}."
    else:
        s = "s" if len(unknown) > 1 else ""
        first = f"Unknown rule code{s} {', '.join(unknown)} in the suppression; remove {them}."
    why = []
    if unused:
        why.append(
            f"No {' or '.join(unused)} finding is raised on this line or the next, so it hides "
            "only the next real one."
        )
    if unknown:
        why.append("`passlint rules` lists the codes.")
    return " ".join([first, *why])
