"""Analysing many files: in this process for a few, in worker processes for many.

Each file is read by whoever analyses it (the worker, not the parent), so a large tree is
never held in one process. Reading rules: a ``.py`` file is ours only if it imports
``pypto.language``, a ``.txt`` file only if it is HLO text (decided on the raw bytes, so a
non-UTF-8 ``.py`` or ``.txt`` file that is not ours is skipped silently); an HLO proto
(``.hlo.pb``, ``.hlo_module.pb``) is read as bytes and never decoded, and so is MLIR bytecode
(``.mlirbc``, turned into text by jaxlib's bindings: an error without them); a ``.mlir``, HLO
or pl file that is not UTF-8, cannot be read or makes a pass fail gives a one-line error for
that file and the rest are still checked.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from passlint import pipeline
from passlint.analysis import collector
from passlint.analysis.findings import Finding
from passlint.analysis.language import (
    BYTECODE_SUFFIXES,
    HLO_PROTO_SUFFIXES,
    imports_pl,
    is_bytecode_file,
    is_hlo_file,
    is_hlo_proto,
    language_of,
)
from passlint.analysis.source import split_lines
from passlint.analysis.workspace import DiskFiles, Workspace
from passlint.config import Settings
from passlint.filesystem import Boundary, Refused, TooLarge, read_regular
from passlint.lifetime import serve_until_gone
from passlint.memo import Memo

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from passlint.passes.materialize_valid_shape_symbols.screen import Screen

# Below this many files (and this many bytes) starting worker processes costs more than it
# saves: a small mlir file analyses in well under a millisecond.
PARALLEL_MIN_FILES = 64
PARALLEL_MIN_BYTES = 4 * 1024 * 1024
# From this many Python files on, the pl pass screens the workspace's files by their text
# once and analyses only those that may have findings (fewer: it analyses each one).
SCREEN_MIN_FILES = 64


@dataclass
class FileResult:
    """What checking one file gave."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    checked: bool = False  # a .mlir or pl file that was analysed
    error: str | None = None  # could not be checked: exit 2
    note: str | None = None  # skipped on purpose (e.g. max-file-size): reported, exit unchanged
    lines: dict[int, str] = field(default_factory=dict)  # 0-based line -> text, for carets


@dataclass(frozen=True)
class Job:
    """Everything a worker needs, sent once per worker process."""

    settings: Settings
    roots: tuple[str, ...]
    overlay: Mapping[str, str] = field(default_factory=dict)  # real path -> unsaved text
    screen: bool = False  # many files: a pass may skip those whose text shows no finding


def read_source(
    path: str, boundary: Boundary, max_size: int
) -> tuple[str | None, str | None, str | None]:
    """``(text, error, note)`` for ``path``; text is None when the file is not ours."""
    data, error, note = read_bytes(path, boundary, max_size)
    if data is None:
        return None, error, note
    if path.endswith(".py") and not imports_pl(data):
        return None, None, None
    if path.endswith(".txt") and not is_hlo_file(path, data):
        return None, None, None  # (a text file that is not an XLA dump)
    try:
        return data.decode("utf-8"), None, None
    except UnicodeDecodeError as error:
        return None, _not_utf8(data.count(b"\n", 0, error.start) + 1), None


def read_bytes(
    path: str, boundary: Boundary, max_size: int
) -> tuple[bytes | None, str | None, str | None]:
    """``(data, error, note)`` for ``path``: its bytes, or why it could not be read (an error)
    or was skipped (a note: larger than ``max_size``)."""
    try:
        return boundary.read(path, max_size), None, None
    except TooLarge as large:
        return None, None, f"skipped: {large.size} bytes is more than max-file-size ({max_size})"
    except OSError as error:
        return None, _unreadable(error), None


def _unreadable(error: OSError) -> str:
    """Why a file could not be read: refused (not a regular file, outside the workspace,
    changed meanwhile), or the system's reason."""
    if isinstance(error, Refused):
        return f"{error.reason}; not checked"
    return f"cannot read: {error.strerror or error}"


