"""The pass's entry points: ``check_text``, the findings of one pl source; ``analyze_module``,
its per-kernel analysis (for the language server's hover and navigation, and for tests
against the real pass): per kernel its valid_shape symbols, bound or not and by what, their
slots, and what every call passes for them or why it cannot be resolved; and ``prepare``,
a batch run's one screen of the workspace.

Each takes the caller's ``PlMemo`` (``passlint.analysis.pl.memo``), which keeps parsed
modules and unchanged kernels' findings for the next text; without one, the text is
analysed from scratch.
"""

from __future__ import annotations

from collections.abc import Mapping

from passlint.analysis.findings import Finding
from passlint.analysis.pl.index import workspace_index
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import SyntaxProblem
from passlint.analysis.pl.resolve import load_module
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols import cases, screen
from passlint.passes.materialize_valid_shape_symbols.model import ModuleAnalysis
from passlint.passes.materialize_valid_shape_symbols.rules import PYTHON_SYNTAX_ERROR
from passlint.passes.materialize_valid_shape_symbols.screen import Screen

_TOO_DEEP = "nesting too deep to analyse (more than Python's recursion limit)"


def check_text(
    path: str, text: str, workspace: Workspace | None, memo: PlMemo | None = None
) -> list[Finding]:
    """Findings of the pass for one pl source (non-pl text gives none). In a batch run
    (``workspace.screen``), a text that shows it cannot have any is not parsed."""
    if workspace is None or not workspace.screen:
        return _check_text(path, text, workspace, memo)
    if not screen.may_have_findings(path, text, workspace):
        return []
    try:
        return _check_text(path, text, workspace, memo)
    finally:
        if memo is not None:
            memo.forget_statements()


def _check_text(
    path: str, text: str, workspace: Workspace | None, memo: PlMemo | None
) -> list[Finding]:
    try:
        loaded = load_module(path, text, memo)
    except RecursionError:
        loaded = SyntaxProblem(_TOO_DEEP, (0, min(len(text), 1)))
    if isinstance(loaded, SyntaxProblem):
        if "pypto" not in text:
            return []
        rng = SourceText(text).range(*loaded.span)
        message = f"Python syntax error: {loaded.message}; the pl source cannot be analysed."
        return [Finding(PYTHON_SYNTAX_ERROR.code, PYTHON_SYNTAX_ERROR.severity, path, rng, message)]
    if loaded is None:
        return []
    try:
        return cases.findings(loaded, workspace, memo)
    except RecursionError:
        # Expressions nested deeper than the pass can follow: say so rather than nothing.
        rng = SourceText(text).range(0, min(len(text), 1))
        message = f"{_TOO_DEEP}; the pl source cannot be analysed."
        return [Finding(PYTHON_SYNTAX_ERROR.code, PYTHON_SYNTAX_ERROR.severity, path, rng, message)]


def prepare(workspace: Workspace, screened: Mapping[str, Screen | None] | None = None) -> None:
    """Read and screen the workspace's pl files now (a batch run does so once, before it
    starts worker processes, which then share what was read). ``screened``: the screens of
    every file ``files_to_screen`` lists, made by ``screen_files`` in worker processes
    (else they are made here)."""
    screen.workspace_screens(workspace, screened)


def files_to_screen(workspace: Workspace) -> list[str]:
    """The files ``prepare`` screens (reading the workspace's pl files now)."""
    return workspace_index(workspace).paths()


def screen_files(workspace: Workspace, paths: list[str]) -> list[tuple[str, Screen | None]]:
    """A share of ``prepare``'s screening, for a worker process: the screens of ``paths``
    (some of ``files_to_screen``'s)."""
    return screen.screen_files(workspace, paths)


def analyze_module(
    path: str, text: str, workspace: Workspace | None, memo: PlMemo | None = None
) -> ModuleAnalysis:
    """The pass's per-kernel analysis of one pl source; the same one its findings use.
    ``kernels`` holds every device kernel at any depth (nested in functions, methods,
    classes), in source order."""
    try:
        loaded = load_module(path, text, memo)
    except RecursionError:
        return ModuleAnalysis(path, None)
    if isinstance(loaded, SyntaxProblem):
        return ModuleAnalysis(path, None, problem=loaded)
    if loaded is None:
        return ModuleAnalysis(path, None)
    try:
        summaries, outlined = cases.summaries(loaded, workspace, memo)
    except RecursionError:
        summaries, outlined = [], []
    return ModuleAnalysis(path, loaded, tuple(summaries), outlined=tuple(outlined))
