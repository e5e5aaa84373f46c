"""Per-version document models for the read-only features (hover, hints, symbols, navigation).

An MLIR model is the parsed file, the pass's analysis of each `// -----` chunk and an index
of value occurrences; a pl model is the front end's module with the pass's per-kernel analysis
(``analyze_module``) and the workspace snapshot it was read in, for cross-file navigation.
Models are built in the worker pool (a multi-MB .mlir takes seconds) and cached by document
version and pipeline.
"""

from __future__ import annotations

import asyncio
import bisect
import os
from collections.abc import Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import NamedTuple

from passlint.analysis import engine
from passlint.analysis.collector import collector_paused
from passlint.analysis.mlir.ir import Chunk, Operation, ParsedFile, Value
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.pl.model import Module
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols import ModuleAnalysis, analyze_module
from passlint.passes.tensorizer_legalization import ChunkAnalysis, analyze_chunk

Span = tuple[int, int]


class Occurrence(NamedTuple):
    """A span naming an SSA value (its definition or a use) or an ``@symbol`` (a tuple:
    a 5 MB dump has a few hundred thousand of them)."""

    start: int
    end: int
    value: Value | None = None
    symbol: str | None = None
    is_definition: bool = False


@dataclass
class ChunkIndex:
    chunk: Chunk
    analysis: ChunkAnalysis
    occurrences: list[Occurrence] = field(default_factory=list)
    symbol_definitions: dict[str, Span] = field(default_factory=dict)
    _starts: list[int] = field(default_factory=list)

    def at(self, offset: int) -> Occurrence | None:
        """The occurrence whose span holds ``offset`` (its end counts as inside)."""
        i = bisect.bisect_right(self._starts, offset) - 1
        while i >= 0:
            occurrence = self.occurrences[i]
            if occurrence.start <= offset <= occurrence.end:
                return occurrence
            if offset - occurrence.start > 4096:
                break
            i -= 1
        return None

    def op_at(self, offset: int) -> Operation | None:
        """The innermost op whose name token holds ``offset``."""
        for op in self.operations():
            if not op.span[0] <= offset <= op.span[1]:
                continue
            start, end = op.name_span
            if start <= offset <= end:
                return op
        return None

    def operations(self) -> Iterator[Operation]:
        for top in self.chunk.operations:
            yield from top.walk()


@dataclass
class MlirModel:
    source: SourceText
    parsed: ParsedFile
    chunks: list[ChunkIndex]

    def chunk_at(self, offset: int) -> ChunkIndex | None:
        for index in self.chunks:
            if index.chunk.start <= offset <= index.chunk.end:
                return index
        return None


@dataclass
class PlModel:
    path: str
    source: SourceText
    module: Module | None
    analysis: ModuleAnalysis | None = None
    workspace: Workspace | None = None


Model = MlirModel | PlModel


def build_model(
    path: str, text: str, pipeline: str, workspace: Workspace | None = None
) -> Model | None:
    language = engine.language_of(path, text)
    if language == "mlir":
        return build_mlir_model(text, pipeline)
    if language == "pl":
        return build_pl_model(path, text, workspace)
    return None


def workspace_for(path: str, roots: tuple[str, ...], texts: Mapping[str, str]) -> Workspace | None:
    """The workspace a pl document's model reads other modules in: the roots (else the
    document's folder) over the open documents; None for other documents."""
    if not path.endswith(".py"):
        return None
    workspace = Workspace(roots or (os.path.dirname(path),))
    for other, text in texts.items():
        workspace.set_overlay(other, text)
    return workspace


def build_pl_model(path: str, text: str, workspace: Workspace | None) -> PlModel:
    analysis = analyze_module(path, text, workspace)
    return PlModel(path, SourceText(text), analysis.module, analysis, workspace)


def build_mlir_model(text: str, pipeline: str) -> MlirModel:
    parsed = parse_file(text)
    with collector_paused():
        chunks = [_index(chunk, analyze_chunk(chunk, pipeline)) for chunk in parsed.chunks]
    return MlirModel(SourceText(text), parsed, chunks)


def _index(chunk: Chunk, analysis: ChunkAnalysis) -> ChunkIndex:
    index = ChunkIndex(chunk, analysis)
    found: list[Occurrence] = []
    for top in chunk.operations:
        for op in top.walk():
            for value in op.results:
                found.append(Occurrence(*value.span, value=value, is_definition=True))
            for argument in op.header_arguments:
                found.append(Occurrence(*argument.span, value=argument, is_definition=True))
            for region in op.regions:
                for block in region.blocks:
                    for argument in block.arguments:
                        found.append(Occurrence(*argument.span, value=argument, is_definition=True))
            for use in op.operands:
                found.append(Occurrence(*use.span, value=use.value))
            found.extend(_symbols(op, index))
    found.sort(key=_order)
    index.occurrences = found
    index._starts = [o.start for o in found]
    return index


def _order(occurrence: Occurrence) -> tuple[int, int]:
    return occurrence.start, -occurrence.end


_DEFINING_WORDS = frozenset({"public", "private", "nested"})


def _symbols(op: Operation, index: ChunkIndex) -> Iterator[Occurrence]:
    """``@symbol`` tokens of an op; the one right after the op name (and visibility) of a
    top-level op defines it."""
    if op.tokens is None and op.text.find("@", op.span[0], op.span[1]) < 0:
        return  # a one-line op without symbols: do not cut its tokens
    defining = -1
    position = op.template.name + 1
    while position < len(op.toks) and op.tok_text(position) in _DEFINING_WORDS:
        position += 1
    if position < len(op.toks) and op.toks[position].kind == "SYMBOL":
        defining = position
    for i, tok in enumerate(op.toks):
        if tok.kind != "SYMBOL":
            continue
        name = op.text[tok.start + 1 : tok.end]
        name = name[1:-1] if name.startswith('"') else name
        is_definition = i == defining
        if is_definition:
            index.symbol_definitions.setdefault(name, (tok.start, tok.end))
        yield Occurrence(tok.start, tok.end, symbol=name, is_definition=is_definition)


class ModelCache:
    """Models by document URI, rebuilt off the loop when the version or pipeline changes."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self._entries: dict[str, tuple[tuple[int, str], asyncio.Future[Model | None]]] = {}

    async def get(
        self,
        uri: str,
        path: str,
        version: int,
        text: str,
        pipeline: str,
        workspace: Workspace | None = None,
    ) -> Model | None:
        """The model of ``uri`` at ``version``; ``workspace`` (a snapshot of the roots and
        open documents) is what a pl model resolves other modules in."""
        key = (version, pipeline)
        entry = self._entries.get(uri)
        if entry is None or entry[0] != key:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(
                self.executor, build_model, path, text, pipeline, workspace
            )
            entry = (key, future)
            self._entries[uri] = entry
        await asyncio.wait([entry[1]])
        return entry[1].result()

    def forget(self, uri: str) -> None:
        self._entries.pop(uri, None)