def _not_utf8(line: int) -> str:
    return f"not UTF-8 (invalid byte at line {line}); not checked"


def _internal(error: Exception) -> str:
    """What a bug of passlint's that raised ``error`` says (the other files go on)."""
    if isinstance(error, RecursionError):
        return "internal error: nesting too deep to analyse"
    return f"internal error: {type(error).__name__}: {error}"


def is_checked_source(path: str, max_size: int) -> bool:
    """Whether `passlint check` analyses the file at ``path``: a ``.mlir`` or ``.hlo`` file, an
    HLO proto (``.hlo.pb``, ``.hlo_module.pb``), MLIR bytecode (``.mlirbc``), a ``.txt`` file
    of HLO text, or a ``.py`` file that imports ``pypto.language`` (an unreadable file counts:
    its error is shown)."""
    if not path.endswith((".py", ".txt")):
        return path.endswith((".mlir", ".hlo", *HLO_PROTO_SUFFIXES, *BYTECODE_SUFFIXES))
    try:
        data = read_regular(path, max_size)
    except OSError:
        return True
    return imports_pl(data) if path.endswith(".py") else is_hlo_file(path, data)


def check_text(
    path: str, text: str, job: Job, workspace: Workspace, memo: Memo | None = None
) -> FileResult:
    """Analyse one document whose text is known (``memo``: the run's)."""
    result = FileResult(path)
    language = language_of(path, text)
    if language is None:
        return result
    result.checked = True
    settled = collector.settled() if language == "mlir" else contextlib.nullcontext()
    try:
        with settled:
            result.findings = pipeline.analyze(path, text, job.settings, workspace, memo)
    except Exception as error:  # a pass bug must not stop the other files
        result.error = _internal(error)
        return result
    if result.findings:
        result.lines = _lines_of(text, result.findings)
    return result


def _lines_of(text: str, findings: list[Finding]) -> dict[int, str]:
    """The lines of ``text`` the findings start on, by 0-based number (for carets)."""
    lines = split_lines(text)
    return {
        f.range.start.line: lines[f.range.start.line]
        for f in findings
        if 0 <= f.range.start.line < len(lines)
    }


def check_path(
    path: str,
    job: Job,
    workspace: Workspace,
    memo: Memo | None = None,
    on_read: Callable[[int, int], None] | None = None,
    helper: bool = False,
) -> FileResult:
    """Read and analyse one file (the overlay's text first, if it has the file); a large
    .mlir file by the streaming reader, whose reading ``on_read`` follows (bytes read, of
    how many) and which may fork a ``helper`` process."""
    text = job.overlay.get(os.path.realpath(path))
    if text is None and is_hlo_proto(path):
        return check_proto(path, job, workspace)
    if text is None and is_bytecode_file(path):
        return check_bytecode(path, job, workspace)
    if text is None and memo is not None and path.endswith(".mlir"):
        streamed = check_streamed(path, job, workspace, memo, on_read, helper)
        if streamed is not None:
            return streamed
    if text is None:
        limit = job.settings.size_limit(path)
        text, error, note = read_source(path, workspace.files.boundary, limit)
        if text is None:
            return FileResult(path, error=error, note=note)
    return check_text(path, text, job, workspace, memo)


def check_proto(path: str, job: Job, workspace: Workspace) -> FileResult:
    """Read an HLO protocol buffer as bytes (within the workspace and ``max-file-size``, as
    a text file is read) and analyse it; its findings carry no lines to show."""
    data, error, note = read_bytes(path, workspace.files.boundary, job.settings.size_limit(path))
    if data is None:
        return FileResult(path, error=error, note=note)
    result = FileResult(path, checked=True)
    try:
        result.findings = pipeline.analyze_hlo_proto(path, data, job.settings)
    except Exception as error:  # a pass bug must not stop the other files
        result.error = _internal(error)
    return result


