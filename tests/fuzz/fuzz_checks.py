"""The properties every fuzzed input must have, shared by the fuzz tests.

Each check runs one input through a face of passlint and asserts what the issue asks: no
exception, under 2 s below 100 KB, ranges inside the document, and for every fix: it
re-parses, removes its diagnostic, is idempotent under fix-all, and leaves every byte outside
its edit ranges alone. ``CRASHES`` counts inputs that made passlint raise (each also fails
the test, with hypothesis' shrunk example).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from fuzz_counts import CRASHES, TRIED
from ir_dump import dump, recut_mismatches

from passlint import pipeline
from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Finding, Fix, Position, Range, TextEdit
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.config import Settings
from passlint.fixing import MAX_ROUNDS
from passlint.memo import Memo
from passlint.quick import quick_analyze
from passlint.server import hover, inlay, navigation, symbols
from passlint.server.convert import ClientFeatures, SnapshotFiles, to_diagnostic
from passlint.server.mlir_index import build_index
from passlint.server.models import PlModel, build_pl_model
from passlint.server.views import MlirView, Shift
from passlint.streaming import analyze_streamed

# CPU seconds per analysis of an input under 100 KB (CPU, not wall-clock time: other work on
# a shared machine must not fail the bound).
TIME_LIMIT = 2.0
EVERYTHING = Settings(select=("TL", "VS", "E", "PL"))  # opt-in rules too (TL005, PL100)
SYNTAX = ("E001", "E002")


# What a `passlint check` worker keeps between its files, for .mlir: the MLIR front end's
# caches, as the pipeline kept them for every caller before the faces made the memo (issue
# 28). The pl pass runs from scratch for each input, as it did then.
MLIR_RUN = Memo()


def run_memo(path: str) -> Memo | None:
    """The memo a worker passes for ``path``: ``MLIR_RUN`` for .mlir, else None."""
    return MLIR_RUN if path.endswith(".mlir") else None


@contextmanager
def counted(target: str) -> Iterator[None]:
    """Count one input of ``target``; an exception escaping passlint counts as a crash."""
    TRIED[target] += 1
    try:
        yield
    except AssertionError:
        raise
    except BaseException:
        CRASHES[target] += 1
        raise


def timed(target: str, text: str, call: Callable[[], Any]) -> Any:
    started = time.process_time()
    result = call()
    elapsed = time.process_time() - started
    if len(text.encode("utf-8", "surrogatepass")) < 100_000:
        assert elapsed < TIME_LIMIT, f"{target}: {elapsed:.2f} s on {len(text)} characters"
    return result


# -- ranges --------------------------------------------------------------------------------


def assert_position(source: SourceText, position: Position, what: str) -> None:
    assert 0 <= position.line < source.line_count, f"{what}: line {position.line} outside"
    line = source.line_text(position.line)
    raw = len(line) + (1 if _has_cr(source, position.line) else 0)
    assert 0 <= position.column <= raw, f"{what}: column {position.column} past {raw}"


def _has_cr(source: SourceText, line: int) -> bool:
    starts = source.line_starts
    end = starts[line + 1] - 1 if line + 1 < len(starts) else len(source.text)
    return end > starts[line] and source.text[end - 1] == "\r"


def assert_range(source: SourceText, rng: Range, what: str) -> None:
    assert rng.start <= rng.end, f"{what}: start {rng.start} after end {rng.end}"
    assert_position(source, rng.start, what)
    assert_position(source, rng.end, what)


def assert_findings_valid(findings: list[Finding], files: Mapping[str, str]) -> None:
    sources = {path: SourceText(text) for path, text in files.items()}
    for finding in findings:
        what = f"{finding.code} {finding.message[:80]!r}"
        assert finding.path in sources, f"{what}: path {finding.path} unknown"
        assert_range(sources[finding.path], finding.range, what)
        for location in finding.related:
            if location.path in sources:
                assert_range(sources[location.path], location.range, what + " (related)")
        if finding.fix is not None:
            for edit in finding.fix.edits:
                assert edit.path in sources, f"{what}: fix edits unknown file {edit.path}"
                assert_range(sources[edit.path], edit.range, what + " (fix edit)")


# -- analysis ------------------------------------------------------------------------------


def workspace_of(files: Mapping[str, str], root: str) -> Workspace:
    workspace = Workspace([root])
    for path, text in files.items():
        workspace.set_overlay(path, text)
    return workspace


def analyze(
    target: str, path: str, files: Mapping[str, str], root: str, settings: Settings = EVERYTHING
) -> list[Finding]:
    text = files[path]
    findings: list[Finding] = timed(
        target,
        text,
        lambda: pipeline.analyze(path, text, settings, workspace_of(files, root), run_memo(path)),
    )
    assert_findings_valid(findings, files)
    return findings


def check_document(target: str, path: str, files: dict[str, str], root: str) -> list[Finding]:
    """Every property of one document: analysis, LSP conversion, fixes, server features."""
    with counted(target):
        findings = analyze(target, path, files, root)
        snapshot = SnapshotFiles(files, {}, {})
        for finding in findings:
            to_diagnostic(finding, snapshot, ClientFeatures(), 1)
        check_fixes(target, path, files, root, findings)
        check_features(target, path, files[path])
        if path.endswith(".mlir"):
            check_mlir_front_end(target, files[path])
    return findings


def check_mlir_front_end(target: str, text: str) -> None:
    """The line-shape fast path and the token path give the same IR, the streaming reader the
    whole parse's findings; the quick answer and the apply mode do not raise either."""
    fast = timed(target, text, lambda: parse_file(text, MlirMemo()))
    slow = timed(target, text, lambda: parse_file(text))
    assert dump(fast) == dump(slow)
    assert recut_mismatches(text) == []
    quick = timed(
        target, text, lambda: quick_analyze("q.mlir", text, EVERYTHING, run_memo=MLIR_RUN)
    )
    if quick is not None:
        assert_findings_valid(quick, {"q.mlir": text})
    streamed = timed(
        target, text, lambda: analyze_streamed("q.mlir", text.encode(), EVERYTHING, MLIR_RUN)
    )
    if streamed is not None:  # the streaming reader, where it takes the text, is the whole parse
        whole = pipeline.analyze("q.mlir", text, EVERYTHING, memo=MLIR_RUN)
        assert streamed.findings == whole
    from passlint.passes.tensorizer_legalization.apply import legalize_text

    timed(target, text, lambda: legalize_text(text))


