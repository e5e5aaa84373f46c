"""TensorizerLegalization's findings: one per output whose case raises a rule, with the
byte-minimal copy fix for the cases the pass copies, and the module-level TL004 (output
names) and TL005 (no @main); the rules are declared in ``rules``. ``quick_check`` gives them
from @main's outline alone."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.findings import Finding, Fix, Location, TextEdit
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.fast.main_outline import outline_main, used_names
from passlint.analysis.mlir.ir import BlockArgument, Operation, OpResult
from passlint.analysis.mlir.outline_reads import Reads
from passlint.analysis.source import SourceText, line_break, line_start
from passlint.passes.tensorizer_legalization.analysis import analyze_chunk
from passlint.passes.tensorizer_legalization.cases import CASES
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, Output, Variant
from passlint.passes.tensorizer_legalization.rules import (
    COMPOSITE_DECOMPOSITION_MISSING,
    MISSING_MAIN,
    OUTPUT_NAMES_MISMATCH,
)

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo


def quick_check(
    path: str, text: str, source: SourceText, pipeline: str, memo: MlirMemo | None = None
) -> tuple[list[Finding], Reads] | None:
    """The findings of ``check`` from @main's outline alone, with what they were read from,
    or None when the outline cannot be had or does not settle every output (a case the
    table marks as not quick: composites need their decomposition function).

    For an editor's first answer on a large file; the full ``check`` follows and prevails.
    """
    outline = outline_main(text, memo)
    if outline is None:
        return None
    try:
        variant: Variant
        if pipeline in ("mhlo", "stablehlo"):
            variant = pipeline  # type: ignore[assignment]
        else:
            only_mhlo = "mhlo" in outline.dialects and "stablehlo" not in outline.dialects
            variant = "mhlo" if only_mhlo else "stablehlo"
        analysis = analyze_chunk(outline.chunk, pipeline, variant, used_names(outline))
        if not all(output.case.quick for output in analysis.outputs):
            return None
        return chunk_findings(path, analysis, source), outline.read
    finally:
        outline.release()


def check(path: str, analyses: Iterable[ChunkAnalysis], source: SourceText) -> list[Finding]:
    """Findings of the pass for every chunk of a .mlir file (``analyze_file``'s analyses)."""
    findings: list[Finding] = []
    for analysis in analyses:
        findings.extend(chunk_findings(path, analysis, source))
    return findings


def chunk_findings(path: str, analysis: ChunkAnalysis, source: SourceText) -> list[Finding]:
    chunk = analysis.chunk
    if analysis.main is None:
        if not chunk.operations:
            return []
        first = chunk.operations[0]
        return [
            Finding(
                MISSING_MAIN.code,
                MISSING_MAIN.severity,
                path,
                source.range(*first.name_span),
                "This module has no `func.func @main`; add one, or ignore TL005 for a library. "
                "TensorizerLegalization legalizes the outputs of @main and aborts without it; "
                "lit tests and libraries legitimately have none.",
            )
        ]
    findings = _names_findings(path, analysis, source)
    place = None  # where copies go (read once: the return's line can be long)
    for output in analysis.outputs:
        if output.case.copies and place is None and analysis.ret is not None:
            place = _copy_place(source.text, analysis.ret)
        finding = _output_finding(path, analysis, output, source, place)
        if finding is not None:
            findings.append(finding)
    return findings


def _output_finding(
    path: str,
    analysis: ChunkAnalysis,
    output: Output,
    source: SourceText,
    place: _CopyPlace | None,
) -> Finding | None:
    """The finding of ``output``'s case, with its copy fix at ``place`` when it copies."""
    case = output.case
    if case.code is None or case.message is None:
        return None
    related: tuple[Location, ...] = ()
    other = case.related(analysis, output) if case.related is not None else None
    if other is not None:
        related = (Location(path, source.range(*other[0]), other[1]),)
    where = output.use.span
    if (
        case.rule is COMPOSITE_DECOMPOSITION_MISSING
    ):  # at the decomposition that names the missing function
        op = output.value.op if isinstance(output.value, OpResult) else None
        attribute = op.attribute("decomposition") if op is not None else None
        if attribute is not None and attribute.value_span is not None:
            where = attribute.value_span
        elif op is not None:
            where = op.name_span
    return Finding(
        case.code,
        case.finding_severity,
        path,
        source.range(*where),
        case.message(analysis, output),
        related,
        _copy_fix(path, analysis, output, source, place) if case.copies else None,
    )


def _names_findings(path: str, analysis: ChunkAnalysis, source: SourceText) -> list[Finding]:
    """TL004: `output_names` must hold one distinct string per operand of the return."""
    attr, names = analysis.output_names, analysis.names
    if attr is None or attr.value_span is None:
        return []
    count = len(analysis.outputs)
    problem = None
    if names is None:
        problem = "is not an array of strings"
    elif any(name is None for name in names):
        bad = [i for i, name in enumerate(names) if name is None]
        problem = f"has entries that are not strings (at {', '.join(map(str, bad))})"
    elif len(names) != count:
        plural = "s" if len(names) != 1 else ""
        problem = f"has {len(names)} name{plural} for {count} output{'s' if count != 1 else ''}"
        if len(names) < count:
            detail = "The pass reads past its end for the outputs without a name."
        else:
            detail = f"{_quoted(names[count:])} name no output."
    else:
        counts = Counter(names)
        duplicates = sorted(n for n, seen in counts.items() if n is not None and seen > 1)
        if duplicates:
            problem = f"repeats {_quoted(duplicates)}"
            detail = "Two buffers would share one name."
    if problem is None:
        return []
    if names is None or any(name is None for name in names):
        detail = "The pass reads a string per output slot."
    related: tuple[Location, ...] = ()
    if analysis.ret is not None:
        related = (Location(path, source.range(*analysis.ret.name_span), "the return of @main"),)
    return [
        Finding(
            OUTPUT_NAMES_MISMATCH.code,
            OUTPUT_NAMES_MISMATCH.severity,
            path,
            source.range(*attr.value_span),
            f"`output_names` of @main {problem}; give one distinct string per output. {detail}",
            related,
        )
    ]


@dataclass(frozen=True)
class _CopyPlace:
    """Where the copies before a return go: the new text is ``before + copy + after`` at
    ``at``, in the file's style (the return's indentation and line ending)."""

    at: int
    before: str
    after: str


def _quoted(names: list[str | None] | list[str]) -> str:
    """The first three names, quoted, and how many more there are."""
    shown = ", ".join(repr(excerpt(name or "")) for name in names[:3])
    return shown if len(names) <= 3 else f"{shown} and {len(names) - 3} more"


def _copy_place(text: str, ret: Operation) -> _CopyPlace:
    return copy_place(text, ret.span[0])


def copy_place(text: str, at: int) -> _CopyPlace:
    """Where a copy goes before the statement at ``at`` (a return, an HLO ROOT): on a new
    line before it, above a suppression comment right before it; before the statement
    itself when something precedes it on its line."""
    start = line_start(text, at)
    prefix = text[start:at]
    newline = line_break(text, at)
    if prefix.strip():
        indent = prefix[: len(prefix) - len(prefix.lstrip())]
        return _CopyPlace(at, "", f"{newline}{indent}")
    return _CopyPlace(_above_suppression(text, start), prefix, newline)


def _copy_fix(
    path: str,
    analysis: ChunkAnalysis,
    output: Output,
    source: SourceText,
    place: _CopyPlace | None,
) -> Fix | None:
    ret = analysis.ret
    if ret is None or place is None or output.copy_name is None:
        return None
    type_text = output.type_text
    if type_text is None and isinstance(output.value, BlockArgument):
        type_text = output.value.type_text
    if type_text is None:
        return None
    copy = copy_statement(output.copy_name, output.use.name, type_text, generic=ret.is_generic)
    return Fix(
        f"Copy {excerpt(output.use.name)} into {excerpt(output.copy_name)} for output "
        f"{output.slot} ('{excerpt(output.name)}')",
        (
            TextEdit(path, source.range(place.at, place.at), place.before + copy + place.after),
            TextEdit(path, source.range(*output.use.span), output.copy_name),
        ),
    )


_SUPPRESSION_LINE = re.compile(
    r"[ \t]*//\s*passlint:\s*ignore\[[A-Za-z0-9, ]+\][^\r\n]*(?:\r\n?|\n)"
)


def _above_suppression(text: str, start: int) -> int:
    """Where to insert a line before the line at ``start``: above a whole-line
    ``// passlint: ignore[...]`` comment right before it, which must stay next to the line it
    suppresses."""
    if start == 0:
        return start
    previous = line_start(text, start - 1)
    return previous if _SUPPRESSION_LINE.fullmatch(text, previous, start) else start


def copy_statement(
    result: str, operand: str, type_text: str, generic: bool, attributes: str = ""
) -> str:
    """``%r = mhlo.copy %v : T`` (pretty) or ``%r = "mhlo.copy"(%v) : (T) -> T`` (generic)."""
    if generic:
        return f'{result} = "mhlo.copy"({operand}){attributes} : ({type_text}) -> {type_text}'
    return f"{result} = mhlo.copy {operand}{attributes} : {type_text}"


# The codes a quick answer can give: the cases @main's outline settles, and TL004.
QUICK_CODES = frozenset(
    {case.code for case in CASES if case.quick and case.code} | {OUTPUT_NAMES_MISMATCH.code}
)
