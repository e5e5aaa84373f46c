"""A large .mlir file analysed from its bytes, by the streaming reader
(``analysis/mlir/stream``): the findings of ``pipeline.analyze`` on the whole text, from the
parse of its hollowed text, with their lines moved back to the file's.

``analyze_streamed`` answers None when the reader does not take the file (no function body
of one-line ops, a lone ``\\r``), or when the parse of the hollowed text does not confirm
the holes (``stream.confirm``): the caller then analyses the whole text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from passlint.analysis.collector import collector_paused
from passlint.analysis.findings import Finding, Fix, Position, Range
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.mlir.stream.confirm import confirm
from passlint.analysis.mlir.stream.hollowed import Hollowed, hollow
from passlint.analysis.mlir.stream.scan import Holes, Source, Unreadable, find_holes
from passlint.analysis.mlir.syntax_findings import syntax_findings
from passlint.analysis.source import SourceText
from passlint.config import Settings
from passlint.passes.tensorizer_legalization.analysis import (
    analyze_chunk,
    may_be_copy_name,
    names_in_function,
)
from passlint.passes.tensorizer_legalization.findings import check
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, variant_of
from passlint.suppression import postprocess

if TYPE_CHECKING:
    from passlint.analysis.mlir.ir import ParsedFile
    from passlint.memo import Memo


@dataclass
class Streamed:
    """The findings of a file, and the text of each line they start on (for carets)."""

    findings: list[Finding]
    lines: dict[int, str]


def analyze_streamed(
    path: str,
    source: Source,
    settings: Settings | None,
    memo: Memo,
    progress: Callable[[int], None] | None = None,
    helper: bool = False,
) -> Streamed | None:
    """The findings of the .mlir file ``path`` whose bytes are ``source``, or None when the
    whole text must be analysed instead (module docstring). Raises ``scan.Unreadable`` when
    the file is not UTF-8. ``progress`` is told the bytes read so far; ``helper``: the reader
    may fork a second process (``stream.windows``)."""
    settings = (settings or Settings()).for_file(path)
    from passlint.passes.tensorizer_legalization.analysis import may_be_copy_name

    holes = find_holes(source, memo.mlir, progress, helper, may_be_copy_name)
    if holes is None or not holes.functions:
        return None
    hollowed = hollow(source, holes)
    text = SourceText(hollowed.text)
    with collector_paused():
        parsed = parse_file(hollowed.text, memo.mlir)
        try:
            if not confirm(parsed, hollowed, holes, source):
                return None
            raw = _findings(path, parsed, hollowed, holes, settings, text)
        finally:
            parsed.release()
    if raw is None:
        return None
    findings: list[Finding] = []
    lines: dict[int, str] = {}
    for finding in postprocess(raw, text, settings, path):
        moved = _moved(finding, hollowed)
        if moved is None:
            return None
        findings.append(moved)
        lines[moved.range.start.line] = text.line_text(finding.range.start.line)
    return Streamed(findings, lines)


def analyze_text(path: str, text: str, settings: Settings | None, memo: Memo) -> Streamed | None:
    """``analyze_streamed`` of a document's text (an editor's, standard input): read in
    place when it is ASCII, else from its UTF-8 bytes; None also when those are not UTF-8
    (a lone surrogate: the whole text is analysed instead)."""
    source: Source = _AsciiText(text) if text.isascii() else text.encode("utf-8", "surrogatepass")
    try:
        return analyze_streamed(path, source, settings, memo)
    except Unreadable:
        return None


class _AsciiText:
    """An ASCII text read as its bytes (a character is a byte), without a copy of it."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __len__(self) -> int:
        return len(self.text)

    def __getitem__(self, where: slice, /) -> bytes:
        return self.text[where].encode("ascii")

    def find(self, sub: bytes, start: int = 0, end: int | None = None, /) -> int:
        return self.text.find(sub.decode("ascii"), start, end)


def _findings(
    path: str,
    parsed: ParsedFile,
    hollowed: Hollowed,
    holes: Holes,
    settings: Settings,
    text: SourceText,
) -> list[Finding] | None:
    """The pass's and the syntax's findings on the hollowed text: as ``pipeline``'s, with the
    variant read from the hole lines' ops too, and @main's names from its holes' (None: @main
    has holes whose names the reader did not keep)."""
    analyses: list[ChunkAnalysis] = []
    for number, chunk in enumerate(parsed.chunks):
        variant = variant_of(chunk, settings.pipeline, holes.dialects(number))
        main = chunk.functions().get("main")
        taken: _Taken | None = None
        if main is not None:
            for function, span in zip(holes.functions, hollowed.functions, strict=True):
                if span == main.span:
                    if function.kept is None:
                        return None
                    taken = _Taken(names_in_function(main), function.kept)
        analyses.append(analyze_chunk(chunk, settings.pipeline, variant, taken))
    return syntax_findings(path, parsed, text) + check(path, analyses, text)


class _Taken:
    """The SSA names of @main a copy's fresh name could be: those of its IR, and those its
    holes define that may be such a name (``may_be_copy_name``)."""

    def __init__(self, names: set[str], kept: frozenset[str]) -> None:
        self.names = names
        self.kept = kept

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str) and not may_be_copy_name(name):
            raise ValueError(f"{name} is not a copy's name: the holes' names are not kept")
        return name in self.names or name in self.kept


class _InPlaceholder(Exception):
    """A place on a placeholder's line."""


def _moved(finding: Finding, hollowed: Hollowed) -> Finding | None:
    """``finding`` with its lines moved from the hollowed text's to the file's (None: a place
    on a placeholder's line, which the confirmed parse never reports)."""

    def line(number: int) -> int:
        moved = hollowed.file_line(number)
        if moved is None:
            raise _InPlaceholder
        return moved

    def moved_range(where: Range) -> Range:
        return Range(
            Position(line(where.start.line), where.start.column),
            Position(line(where.end.line), where.end.column),
        )

    try:
        fix = finding.fix
        if fix is not None:
            edits = tuple(replace(edit, range=moved_range(edit.range)) for edit in fix.edits)
            fix = Fix(fix.title, edits, fix.preferred)
        return replace(
            finding,
            range=moved_range(finding.range),
            related=tuple(replace(r, range=moved_range(r.range)) for r in finding.related),
            fix=fix,
        )
    except _InPlaceholder:
        return None