def document_features(target: str, path: str, text: str) -> MlirView | PlModel | None:
    """The whole-document server features: the analysis' index and its document symbols
    and inlay hints (.mlir), or the pl model and its symbols; what the requests at a
    position read (None when there is nothing to read)."""
    if path.endswith(".mlir"):
        analysis = timed(
            target, text, lambda: pipeline.analyze_document(path, text, memo=run_memo(path))
        )
        if analysis.parsed is None:
            return None
        source = SourceText(text)
        index = build_index(analysis.parsed, source, analysis.tensorizer, analysis.findings)
        view = MlirView(index, Shift(), source)
        symbols.to_lsp(source, symbols.mlir_symbols(view))
        inlay.mlir_hints(view, 0, len(text))
        return view
    model: PlModel | None = timed(target, text, lambda: build_pl_model(path, text, None))
    if model is not None:
        symbols.to_lsp(model.source, symbols.pl_symbols(model))
    return model


def check_features(target: str, path: str, text: str) -> None:
    """The read-only server features: the document's, then hover, definition and
    references at 41 offsets spread over the text."""
    features = document_features(target, path, text)
    offsets = sorted({0, len(text), *range(0, len(text), max(1, len(text) // 40))})
    if isinstance(features, MlirView):
        for offset in offsets:
            hover.mlir_hover(features, offset)
            navigation.mlir_definition(features, offset)
            navigation.mlir_references(features, offset, True)
    elif features is not None:
        for offset in offsets:
            navigation.pl_definition(features, offset)
            navigation.pl_references(features, offset, True)


# -- fixes ---------------------------------------------------------------------------------


def splice(text: str, edits: list[TextEdit]) -> tuple[str, list[tuple[int, int, int, int]]]:
    """``text`` with ``edits`` applied, computed independently of ``apply_edits``, and the
    kept pieces as ``(old_start, old_end, new_start, new_end)``."""
    source = SourceText(text)
    spans = sorted(
        (source.offset(e.range.start), source.offset(e.range.end), i, e.new_text)
        for i, e in enumerate(edits)
    )
    out, kept, cursor, length = [], [], 0, 0
    for start, end, _, new_text in spans:
        assert start >= cursor, "edits of one fix overlap"
        out.append(text[cursor:start])
        kept.append((cursor, start, length, length + start - cursor))
        length += start - cursor + len(new_text)
        out.append(new_text)
        cursor = end
    out.append(text[cursor:])
    kept.append((cursor, len(text), length, length + len(text) - cursor))
    return "".join(out), kept


def apply_fix(files: Mapping[str, str], fix: Fix) -> dict[str, str]:
    """The files after ``fix``; checks that every byte outside its edit ranges is unchanged."""
    new = dict(files)
    for path, edits in edits_by_path([fix]).items():
        assert len(edits) == len(fix_edits(fix, path)), "the edits of one fix overlap"
        old = files[path]
        result = apply_edits(old, edits)
        expected, kept = splice(old, edits)
        assert result == expected
        for old_start, old_end, new_start, new_end in kept:
            assert old[old_start:old_end].encode("utf-8", "surrogatepass") == result[
                new_start:new_end
            ].encode("utf-8", "surrogatepass")
        new[path] = result
    return new


def fix_edits(fix: Fix, path: str) -> list[TextEdit]:
    return [edit for edit in fix.edits if edit.path == path]


def fix_all(files: Mapping[str, str], findings: list[Finding]) -> tuple[dict[str, str], bool]:
    """Every fix at once, as the editor's fix-all does; whether none was left out."""
    fixes = list(dict.fromkeys(f.fix for f in findings if f.fix is not None))
    grouped = edits_by_path(fixes)
    complete = sum(len(edits) for edits in grouped.values()) == sum(len(f.edits) for f in fixes)
    new = dict(files)
    for path, edits in grouped.items():
        new[path] = apply_edits(files[path], edits)
    return new, complete


def _codes(findings: list[Finding], path: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for finding in findings:
        if finding.path == path:
            counts[finding.code] = counts.get(finding.code, 0) + 1
    return counts


def check_fixes(
    target: str, path: str, files: dict[str, str], root: str, findings: list[Finding]
) -> None:
    before = _codes(findings, path)
    syntax_before = sum(before.get(code, 0) for code in SYNTAX)
    for finding in findings:
        if finding.fix is None:
            continue
        TRIED[target + " fixes"] += 1
        fixed = apply_fix(files, finding.fix)
        after = _codes(analyze(target, path, fixed, root), path)
        what = f"fix {finding.fix.title!r} for {finding.code} at {finding.range}"
        syntax_after = sum(after.get(code, 0) for code in SYNTAX)
        assert syntax_after <= syntax_before, f"{what}: the result no longer parses"
        assert after.get(finding.code, 0) < before[finding.code], f"{what}: still reported"
    # Fix-all, round after round as `--fix` does, reaches a fixed point; a round that left
    # nothing out is idempotent: the next one changes nothing.
    current, current_findings = dict(files), findings
    for _ in range(MAX_ROUNDS):
        if not any(f.fix for f in current_findings):
            return
        new, complete = fix_all(current, current_findings)
        new_findings = analyze(target, path, new, root)
        if complete:
            again, _ = fix_all(new, new_findings)
            assert again == new, "fix-all is not idempotent"
            return
        if new == current:
            return
        current, current_findings = new, new_findings
    raise AssertionError(f"fix-all did not converge in {MAX_ROUNDS} rounds")
