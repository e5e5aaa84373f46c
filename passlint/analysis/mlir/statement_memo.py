"""The IR of region statements repeated verbatim, kept once and relocated to each copy.

A test suite copies whole functions across its files (the versioned VHLO tests hold the
same functions in every version's file): over half the text of the upstream StableHLO
tests' functions is a function seen before. A statement whose first line ends with ``{`` and
whose last line is ``}`` alone at the first line's indentation is a *candidate*; its text is
the key. From the second sighting of a key whose statement scanned and built without any
error, its IR is kept with offsets relative to the statement's start; a later copy gets a
relocated clone of that IR instead of being scanned, parsed and built again.

The IR of such a statement depends on its text alone: the scanner only looks past the
closing ``}`` to see whether the next line starts a statement, which the scanner checks
again at each copy (``ends_after``).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.mlir.ir import (
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    Use,
    release_operations,
)
from passlint.analysis.mlir.lexer import Tok
from passlint.analysis.mlir.seen_twice import SeenTwice

if TYPE_CHECKING:
    from passlint.analysis.mlir.lines import LineTable

# A longer statement (a model's whole body) is not looked for: the search for its closing
# line would read the file again at each region header.
LONGEST = 16_384


@dataclass(slots=True)
class Entry:
    """A statement's IR over its own text (``op.text`` is the key, offsets from 0), how many
    regions deep it nests, and whether validation found nothing in it (None: not known yet;
    only an isolated op's regions are validated alike wherever it stands)."""

    op: Operation
    depth: int
    clean: bool | None = None


@dataclass(slots=True)
class MemoStatement:
    """A statement whose IR is a kept entry's, relocated to ``start`` (the builder clones it)."""

    start: int
    end: int
    entry: Entry
    broken: bool = False
    regions: tuple[()] = ()


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate statement: its text ``key`` spans ``[start, end)``, its last line is
    ``last_line``."""

    key: str
    start: int
    end: int
    last_line: int


class _Kept(SeenTwice[str, Entry]):
    """The kept entries: their IR holds cycles (an op and its results point at each other),
    broken when they are dropped, so reference counting frees them (a batch run freezes
    what each file leaves: no collection would find them)."""

    def forget_kept(self) -> None:
        release_operations([entry.op for entry in self.kept.values()])
        super().forget_kept()


# Bounded by the characters of the statements held (their IR is some ten times that).
kept = _Kept(1_000_000)


def candidate(lines: LineTable, line: int) -> Candidate | None:
    """The candidate statement whose first line is ``line``, if that line is a header."""
    text = lines.text
    begin, end = lines.text_span(line)
    if end - begin < 2 or text[end - 1] != "{" or text[begin] in "}{":
        return None
    close = "\n" + text[lines.starts[line] : begin] + "}"
    limit = min(lines.end, begin + LONGEST)
    found = text.find(close, end, limit)
    if found < 0:
        return None
    stop = found + len(close)
    if stop < lines.end and text[stop] != "\n":
        return None
    last_line = bisect_right(lines.starts, found + 1, line) - 1
    return Candidate(text[begin:stop], begin, stop, last_line)


def ends_after(lines: LineTable, last_line: int) -> bool:
    """Does a statement ending with the ``}`` of ``last_line`` end there (the next line that
    is not blank starts a statement after a region, or there is none)?"""
    count = lines.count
    line = last_line + 1
    shapes = lines.shapes
    while line < count and shapes[line].blank:
        line += 1
    return line >= count or shapes[line].start in ("always", "after-op")


def keep(key: str, op: Operation, start: int) -> None:
    """Keep ``op`` (the IR of the statement ``key`` that starts at ``start``), relative,
    unless a copy is kept already (two in one chunk)."""
    if kept.get(key) is not None:
        return
    relative = relocated(op, -start, key)
    kept.keep(key, Entry(relative, _depth(relative)), len(key))


def relocated(op: Operation, shift: int, text: str) -> Operation:
    """A copy of ``op`` and everything nested in it, ``shift`` characters further, over
    ``text``: unlinked (no use resolved), its parent left for the caller to set."""
    tokens = op.tokens
    clone = Operation(
        op.name,
        (op.span[0] + shift, op.span[1] + shift),
        text,
        None if tokens is None else [Tok(k, s + shift, e + shift) for k, s, e in tokens],
        op.template,
    )
    clone.results = [OpResult(r.name, r.start + shift, r.index, op=clone) for r in op.results]
    clone.operands = [Use(u.name, u.start + shift, clone, u.operand_index) for u in op.operands]
    if op.header_arguments:
        clone.header_arguments = [_argument(a, shift, clone) for a in op.header_arguments]
    if op.regions:
        clone.regions = [_region(region, shift, text, clone) for region in op.regions]
    return clone


def _region(region: Region, shift: int, text: str, owner: Operation) -> Region:
    clone = Region((region.span[0] + shift, region.span[1] + shift), owner)
    for block in region.blocks:
        span = block.label_span
        copy = Block(block.label, None if span is None else (span[0] + shift, span[1] + shift))
        copy.arguments = [_argument(a, shift, owner) for a in block.arguments]
        for op in block.operations:
            inner = relocated(op, shift, text)
            inner.parent = copy
            inner.parent_op = owner
            copy.operations.append(inner)
        clone.blocks.append(copy)
    return clone


def _argument(argument: BlockArgument, shift: int, owner: Operation) -> BlockArgument:
    clone = BlockArgument(argument.name, argument.start + shift, argument.index, owner=owner)
    span = argument.type_span
    if span is not None:
        clone.type_span = (span[0] + shift, span[1] + shift)
        clone.type_text = argument.type_text
    return clone


def _depth(op: Operation) -> int:
    """How many regions deep ``op``'s regions nest (0: it has none)."""
    if not op.regions:
        return 0
    return 1 + max(
        (_depth(inner) for region in op.regions for inner in region.operations), default=0
    )
