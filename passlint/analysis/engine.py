"""Which passes run on which document, with settings and suppression comments applied."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from passlint.analysis.collector import collector_paused
from passlint.analysis.findings import Finding, Fix, Position, Range, TextEdit
from passlint.analysis.language import language_of as language_of  # (the engine's to tell)
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.rules import RULES
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.config import Settings

if TYPE_CHECKING:  # imported where used: a check on the command line has no memo
    from passlint.analysis.mlir.ir import ParsedFile
    from passlint.analysis.quick_memo import QuickMemo
    from passlint.passes.tensorizer_legalization import ChunkAnalysis

# The MLIR front end's memo: one per process, so one per `passlint check` run and one per
# server worker (what it keeps is bounded; a test clears it with ``MLIR_MEMO.clear()``).
MLIR_MEMO = MlirMemo()

_SUPPRESS = re.compile(r"(?://|#)\s*passlint:\s*ignore(-file)?\[([A-Za-z0-9, ]+)\]")
_SUPPRESS_FILE = re.compile(r"(?://|#)\s*passlint:\s*ignore-file\b(?!\[)")


@dataclass(frozen=True)
class DocumentAnalysis:
    """One analysis of a document: its findings and, for .mlir, the parse and the
    TensorizerLegalization analysis of each chunk they came from (what the editor features
    read, so nothing is parsed or analysed again)."""

    findings: list[Finding]
    parsed: ParsedFile | None = None
    tensorizer: tuple[ChunkAnalysis, ...] = ()


def analyze(
    path: str,
    text: str,
    settings: Settings | None = None,
    workspace: Workspace | None = None,
) -> list[Finding]:
    """All findings for one document, filtered and re-graded by ``settings`` (with its
    per-file ignores for ``path``).

    For .mlir the collector stays paused until the IR is garbage: its first collection then
    frees the whole IR in one pass, instead of scanning it again and again while it lives
    (the IR is millions of objects in cycles when `passlint check` reads megabytes)."""
    if language_of(path, text) != "mlir":
        return analyze_document(path, text, settings, workspace).findings
    with collector_paused():
        return _findings(path, text, settings, workspace)


def _findings(
    path: str, text: str, settings: Settings | None, workspace: Workspace | None
) -> list[Finding]:
    """The findings of ``analyze_document``; the rest of its analysis is garbage on return."""
    analysis = analyze_document(path, text, settings, workspace)
    if analysis.parsed is not None:
        analysis.parsed.release()
    return analysis.findings


def analyze_document(
    path: str,
    text: str,
    settings: Settings | None = None,
    workspace: Workspace | None = None,
) -> DocumentAnalysis:
    """``analyze``, keeping the parse of a .mlir document."""
    settings = (settings or Settings()).for_file(path)
    language = language_of(path, text)
    if language is not None and (size := oversize(text, settings.max_file_size)) is not None:
        return DocumentAnalysis(_too_large(path, size, settings))
    if language == "mlir":
        raw, parsed, tensorizer = _mlir_findings(path, text, settings)
        findings = _postprocess(raw, SourceText(text), settings, path)
        return DocumentAnalysis(findings, parsed, tensorizer)
    if language == "pl":
        from passlint.passes import materialize_valid_shape_symbols

        with collector_paused(promote=True):
            raw = materialize_valid_shape_symbols.check_text(path, text, workspace)
        return DocumentAnalysis(_postprocess(raw, SourceText(text), settings, path))
    return DocumentAnalysis([])


def quick_analyze(
    path: str, text: str, settings: Settings | None = None, memo: QuickMemo | None = None
) -> list[Finding] | None:
    """A first, partial answer for a large .mlir document: the TensorizerLegalization
    findings read from @main's outline, without syntax errors elsewhere. None when there is
    no such answer; ``analyze`` gives the complete one (and prevails over this).

    With the document's ``memo``, the last answer is reused when the changes since leave
    what it read alone (the same answer, found without reading the whole text again)."""
    settings = (settings or Settings()).for_file(path)
    if language_of(path, text) != "mlir" or oversize(text, settings.max_file_size) is not None:
        return None
    if memo is not None and (kept := memo.recall(path, text, settings)) is not None:
        if kept.suppressions:
            again = _postprocess(list(kept.raw), SourceText(text), settings, path)
            kept = replace(kept, findings=tuple(again))
        memo.keep(text, kept)
        return list(kept.findings)
    from passlint.passes import tensorizer_legalization

    source = SourceText(text)
    with collector_paused():  # @main's header can be 100,000 tokens: build it in one go
        quick = tensorizer_legalization.quick_check(
            path, text, source, settings.pipeline, MLIR_MEMO
        )
    if quick is None:
        if memo is not None:
            memo.keep(text, None)
        return None
    raw, reads = quick
    findings = _postprocess(raw, source, settings, path)
    if memo is not None:
        from passlint.analysis.quick_memo import QuickAnswer

        suppressions = "passlint:" in text
        if not suppressions:
            reads = reads.watching("passlint:")  # one would filter the findings anew
        answer = QuickAnswer(text, path, settings, tuple(raw), tuple(findings), reads, suppressions)
        memo.keep(text, answer)
    return findings


FILE_TOO_LARGE = "PL001"


def oversize(text: str, max_size: int) -> int | None:
    """The size of ``text`` in bytes (UTF-8) when it is more than ``max_size``, else None."""
    if len(text) * 4 <= max_size:  # a character is at most 4 bytes: no need to encode
        return None
    size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    return size if size > max_size else None


def _too_large(path: str, size: int, settings: Settings) -> list[Finding]:
    """The one finding of a file above ``max-file-size``: it is not analysed."""
    if not settings.is_selected(FILE_TOO_LARGE):
        return []
    rule = RULES[FILE_TOO_LARGE]
    message = (
        "File not analysed: it is larger than `max-file-size`; raise that setting to analyse it. "
        f"It has {size} bytes and the limit is {settings.max_file_size}."
    )
    start = Position(0, 0)
    return [
        Finding(
            FILE_TOO_LARGE,
            settings.severity_of(FILE_TOO_LARGE, rule.severity),
            path,
            Range(start, start),
            message,
        )
    ]


def _mlir_findings(
    path: str, text: str, settings: Settings
) -> tuple[list[Finding], ParsedFile, tuple[ChunkAnalysis, ...]]:
    from passlint.analysis.mlir.parser import parse_file
    from passlint.analysis.mlir.syntax_findings import syntax_findings
    from passlint.passes import tensorizer_legalization

    parsed = parse_file(text, MLIR_MEMO)
    source = SourceText(text)
    tensorizer = tensorizer_legalization.analyze_file(parsed, settings.pipeline)
    findings = syntax_findings(path, parsed, source) + tensorizer_legalization.check(
        path, tensorizer, source
    )
    return findings, parsed, tensorizer


def _postprocess(
    raw: list[Finding], source: SourceText, settings: Settings, path: str = ""
) -> list[Finding]:
    """Apply ``settings`` (selection, severity) and suppression comments to ``raw``.

    A suppression ``ignore[CODE]`` is *used* when the pass raised CODE on its line or the
    line below, whether or not CODE is selected: turning a rule off must not make its
    suppressions look stale. PL100 (unused-suppression, opt-in) reports the codes of a
    suppression that matched nothing, and codes that are not rules at all.
    """
    if "passlint:" in source.text and _SUPPRESS_FILE.search(source.text):
        return []
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
    if suppressions and settings.is_selected(UNUSED_SUPPRESSION):
        unused = [_unused_finding(s, source, path or _path_of(raw)) for s in suppressions]
        result.extend(
            replace(f, severity=settings.severity_of(f.code, f.severity))
            for f in unused
            if f is not None
        )
    result.sort(key=lambda f: (f.range.start, f.code))
    return result


UNUSED_SUPPRESSION = "PL100"


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
        UNUSED_SUPPRESSION,
        RULES[UNUSED_SUPPRESSION].severity,
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
