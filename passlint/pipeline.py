"""Which passes run on which document, one analysis per version, with the settings and the
suppression comments (``suppression``) applied; the quick answer of a large .mlir document
is ``quick``'s."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from passlint.analysis.collector import collector_paused
from passlint.analysis.findings import Finding, Position, Range
from passlint.analysis.language import language_of
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.catalog import FILE_TOO_LARGE
from passlint.config import Settings
from passlint.suppression import postprocess

# Documents from this size on are read by the streaming reader (``streaming``): their IR, at
# about 13 bytes a byte, would pass a few hundred megabytes.
STREAM_MIN = 16 * 1024 * 1024

if TYPE_CHECKING:  # a pass is imported when a document of its language comes
    from passlint.analysis.mlir.ir import ParsedFile
    from passlint.analysis.mlir.stream.scan import Source
    from passlint.memo import Memo
    from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis


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
    memo: Memo | None = None,
) -> list[Finding]:
    """All findings for one document, filtered and re-graded by ``settings`` (with its
    per-file ignores for ``path``); ``memo``: what the run keeps between documents (None:
    the reference path, every document analysed from scratch).

    For .mlir and HLO text the collector stays paused until the IR is garbage: its first
    collection then frees the whole IR in one pass, instead of scanning it again and again
    while it lives (the IR is millions of objects when `passlint check` reads megabytes)."""
    if language_of(path, text) not in ("mlir", "hlo"):
        return analyze_document(path, text, settings, workspace, memo).findings
    with collector_paused():
        return _findings(path, text, settings, workspace, memo)


def _findings(
    path: str,
    text: str,
    settings: Settings | None,
    workspace: Workspace | None,
    memo: Memo | None,
) -> list[Finding]:
    """The findings of ``analyze_document``; the rest of its analysis is garbage on return."""
    analysis = analyze_document(path, text, settings, workspace, memo)
    if analysis.parsed is not None:
        analysis.parsed.release()
    return analysis.findings


def analyze_document(
    path: str,
    text: str,
    settings: Settings | None = None,
    workspace: Workspace | None = None,
    memo: Memo | None = None,
) -> DocumentAnalysis:
    """``analyze``, keeping the parse of a .mlir document (but one of ``STREAM_MIN`` bytes
    or more, read by the streaming reader: ``streaming``; it keeps no IR)."""
    settings = (settings or Settings()).for_file(path)
    language = language_of(path, text)
    if language is not None and (size := oversize(text, settings.size_limit(path))) is not None:
        return DocumentAnalysis(_too_large(path, size, settings))
    if language == "mlir" and memo is not None and len(text) >= STREAM_MIN:
        from passlint.streaming import analyze_text

        with collector_paused():
            streamed = analyze_text(path, text, settings, memo)
        if streamed is not None:
            return DocumentAnalysis(streamed.findings)
    if language == "mlir":
        raw, parsed, tensorizer = _mlir_findings(path, text, settings, memo)
        findings = postprocess(raw, SourceText(text), settings, path)
        return DocumentAnalysis(findings, parsed, tensorizer)
    if language == "hlo":
        raw = _hlo_findings(path, text, settings)
        return DocumentAnalysis(postprocess(raw, SourceText(text), settings, path))
    if language == "pl":
        from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

        with collector_paused(promote=True):
            raw = check_text(path, text, workspace, None if memo is None else memo.pl)
        return DocumentAnalysis(postprocess(raw, SourceText(text), settings, path))
    return DocumentAnalysis([])


def analyze_bytes(
    path: str,
    source: Source,
    settings: Settings | None = None,
    workspace: Workspace | None = None,
    memo: Memo | None = None,
    progress: Callable[[int], None] | None = None,
) -> DocumentAnalysis:
    """``analyze_document`` of a .mlir document given as its bytes, read where needed (a
    file on disk, with an editor's edits of it: ``server.disk_copy``): the streaming
    reader's findings when it takes the document (``progress`` is told the bytes it has
    read), else those of its text, decoded whole. Raises ``UnicodeDecodeError`` for bytes
    that are not UTF-8."""
    settings = (settings or Settings()).for_file(path)
    if len(source) > settings.size_limit(path):
        return DocumentAnalysis(_too_large(path, len(source), settings))
    if memo is not None:
        from passlint.analysis.mlir.stream.scan import Unreadable
        from passlint.streaming import analyze_streamed

        try:
            with collector_paused():
                streamed = analyze_streamed(path, source, settings, memo, progress)
        except Unreadable:
            streamed = None  # (the decoding below says where)
        if streamed is not None:
            return DocumentAnalysis(streamed.findings)
    text = source[0 : len(source)].decode("utf-8")
    return analyze_document(path, text, settings, workspace, memo)


def analyze_hlo_proto(path: str, data: bytes, settings: Settings | None = None) -> list[Finding]:
    """The findings of an HLO protocol buffer file (``language.is_hlo_proto``): E011 when it
    cannot be read, else TensorizerLegalization's on its ENTRY computation, at 0:0 and
    without fixes. ``settings`` select and re-grade them; a binary file has no suppression
    comments, so ``postprocess`` is given no text."""
    settings = (settings or Settings()).for_file(path)
    if len(data) > settings.size_limit(path):
        return _too_large(path, len(data), settings)
    return postprocess(_hlo_proto_findings(path, data, settings), SourceText(""), settings, path)


def analyze_bytecode(
    path: str, data: bytes, settings: Settings | None = None
) -> tuple[list[Finding], str | None]:
    """The findings of MLIR bytecode (``language.is_bytecode_file``) and the text jaxlib
    prints of it, where they are (None: not read): those of that text as a .mlir file,
    without fixes (the file is binary), or E012 when jaxlib cannot read it. Raises
    ``bytecode.BytecodeUnavailable`` when jaxlib is not installed."""
    from passlint.analysis.mlir.bytecode import BytecodeUnreadable, bytecode_to_text
    from passlint.analysis.mlir.bytecode_rules import unreadable_finding

    settings = (settings or Settings()).for_file(path)
    limit = settings.size_limit(path)
    if len(data) > limit:
        return _too_large(path, len(data), settings), None
    try:
        text = bytecode_to_text(data, limit)
    except BytecodeUnreadable as error:
        finding = unreadable_finding(path, str(error))
        return postprocess([finding], SourceText(""), settings, path), None
    with collector_paused():
        raw, parsed, _ = _mlir_findings(path, text, settings, None)
        parsed.release()
    findings = postprocess(raw, SourceText(text), settings, path)
    return [replace(finding, fix=None) for finding in findings], text


def oversize(text: str, max_size: int) -> int | None:
    """The size of ``text`` in bytes (UTF-8) when it is more than ``max_size``, else None."""
    if len(text) * 4 <= max_size:  # a character is at most 4 bytes: no need to encode
        return None
    size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    return size if size > max_size else None


def _too_large(path: str, size: int, settings: Settings) -> list[Finding]:
    """The one finding of a file above ``max-file-size``: it is not analysed."""
    rule = FILE_TOO_LARGE
    if not settings.is_selected(rule.code):
        return []
    message = (
        "File not analysed: it is larger than `max-file-size`; raise that setting to analyse it. "
        f"It has {size} bytes and the limit is {settings.size_limit(path)}."
    )
    start = Position(0, 0)
    return [
        Finding(
            rule.code,
            settings.severity_of(rule.code, rule.severity),
            path,
            Range(start, start),
            message,
        )
    ]


def _mlir_findings(
    path: str, text: str, settings: Settings, memo: Memo | None
) -> tuple[list[Finding], ParsedFile, tuple[ChunkAnalysis, ...]]:
    from passlint.analysis.mlir.parser import parse_file
    from passlint.analysis.mlir.syntax_findings import syntax_findings
    from passlint.passes.tensorizer_legalization.analysis import analyze_file
    from passlint.passes.tensorizer_legalization.findings import check

    parsed = parse_file(text, None if memo is None else memo.mlir)
    source = SourceText(text)
    tensorizer = analyze_file(parsed, settings.pipeline)
    findings = syntax_findings(path, parsed, source) + check(path, tensorizer, source)
    return findings, parsed, tensorizer


def _hlo_findings(path: str, text: str, settings: Settings) -> list[Finding]:
    """E010 and TensorizerLegalization's findings on the ENTRY computation of each module of
    HLO text."""
    from passlint.analysis.hlo.parser import parse_hlo
    from passlint.analysis.hlo.syntax_findings import syntax_findings
    from passlint.passes.tensorizer_legalization.hlo_findings import hlo_findings
    from passlint.passes.tensorizer_legalization.hlo_outputs import analyze_modules

    parsed = parse_hlo(text)
    findings = syntax_findings(path, parsed)
    for analysis in analyze_modules(parsed, settings.pipeline):
        findings += hlo_findings(path, analysis)
    return findings


def _hlo_proto_findings(path: str, data: bytes, settings: Settings) -> list[Finding]:
    from passlint.analysis.hlo.proto import read_proto_file
    from passlint.analysis.hlo.syntax_findings import unreadable_finding
    from passlint.analysis.hlo.wire import WireError
    from passlint.passes.tensorizer_legalization.hlo_findings import hlo_proto_findings
    from passlint.passes.tensorizer_legalization.hlo_outputs import analyze_hlo

    try:
        parsed = read_proto_file(path, data)
    except WireError as error:
        return [unreadable_finding(path, error)]
    return hlo_proto_findings(path, analyze_hlo(parsed, settings.pipeline))