def check_bytecode(path: str, job: Job, workspace: Workspace) -> FileResult:
    """Read MLIR bytecode as bytes (as ``check_proto`` reads a proto) and analyse the text
    jaxlib prints of it, whose lines the report shows; without jaxlib, an error that says
    what to install."""
    from passlint.analysis.mlir.bytecode import BytecodeUnavailable

    data, error, note = read_bytes(path, workspace.files.boundary, job.settings.size_limit(path))
    if data is None:
        return FileResult(path, error=error, note=note)
    result = FileResult(path, checked=True)
    try:
        result.findings, text = pipeline.analyze_bytecode(path, data, job.settings)
    except BytecodeUnavailable as missing:
        return FileResult(path, error=f"{missing}; not checked")
    except Exception as failure:  # a pass bug must not stop the other files
        result.error = _internal(failure)
        return result
    if text is not None and result.findings:
        result.lines = _lines_of(text, result.findings)
    return result


def check_streamed(
    path: str,
    job: Job,
    workspace: Workspace,
    memo: Memo,
    on_read: Callable[[int, int], None] | None = None,
    helper: bool = False,
) -> FileResult | None:
    """A .mlir file of ``pipeline.STREAM_MIN`` bytes or more, analysed by the streaming
    reader; None for a smaller one, and when it must be read whole
    (``streaming.analyze_streamed``) or cannot be opened (``read_source`` then says why)."""
    from passlint.analysis.mlir.stream.scan import Unreadable
    from passlint.streaming import analyze_streamed

    limit = job.settings.size_limit(path)
    try:
        if not pipeline.STREAM_MIN <= os.stat(path).st_size <= limit:
            return None
        opened = workspace.files.boundary.open(path, limit)
    except OSError:
        return None
    total = len(opened)
    progress = None if on_read is None else (lambda done: on_read(done, total))
    with opened, collector.settled():
        try:
            streamed = analyze_streamed(path, opened, job.settings, memo, progress, helper)
            if streamed is not None and not opened.unchanged():
                raise Refused(path, "changed while it was read")
        except Unreadable as error:
            return FileResult(path, error=_not_utf8(error.line))
        except OSError as error:
            return FileResult(path, error=_unreadable(error))
        except Exception as error:  # a pass bug must not stop the other files
            return FileResult(path, checked=True, error=_internal(error))
    if streamed is None:
        return None
    return FileResult(path, streamed.findings, checked=True, lines=streamed.lines)


def make_workspace(job: Job) -> Workspace:
    files = DiskFiles(job.roots, job.settings.size_limit(".py"))
    workspace = Workspace(job.roots, files, screen=job.screen)
    for path, text in job.overlay.items():
        workspace.set_overlay(path, text)
    return workspace


_worker_job: Job | None = None
_worker_workspace: Workspace | None = None
_worker_memo: Memo | None = None  # the worker process's memo (one per process of the run)


def _init_worker(parent: int, job: Job, workspace: Workspace | None = None) -> None:
    global _worker_job, _worker_workspace, _worker_memo
    serve_until_gone(parent)
    _worker_job = job
    _worker_workspace = workspace if workspace is not None else make_workspace(job)
    _worker_memo = Memo()


def _work(paths: Sequence[str]) -> list[FileResult]:
    assert _worker_job is not None and _worker_workspace is not None
    return [check_path(path, _worker_job, _worker_workspace, _worker_memo) for path in paths]


def _screen_work(paths: list[str]) -> list[tuple[str, Screen | None]]:
    from passlint.passes.materialize_valid_shape_symbols.dry_run import screen_files

    assert _worker_workspace is not None
    return screen_files(_worker_workspace, paths)


def worker_count(paths: Sequence[str], limit: int = 0) -> int:
    """How many worker processes to use for ``paths`` (1: stay in this process), at most
    ``limit`` when it is not 0 (``--jobs``)."""
    count = _worker_count(paths)
    return min(count, limit) if limit else count


