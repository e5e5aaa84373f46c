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
from passlint.analysis.pl.model import Module
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols import ModuleAnalysis, analyze_module
from passlint.server.jobs import PL_MEMO, snapshot_workspace


@dataclass
class PlModel:
    path: str
    source: SourceText
    module: Module | None
    analysis: ModuleAnalysis | None = None
    workspace: Workspace | None = None


def workspace_for(
    path: str, roots: tuple[str, ...], texts: Mapping[str, str], disk: int | None = None
) -> Workspace | None:
    """The workspace a pl document's model reads other modules in: its roots over the open
    documents; None for other documents. ``disk``: as for ``jobs.snapshot_workspace``."""
    if not path.endswith(".py"):
        return None
    return snapshot_workspace(roots, texts, disk)


def build_pl_model(path: str, text: str, workspace: Workspace | None) -> PlModel | None:
    if language_of(path, text) != "pl":
        return None
    analysis = analyze_module(path, text, workspace, PL_MEMO)
    return PlModel(path, SourceText(text), analysis.module, analysis, workspace)


class ModelCache:
    """pl models by document URI, rebuilt off the loop when the version changes."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
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
            future = loop.run_in_executor(self.executor, build_pl_model, path, text, workspace)
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
