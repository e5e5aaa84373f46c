"""Per-version models of pl documents for the read-only features (hover, symbols,
navigation): the front end's module with the pass's per-kernel analysis (``analyze_module``)
and the workspace snapshot it was read in, for cross-file navigation. Models are built in the
worker pool and cached by document version. (.mlir documents need none: their features read
the index their analysis builds, ``mlir_index``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass

from passlint.analysis.language import language_of
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import Module
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.memo import Memo
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module
from passlint.passes.materialize_valid_shape_symbols.model import ModuleAnalysis
from passlint.server.jobs import snapshot_workspace


@dataclass
class PlModel:
    path: str
    source: SourceText
    module: Module | None
    analysis: ModuleAnalysis | None = None
    workspace: Workspace | None = None
    memo: PlMemo | None = None  # what it was built with: navigation resolves in it too


def workspace_for(
    path: str,
    roots: tuple[str, ...],
    texts: Mapping[str, str],
    disk: int | None = None,
    memo: Memo | None = None,
) -> Workspace | None:
    """The workspace a pl document's model reads other modules in: its roots over the open
    documents; None for other documents. ``disk``, ``memo``: as for
    ``jobs.snapshot_workspace``."""
    if not path.endswith(".py"):
        return None
    return snapshot_workspace(roots, texts, disk, memo)


def build_pl_model(
    path: str, text: str, workspace: Workspace | None, memo: Memo | None = None
) -> PlModel | None:
    """The model of a pl document (None for other documents), built with the session's
    ``memo`` (None: from scratch)."""
    if language_of(path, text) != "pl":
        return None
    pl = None if memo is None else memo.pl
    analysis = analyze_module(path, text, workspace, pl)
    return PlModel(path, SourceText(text), analysis.module, analysis, workspace, pl)


class ModelCache:
    """pl models by document URI, rebuilt off the loop when the version changes, with the
    session's ``memo``."""

    def __init__(self, executor: Executor, memo: Memo | None = None) -> None:
        self.executor = executor
        self.memo = memo
        self._entries: dict[str, tuple[int, asyncio.Future[PlModel | None]]] = {}
        self._parsed: dict[str, tuple[int, PlModel]] = {}  # the last model with a module

    async def get(
        self, uri: str, path: str, version: int, text: str, workspace: Workspace | None = None
    ) -> PlModel | None:
        """The model of ``uri`` at ``version``; ``workspace`` (a snapshot of the roots and
        open documents) is what it resolves other modules in."""
        entry = self._entries.get(uri)
        if entry is None or entry[0] != version:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(
                self.executor, build_pl_model, path, text, workspace, self.memo
            )
            entry = (version, future)
            self._entries[uri] = entry
        await asyncio.wait([entry[1]])
        model = entry[1].result()
        if model is not None and model.module is not None:
            self._parsed[uri] = (version, model)
        return model

    def last_parsed(self, uri: str) -> tuple[int, PlModel] | None:
        """The newest model of ``uri`` whose text parsed, with its version (while the user
        types, the current text often does not)."""
        return self._parsed.get(uri)

    def forget(self, uri: str) -> None:
        self._entries.pop(uri, None)
        self._parsed.pop(uri, None)

    def clear(self) -> None:
        """Every model is forgotten (the workspace they were read in is not the session's
        any more)."""
        self._entries.clear()
        self._parsed.clear()