def _cpus() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _worker_count(paths: Sequence[str]) -> int:
    cpus = _cpus()
    if cpus < 2 or len(paths) < 2:
        return 1
    if len(paths) < PARALLEL_MIN_FILES:
        total = 0
        for path in paths:
            with contextlib.suppress(OSError):
                total += os.path.getsize(path)
        if total < PARALLEL_MIN_BYTES:
            return 1
    return min(cpus, len(paths))


def check_files(
    paths: Sequence[str],
    job: Job,
    on_result: Callable[[FileResult], None] | None = None,
    workers: int | None = None,
    max_workers: int = 0,
    on_read: Callable[[int, int], None] | None = None,
) -> list[FileResult]:
    """Results for ``paths``, in order; ``on_result`` is called as each one arrives, and
    ``on_read`` as a large file is read in this process (``check_path``). ``workers`` forces
    the number of worker processes; else it is chosen, at most ``max_workers`` when that is
    not 0."""
    workers = worker_count(paths, max_workers) if workers is None else workers
    results: list[FileResult] = []
    if sum(path.endswith(".py") for path in paths) >= SCREEN_MIN_FILES:
        job = replace(job, screen=True)
    workspace = make_workspace(job)
    # fork starts workers in milliseconds and shares the imported passes and the workspace
    # read here; elsewhere the platform default (spawn) is the safe choice.
    fork = sys.platform.startswith("linux")
    if job.screen:
        from passlint.passes.materialize_valid_shape_symbols.dry_run import prepare

        # Once, shared by the workers; with several, forked processes screen the files.
        prepare(workspace, _screened(workspace, job, workers) if fork and workers > 1 else None)
    if workers <= 1:
        memo = Memo()  # the run's
        helper = _cpus() > 1  # (a large file's reading may use a second core)
        for path in paths:
            results.append(check_path(path, job, workspace, memo, on_read, helper))
            if on_result:
                on_result(results[-1])
        return results
    chunk = max(1, min(64, len(paths) // (workers * 8)))
    with _pool(workers, job, workspace if fork else None) as pool:
        # Chunks are submitted one by one (not by ``map``, which cancels what is left when
        # it is interrupted, and the pool's own thread then fails on the cancelled futures).
        chunks = [pool.submit(_work, paths[at : at + chunk]) for at in range(0, len(paths), chunk)]
        for done in chunks:
            for result in done.result():
                results.append(result)
                if on_result:
                    on_result(result)
    return results


def _screened(workspace: Workspace, job: Job, workers: int) -> dict[str, Screen | None]:
    """The pl pass's screens of the workspace's files (``prepare``), made by ``workers``
    forked processes."""
    from passlint.passes.materialize_valid_shape_symbols.dry_run import files_to_screen

    paths = files_to_screen(workspace)  # (read here: the workers share what was read)
    chunk = max(1, len(paths) // (workers * 4))
    with _pool(workers, job, workspace) as pool:
        shares = [
            pool.submit(_screen_work, paths[at : at + chunk]) for at in range(0, len(paths), chunk)
        ]
        return {path: item for share in shares for path, item in share.result()}


@contextlib.contextmanager
def _pool(workers: int, job: Job, shared: Workspace | None) -> Iterator[ProcessPoolExecutor]:
    """Worker processes (forked with ``shared``, this process's workspace, else started by
    the platform's default method), none of which outlives the block."""
    import multiprocessing  # here: a check of one file need not pay for importing them
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if shared is not None else None)
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(os.getpid(), job, shared),
    )
    try:
        yield pool
    except BaseException:  # interrupted (Ctrl-C, SIGTERM) or failed: no worker outlives it
        for child in multiprocessing.active_children():
            child.terminate()
        pool.shutdown(wait=False)
        raise
    pool.shutdown()
