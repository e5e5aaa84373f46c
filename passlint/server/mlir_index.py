"""What the editor features need of one analysed version of a .mlir document, as plain data.

The analysis of a version (``jobs.run_job``, in a worker thread or process) builds this index
from the same parse its diagnostics come from, and it travels with the result: every feature
(hover, hints, symbols, navigation, rename, completion, folding, source locations) reads the
index of the latest analysed version, so no feature parses the document again. It is compact
(arrays of offsets; one Python object per named thing, not per occurrence) so it crosses a
process boundary in milliseconds.

Offsets are character offsets into the text of the version it was built from; the server
maps them through later edits (``edit_log``).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from passlint.analysis.collector import collector_paused
from passlint.analysis.findings import Finding
from passlint.analysis.mlir.ir import Operation, OpResult, ParsedFile, Value
from passlint.analysis.mlir.op_table import ISOLATED_OPS, MODULE_OPS
from passlint.analysis.pl.excerpt import excerpt
from passlint.analysis.source import SourceText
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, Output
from passlint.server import folding, inlay
from passlint.server import mlir_reader as read

Span = tuple[int, int]

VALUE, LABEL, SYMBOL = 0, 1, 2  # entity kinds
_LABEL = re.compile(r"\^[\w$.\-]+")
_TYPE = re.compile(r"\b(?:tensor|memref|vector|complex|tuple)<[^<>\n]*(?:<[^<>\n]*>[^<>\n]*)*>")


def _offsets() -> array[int]:
    """An array of offsets or numbers: 4 bytes each (the index of a 5 MB module holds
    ~700,000 of them, and crosses a process boundary)."""
    return array("i")


class Names(Sequence[str]):
    """The names of the entities by number, in one string: the 65,000 names of a 7.7 MB
    module are 0.7 MB so, 3.6 MB as a list of strings (unpickled in the server, one object
    each). Appended to while the index is built, then read."""

    def __init__(self) -> None:
        self._text = ""
        self._ends = _offsets()  # where each name ends in ``_text``
        self._pending: list[str] = []  # appended, not yet in ``_text``

    def append(self, name: str) -> None:
        self._ends.append((self._ends[-1] if self._ends else 0) + len(name))
        self._pending.append(name)

    def seal(self) -> None:
        """Done appending: the names go into one string now (not on a first read, from
        whichever thread)."""
        self._joined()

    def _joined(self) -> str:
        if self._pending:
            self._text = "".join([self._text, *self._pending])
            self._pending = []
        return self._text

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, number: int) -> str: ...

    @overload
    def __getitem__(self, number: slice) -> list[str]: ...

    def __getitem__(self, number: int | slice) -> str | list[str]:
        if isinstance(number, slice):
            return [self[i] for i in range(*number.indices(len(self)))]
        text, ends = self._joined(), self._ends
        if number < 0:
            number += len(ends)
        end = ends[number]  # (IndexError out of range)
        return text[ends[number - 1] if number else 0 : end]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Names)
            and self._joined() == other._joined()
            and (self._ends == other._ends)
        )

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict[str, object]:
        self.seal()
        return dict(self.__dict__)


@dataclass(frozen=True)
class OutputNote:
    """One output of @main as hover shows it; ``reported``: the code of the diagnostic on
    its return operand (the hover then does not repeat that diagnostic's text)."""

    slot: int
    name: str
    case: str
    text: str
    reported: str | None


@dataclass(frozen=True)
class Hover:
    variant: str  # "MHLO" or "StableHLO"
    outputs: tuple[OutputNote, ...]


@dataclass
class Symbol:
    """A document symbol (spans are offsets)."""

    name: str
    kind: int  # lsprotocol SymbolKind value
    span: Span
    selection: Span
    detail: str | None = None
    children: list[Symbol] = field(default_factory=list)


@dataclass
class MlirIndex:
    """The features' view of one analysed version (see the module docstring)."""

    chunks: list[Span] = field(default_factory=list)
    # named things: SSA value groups, block labels, @symbols (per chunk)
    names: Names = field(default_factory=Names)
    kinds: bytearray = field(default_factory=bytearray)
    definitions: array[int] = field(default_factory=_offsets)  # start, -1: none
    definition_ends: array[int] = field(default_factory=_offsets)
    entity_chunks: array[int] = field(default_factory=_offsets)
    scopes: array[int] = field(default_factory=_offsets)  # block of a value / label
    visible_from: array[int] = field(default_factory=_offsets)  # where a value is
    # occurrences of named things, by start
    starts: array[int] = field(default_factory=_offsets)
    ends: array[int] = field(default_factory=_offsets)
    entities: array[int] = field(default_factory=_offsets)
    is_definition: bytearray = field(default_factory=bytearray)
    # blocks (pre-order): span, parent block, whether its region is isolated from above
    block_starts: array[int] = field(default_factory=_offsets)
    block_ends: array[int] = field(default_factory=_offsets)
    block_parents: array[int] = field(default_factory=_offsets)
    block_isolated: bytearray = field(default_factory=bytearray)
    block_regions: array[int] = field(default_factory=_offsets)  # region number
    # regions by number (in text order): span from ``{`` to ``}``
    region_starts: array[int] = field(default_factory=_offsets)
    region_ends: array[int] = field(default_factory=_offsets)
    # operations (pre-order): span, name start, parent op, trailing loc(...) start (-1: none)
    op_starts: array[int] = field(default_factory=_offsets)
    op_ends: array[int] = field(default_factory=_offsets)
    op_names: array[int] = field(default_factory=_offsets)
    op_parents: array[int] = field(default_factory=_offsets)
    op_locations: array[int] = field(default_factory=_offsets)
    op_name_lengths: array[int] = field(default_factory=_offsets)
    # pass results and what the other features show
    value_hovers: dict[int, Hover] = field(default_factory=dict)  # entity -> hover
    op_hovers: dict[Span, Hover] = field(default_factory=dict)  # op name span -> hover
    hints: list[inlay.Hint] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    folds: list[folding.Fold] = field(default_factory=list)
    seen_ops: frozenset[str] = frozenset()
    seen_types: frozenset[str] = frozenset()
    aliases: dict[str, Span] = field(default_factory=dict)  # #name / !name -> name span

    # -- queries ---------------------------------------------------------------------------

    def occurrence_at(self, offset: int) -> int | None:
        """The index of the occurrence whose span holds ``offset`` (its end counts)."""
        i = bisect.bisect_right(self.starts, offset) - 1
        while i >= 0 and offset - self.starts[i] <= 4096:
            if self.starts[i] <= offset <= self.ends[i]:
                return i
            i -= 1
        return None

    def occurrences_of(self, entity: int) -> list[tuple[Span, bool]]:
        """Every occurrence of ``entity``: span and whether it is the definition."""
        out: list[tuple[Span, bool]] = []
        chunk = self.chunks[self.entity_chunks[entity]]
        lo = bisect.bisect_left(self.starts, chunk[0])
        hi = bisect.bisect_right(self.starts, chunk[1])
        entities, starts, ends, defs = self.entities, self.starts, self.ends, self.is_definition
        for i in range(lo, hi):
            if entities[i] == entity:
                out.append(((starts[i], ends[i]), bool(defs[i])))
        return out

    def definition(self, entity: int) -> Span | None:
        start = self.definitions[entity]
        return None if start < 0 else (start, self.definition_ends[entity])

    def chunk_at(self, offset: int) -> int:
        for number, (start, end) in enumerate(self.chunks):
            if start <= offset <= end:
                return number
        return len(self.chunks) - 1

    def block_at(self, offset: int) -> int:
        """The innermost block holding ``offset`` (-1: none)."""
        i = bisect.bisect_right(self.block_starts, offset) - 1
        while i >= 0 and not self.block_starts[i] <= offset <= self.block_ends[i]:
            i = self.block_parents[i]
        return i

    def op_at(self, offset: int) -> int:
        """The innermost op whose span holds ``offset`` (-1: none)."""
        i = bisect.bisect_right(self.op_starts, offset) - 1
        while i >= 0 and not self.op_starts[i] <= offset <= self.op_ends[i]:
            i = self.op_parents[i]
        return i

    def name_span(self, op: int) -> Span:
        start = self.op_names[op]
        return start, start + self.op_name_lengths[op]

    def regions_of(self, op: int) -> list[Span]:
        """The spans of the op's own regions (regions are numbered in text order: after
        one of them, the next of the op starts past its end)."""
        out: list[Span] = []
        starts, ends = self.region_starts, self.region_ends
        end = self.op_ends[op]
        i = bisect.bisect_left(starts, self.op_names[op])
        while i < len(starts) and starts[i] < end:
            out.append((starts[i], ends[i]))
            i = bisect.bisect_left(starts, ends[i], i + 1)
        return out

    def header_end(self, op: int) -> int:
        """Where the op's header ends: its first region's start, else its end."""
        regions = self.regions_of(op)
        return regions[0][0] if regions else self.op_ends[op]

    def header_occurrences(self, op: int, header_end: int) -> range:
        """The occurrences in the op's header, after its name (its results left out)."""
        return range(
            bisect.bisect_left(self.starts, self.op_names[op]),
            bisect.bisect_left(self.starts, header_end),
        )

    def occurrences_in(self, entity: int, span: Span) -> Iterator[int]:
        """The occurrences of ``entity`` that start in ``span``, found at C speed (a value
        of a 100 MB function is looked for among millions of occurrences)."""
        i = bisect.bisect_left(self.starts, span[0])
        end = bisect.bisect_right(self.starts, span[1])
        entities = self.entities
        while i < end:
            try:
                i = entities.index(entity, i, end)
            except ValueError:
                return
            yield i
            i += 1

    def region_span(self, region: int) -> Span:
        return self.region_starts[region], self.region_ends[region]

    def region_blocks(self, region: int) -> range:
        """A region's blocks (numbered one after the other)."""
        regions = self.block_regions
        first = last = regions.index(region)
        while last + 1 < len(regions) and regions[last + 1] == region:
            last += 1
        return range(first, last + 1)

    def label_of(self, block: int) -> int | None:
        """The label of a block (None: an entry block written without one)."""
        occurrence = self.occurrence_at(self.block_starts[block])
        if occurrence is None or not self.is_definition[occurrence]:
            return None
        entity = self.entities[occurrence]
        return entity if self.kinds[entity] == LABEL and self.scopes[entity] == block else None

    def visible_values(self, offset: int) -> list[int]:
        """Values usable at ``offset``: defined before it in its block or an enclosing one
        (or in the entry block of its region, which comes before every other block), up to
        the first region isolated from above (a function body)."""
        by_block = self._values_by_block()
        out: list[int] = []
        block = self.block_at(offset)
        while block >= 0:
            entry = block
            while entry > 0 and self.block_regions[entry - 1] == self.block_regions[block]:
                entry -= 1  # a region's blocks are numbered one after the other
            for b in {entry, block}:
                out.extend(e for e in by_block.get(b, ()) if self.visible_from[e] <= offset)
            if self.block_isolated[block]:
                break
            block = self.block_parents[block]
        return out

    def labels_in_scope(self, offset: int) -> list[int]:
        """Block labels of the region holding ``offset``."""
        block = self.block_at(offset)
        if block < 0:
            return []
        region = self.block_regions[block]
        return [
            e
            for e in range(len(self.names))
            if self.kinds[e] == LABEL and self.block_regions[self.scopes[e]] == region
        ]

    def symbols_of_chunk(self, chunk: int) -> list[int]:
        return [
            e
            for e in range(len(self.names))
            if self.kinds[e] == SYMBOL
            and self.entity_chunks[e] == chunk
            and self.definitions[e] >= 0
        ]

    # built where it is used (not sent between processes)
    _by_block: dict[int, list[int]] | None = field(default=None, repr=False, compare=False)

    def _values_by_block(self) -> dict[int, list[int]]:
        if self._by_block is None:
            grouped: dict[int, list[int]] = {}
            for e in range(len(self.names)):
                if self.kinds[e] == VALUE and self.scopes[e] >= 0:
                    grouped.setdefault(self.scopes[e], []).append(e)
            self._by_block = grouped
        return self._by_block

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_by_block"] = None
        return state


# -- building ------------------------------------------------------------------------------------


def build_index(
    parsed: ParsedFile,
    source: SourceText,
    tensorizer: Sequence[ChunkAnalysis],
    findings: list[Finding],
) -> MlirIndex:
    """The index of one analysed version: ``parsed`` is the parse its ``findings`` came from
    and ``tensorizer`` the pass's analysis of each of its chunks (the engine's, not redone)."""
    with collector_paused():
        return _build(parsed, source, tensorizer, findings)


def _build(
    parsed: ParsedFile,
    source: SourceText,
    tensorizer: Sequence[ChunkAnalysis],
    findings: list[Finding],
) -> MlirIndex:
    text = parsed.text
    index = MlirIndex()
    if len(text) >= 2**31:  # beyond 4-byte offsets (far above max-file-size's default)
        for name, value in vars(index).items():
            if isinstance(value, array):
                setattr(index, name, array("q"))
    reported = _reported_offsets(findings, source)
    ops_seen: set[str] = set()
    for number, (chunk, analysis) in enumerate(zip(parsed.chunks, tensorizer, strict=True)):
        index.chunks.append((chunk.start, chunk.end))
        ops_seen.update(_index_chunk(index, text, number, analysis, reported))
        for name, span in read.aliases(chunk).items():
            index.aliases.setdefault(name, span)
        index.symbols.extend(_chunk_symbols(analysis, text))
    _order_occurrences(index)
    index.seen_ops = frozenset(ops_seen)
    # (a set made match by match: the list of every type the text spells is megabytes)
    index.seen_types = frozenset({m.group() for m in _TYPE.finditer(text)})
    index.seen_types |= _argument_types(parsed)
    index.folds.extend(folding.text_folds(index.chunks, text))
    if len(parsed.chunks) > 1:
        index.symbols = _chunk_groups(index.symbols, index.chunks)
    index.names.seal()
    return index


def _argument_types(parsed: ParsedFile) -> frozenset[str]:
    found = set()
    for chunk in parsed.chunks:
        for op in read.top_operations(chunk):
            for argument in read.header_arguments(op):
                kind = read.argument_type(argument)
                if kind:
                    found.add(kind)
    return frozenset(found)


def _index_chunk(
    index: MlirIndex, text: str, number: int, analysis: ChunkAnalysis, reported: dict[int, str]
) -> set[str]:
    """Index chunk ``number`` (its analysis ``analysis``); the names of its ops."""
    builder = _Builder(index, text, number, analysis)
    for op in read.top_operations(analysis.chunk):
        builder.op(op, -1, -1)
    builder.finish()
    _pass_results(index, builder, analysis, reported)
    return builder.op_names


class _Builder:
    """Walks one chunk's ops, numbering values, labels and symbols as it meets them.

    It walks while the whole IR is alive, the analysis' peak of memory: what it keeps on the
    way is compact (occurrences go straight to the index's arrays, uses to arrays of their
    own; one dict entry per value group, and per op only for those the pass names)."""

    def __init__(self, index: MlirIndex, text: str, chunk: int, analysis: ChunkAnalysis) -> None:
        self.index = index
        self.text = text
        self.chunk = chunk
        # A value group's entity by where its definition starts (an offset, not a span: a
        # tuple per value would be megabytes while the whole IR is alive).
        self.group_entity: dict[int, int] = {}
        self.symbol_entity: dict[str, int] = {}
        named = (op for output in analysis.outputs for op in _ops_of(output))
        self.named_ops = {id(op) for op in named}  # ops of @main's outputs
        self.op_index: dict[int, int] = {}  # id(op) -> op number, for those
        self.op_names: set[str] = set()
        # Uses in the order met; entity -1 until the value's definition is met (``pending``).
        code = index.starts.typecode
        self.use_starts, self.use_ends, self.use_entities = array(code), array(code), array(code)
        self.pending: list[tuple[int, Value]] = []
        self.region_count = len(index.region_starts)

    def entity(
        self, kind: int, name: str, definition: Span | None, scope: int, visible: int
    ) -> int:
        index = self.index
        number = len(index.names)
        index.names.append(name)
        index.kinds.append(kind)
        index.definitions.append(definition[0] if definition else -1)
        index.definition_ends.append(definition[1] if definition else -1)
        index.entity_chunks.append(self.chunk)
        index.scopes.append(scope)
        index.visible_from.append(visible)
        return number

    def occurrence(self, start: int, end: int, entity: int, defining: int) -> None:
        index = self.index
        index.starts.append(start)
        index.ends.append(end)
        index.entities.append(entity)
        index.is_definition.append(defining)

    def symbol(self, name: str) -> int:
        entity = self.symbol_entity.get(name)
        if entity is None:
            entity = self.entity(SYMBOL, name, None, -1, -1)
            self.symbol_entity[name] = entity
        return entity

    def define_symbol(self, span: Span, name: str) -> int:
        """The symbol ``name``, defined at ``span`` unless it was defined before."""
        entity = self.symbol(name)
        if self.index.definitions[entity] < 0:
            self.index.definitions[entity], self.index.definition_ends[entity] = span
        return entity

    def value(self, value: Value, scope: int, visible: int) -> None:
        span = read.value_span(value)
        if span[0] not in self.group_entity:
            entity = self.entity(VALUE, read.value_name(value), span, scope, visible)
            self.group_entity[span[0]] = entity
            self.occurrence(span[0], span[1], entity, 1)

    def value_entity(self, value: Value) -> int | None:
        """The entity of a value met so far (the values of one group share it)."""
        return self.group_entity.get(read.value_span(value)[0])

    def op(self, op: Operation, parent_op: int, block: int) -> None:
        index, text = self.index, self.text
        number = len(index.op_starts)
        if id(op) in self.named_ops:
            self.op_index[id(op)] = number
        start, end = read.op_span(op)
        name = read.op_name(op)
        self.op_names.add(name)
        index.op_starts.append(start)
        index.op_ends.append(end)
        index.op_names.append(read.name_start(op, text))
        index.op_name_lengths.append(len(name))
        index.op_parents.append(parent_op)
        location = read.trailing_location(op, text)
        index.op_locations.append(location[0] if location else -1)
        isolated = name in ISOLATED_OPS
        for value in read.results(op):
            self.value(value, block, end)
        arguments = read.header_arguments(op)
        if arguments:  # a function's arguments are seen in its body's first block
            body = read.regions(op)
            scope = len(index.block_starts) if body and body[0].blocks else -1
            for argument in arguments:
                self.value(argument, scope, start)
        for span, used in read.operand_uses(op):
            if used is not None:
                entity = self.value_entity(used)
                if entity is None:  # defined further on (a graph region), or never
                    self.pending.append((len(self.use_entities), used))
                self.use_starts.append(span[0])
                self.use_ends.append(span[1])
                self.use_entities.append(-1 if entity is None else entity)
        for span, name_, defining in read.symbols(op, text):
            entity = self.define_symbol(span, name_) if defining else self.symbol(name_)
            self.occurrence(span[0], span[1], entity, int(defining))
        generic = read.generic_symbol(op, text)
        if generic is not None:  # defined by a string: a definition, not an occurrence
            self.define_symbol(*generic)
        for region in read.regions(op):
            region_number = self.region_count
            self.region_count += 1
            index.region_starts.append(region.span[0])
            index.region_ends.append(region.span[1])
            index.folds.extend(folding.region_folds(region))
            labels: dict[str, int] = {}
            blocks = []
            for record in region.blocks:
                b = len(index.block_starts)
                blocks.append(b)
                index.block_starts.append(record.span[0])
                index.block_ends.append(record.span[1])
                index.block_parents.append(block)
                index.block_isolated.append(int(isolated))
                index.block_regions.append(region_number)
                if record.label is not None and record.label_span is not None:
                    entity = self.entity(LABEL, record.label, record.label_span, b, record.span[0])
                    labels.setdefault(record.label, entity)
                    self.occurrence(*record.label_span, entity, 1)
                for argument in record.arguments:
                    self.value(argument, b, record.span[0])
            for b, record in zip(blocks, region.blocks, strict=True):
                for inner in record.operations:
                    self.op(inner, number, b)
                    if labels:
                        self.label_uses(inner, labels)

    def label_uses(self, op: Operation, labels: dict[str, int]) -> None:
        """``^label`` successors in an op's header."""
        start, end = read.op_span(op)[0], read.header_end(op)
        if self.text.find("^", start, end) < 0:
            return
        for match in _LABEL.finditer(self.text, start, end):
            entity = labels.get(match.group())
            if entity is not None:
                self.occurrence(match.start(), match.end(), entity, 0)

    def finish(self) -> None:
        """Uses follow the chunk's other occurrences, those of unmet values left out."""
        entities = self.use_entities
        for at, value in self.pending:
            entity = self.value_entity(value)
            entities[at] = -1 if entity is None else entity
        for start, end, entity in zip(self.use_starts, self.use_ends, entities, strict=True):
            if entity >= 0:
                self.occurrence(start, end, entity, 0)


def _order_occurrences(index: MlirIndex) -> None:
    order = sorted(range(len(index.starts)), key=index.starts.__getitem__)
    code = index.starts.typecode
    index.starts = array(code, (index.starts[i] for i in order))
    index.ends = array(code, (index.ends[i] for i in order))
    index.entities = array(code, (index.entities[i] for i in order))
    index.is_definition = bytearray(index.is_definition[i] for i in order)


# -- pass results: hover, hints, symbols ----------------------------------------------------------


def _reported_offsets(findings: list[Finding], source: SourceText) -> dict[int, str]:
    """Offsets where a TL diagnostic starts, with its code."""
    out: dict[int, str] = {}
    for finding in findings:
        if finding.code.startswith("TL"):
            out.setdefault(source.offset(finding.range.start), finding.code)
    return out


def _pass_results(
    index: MlirIndex, builder: _Builder, analysis: ChunkAnalysis, reported: dict[int, str]
) -> None:
    if analysis.main is None:
        return
    variant = analysis.variant_name
    notes: dict[int, OutputNote] = {}
    for output in analysis.outputs:
        code = reported.get(output.use.span[0])
        text = output.case.hover(analysis, output)
        notes[id(output)] = OutputNote(output.slot, output.name, output.case.name, text, code)
    by_value: dict[int, list[OutputNote]] = {}
    by_op: dict[int, list[OutputNote]] = {}
    for output in analysis.outputs:
        note = notes[id(output)]
        entity = builder.value_entity(output.value) if output.value is not None else None
        if entity is not None:
            by_value.setdefault(entity, []).append(note)
        for op in _ops_of(output):
            number = builder.op_index.get(id(op))
            if number is not None:
                by_op.setdefault(number, []).append(note)
    for entity, group in by_value.items():
        index.value_hovers[entity] = Hover(variant, tuple(group))
    for number, group in by_op.items():
        index.op_hovers[index.name_span(number)] = Hover(variant, tuple(group))
    index.hints.extend(inlay.hints(analysis))


def _ops_of(output: Output) -> list[Operation]:
    """Ops that produce ``output`` or that the pass names for it."""
    found = []
    if output.named_op is not None:
        found.append(output.named_op)
    value = output.value
    if isinstance(value, OpResult) and value.op is not None and value.op is not output.named_op:
        found.append(value.op)
    return found


# LSP's SymbolKind (the analysis process does not import lsprotocol: see ``convert``)
_FUNCTION, _MODULE, _VARIABLE, _NAMESPACE = 12, 2, 13, 3


def _chunk_symbols(analysis: ChunkAnalysis, text: str) -> list[Symbol]:
    """Modules, functions (``@main`` with its outputs) and other symbol ops of a chunk."""
    out = []
    for op in read.top_operations(analysis.chunk):
        if read.op_name(op) in MODULE_OPS:
            defined = _defined_symbol(op, text)
            name = f"@{defined[1]}" if defined else "module"
            selection = defined[0] if defined else _name_span(op, text)
            children = [
                s
                for region in read.regions(op)[:1]
                for block in region.blocks
                for inner in block.operations
                if (s := _op_symbol(inner, analysis, text)) is not None
            ]
            out.append(Symbol(name, _MODULE, read.op_span(op), selection, None, children))
        elif (symbol := _op_symbol(op, analysis, text)) is not None:
            out.append(symbol)
    return out


def _name_span(op: Operation, text: str) -> Span:
    start = read.name_start(op, text)
    return start, start + len(read.op_name(op))


def _defined_symbol(op: Operation, text: str) -> tuple[Span, str] | None:
    for span, name, defining in read.symbols(op, text):
        if defining:
            return span, name
    return None


def _op_symbol(op: Operation, analysis: ChunkAnalysis, text: str) -> Symbol | None:
    defined = _defined_symbol(op, text)
    name = read.op_name(op)
    if name == "func.func":
        function = read.function_name(op)
        if function is None:
            return None
        detail = None
        if function == "main" and analysis.main is op:
            count = len(analysis.outputs)
            names = ", ".join(excerpt(output.name) for output in analysis.outputs)
            detail = (
                f"{count} output{'s' if count != 1 else ''}: {names}" if count else "no outputs"
            )
        selection = defined[0] if defined else _name_span(op, text)
        return Symbol(f"@{function}", _FUNCTION, read.op_span(op), selection, detail)
    if defined is not None:
        return Symbol(f"@{defined[1]}", _VARIABLE, read.op_span(op), defined[0], name)
    return None


def _chunk_groups(symbols: list[Symbol], chunks: list[Span]) -> list[Symbol]:
    out = []
    for number, (start, end) in enumerate(chunks, start=1):
        children = [s for s in symbols if start <= s.span[0] <= end]
        if not children:
            continue
        span = (children[0].span[0], children[-1].span[1])
        out.append(
            Symbol(f"chunk {number}", _NAMESPACE, span, children[0].selection, "// -----", children)
        )
    return out
