"""The IR of region statements repeated verbatim, kept once and relocated to each copy.

A test suite copies whole functions across its files (the versioned VHLO tests hold the
same functions in every version's file): over half the text of the upstream StableHLO
tests' functions is a function seen before. A statement whose first line ends with ``{`` and
whose last line is ``}`` alone at the first line's indentation is a *candidate*; its text is
the key. From the second sighting of a key whose statement scanned and built without any
error, its IR is kept (in an ``MlirMemo``'s ``kept``) as rows with offsets relative to
the statement's start; a later copy gets IR made from those rows, relocated, instead of
being scanned, parsed and built again (the scanner hands it over as a ``MemoStatement``).

Why the same IR: the IR of such a statement depends on its text alone (its offsets moved):
the scanner only looks past the closing ``}`` to see whether the next line starts a
statement, which it checks again at each copy.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.mlir.ir import Block, BlockArgument, Operation, Region, new_operation
from passlint.analysis.mlir.lexer import Tok, moved, moved_tokens
from passlint.analysis.mlir.seen_twice import SeenTwice
from passlint.analysis.mlir.template import Template

if TYPE_CHECKING:
    from passlint.analysis.mlir.fast.lines import LineTable

# A longer statement (a model's whole body) is not looked for: the search for its closing
# line would read the file again at each region header.
LONGEST = 16_384


Span = tuple[int, int]
# A statement's IR as plain rows, offsets from its start: acyclic (an IR's ops and values
# point at each other), so a dropped copy is freed by reference counting at once.
ArgumentRow = tuple[str, int, int, Span | None, str | None]  # name, start, index, type
BlockRow = tuple[str | None, Span | None, tuple[ArgumentRow, ...], tuple["OpRow", ...]]
OpRow = tuple[
    str,  # name
    Span,
    tuple[Tok, ...] | None,  # the tokens kept, if any
    Template,
    tuple[tuple[str, int], ...],  # results: name, start (in order)
    tuple[tuple[str, int], ...],  # uses: name, start (in operand order)
    tuple[ArgumentRow, ...],  # header arguments
    tuple[tuple[Span, tuple[BlockRow, ...]], ...],  # regions
]


@dataclass(slots=True)
class Entry:
    """A kept statement's IR (``row``), how many regions deep it nests, and whether
    validation found nothing in it (None: not known yet; only an isolated op's regions are
    validated alike wherever it stands)."""

    row: OpRow
    depth: int
    clean: bool | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate statement: its text ``key`` spans ``[start, end)``, its last line is
    ``last_line``."""

    key: str
    start: int
    end: int
    last_line: int


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


def keep(kept: SeenTwice[str, Entry], key: str, op: Operation, start: int) -> None:
    """Keep ``op`` (the IR of the statement ``key`` that starts at ``start``) in ``kept``
    (an ``MlirMemo``'s), relative, unless a copy is kept already (two in one chunk)."""
    if kept.get(key) is None:
        row = _row(op, -start)
        kept.keep(key, Entry(row, _depth(row)), len(key))


def _row(op: Operation, shift: int) -> OpRow:
    """``op`` and everything nested in it as rows, ``shift`` characters further."""
    tokens = None if op.tokens is None else tuple(moved_tokens(op.tokens, shift))
    return (
        op.name,
        moved(op.span, shift),
        tokens,
        op.template,
        tuple((r.name, r.start + shift) for r in op.results),
        tuple((u.name, u.start + shift) for u in op.operands),
        tuple(_argument_row(a, shift) for a in op.header_arguments),
        tuple(
            (
                moved(region.span, shift),
                tuple(
                    (
                        block.label,
                        None if block.label_span is None else moved(block.label_span, shift),
                        tuple(_argument_row(a, shift) for a in block.arguments),
                        tuple(_row(inner, shift) for inner in block.operations),
                    )
                    for block in region.blocks
                ),
            )
            for region in op.regions
        ),
    )


def _argument_row(argument: BlockArgument, shift: int) -> ArgumentRow:
    span = None if argument.type_span is None else moved(argument.type_span, shift)
    return (argument.name, argument.start + shift, argument.index, span, argument.type_text)


def relocated(row: OpRow, shift: int, text: str) -> Operation:
    """The IR of a kept statement ``row``, ``shift`` characters further, over ``text``:
    unlinked (no use resolved), its parent left for the caller to set."""
    name, span, tokens, template, results, uses, arguments, regions = row
    op = new_operation(
        name,
        moved(span, shift),
        text,
        None if tokens is None else moved_tokens(tokens, shift),
        template,
        ((n, at + shift) for n, at in results),
        ((n, at + shift) for n, at in uses),
    )
    if arguments:
        op.header_arguments = [_argument(a, shift, op) for a in arguments]
    if regions:
        op.regions = [_region(region, shift, text, op) for region in regions]
    return op


def _region(
    row: tuple[Span, tuple[BlockRow, ...]], shift: int, text: str, owner: Operation
) -> Region:
    span, blocks = row
    region = Region(moved(span, shift), owner)
    for label, label_span, arguments, operations in blocks:
        block = Block(label, None if label_span is None else moved(label_span, shift))
        block.arguments = [_argument(a, shift, owner) for a in arguments]
        for inner_row in operations:
            inner = relocated(inner_row, shift, text)
            inner.parent = block
            inner.parent_op = owner
            block.operations.append(inner)
        region.blocks.append(block)
    return region


def _argument(row: ArgumentRow, shift: int, owner: Operation) -> BlockArgument:
    name, start, index, type_span, type_text = row
    argument = BlockArgument(name, start + shift, index, owner=owner)
    if type_span is not None:
        argument.type_span = moved(type_span, shift)
        argument.type_text = type_text
    return argument


def _depth(row: OpRow) -> int:
    """How many regions deep the op of ``row`` nests (0: it has none)."""
    regions = row[7]
    if not regions:
        return 0
    nested = (_depth(inner) for _, blocks in regions for block in blocks for inner in block[3])
    return 1 + max(nested, default=0)
