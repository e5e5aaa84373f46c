"""The one place the editor features read the MLIR IR: plain records of what they need.

Completion, rename, folding, navigation and source locations see a parsed file through these
functions only, so a change of the IR's internals (``analysis/mlir/ir.py``) is answered here.
Everything is read from spans and names the parser records; nothing cuts an op's tokens
(the first thing asked of a one-line op parsed from its line shape would be to tokenize it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from passlint.analysis.mlir.ir import BlockArgument, Chunk, Operation, Value, function_name

Span = tuple[int, int]

_SYMBOL = re.compile(r'(?<![\w$.\-"])@(?:[A-Za-z_$.\-][\w$.\-]*|"(?:[^"\\\n]|\\.)*")')
# What may stand between a symbol op's name and its symbol: keywords (``private mutable``,
# ``internal constant``) and a quoted visibility (``memref.global "private"``).
_DEFINING_WORDS = re.compile(r'\s*+(?:(?:[A-Za-z_][\w$.]*+|"(?:private|public|nested)")\s++)*+')
# Ops that refer to a symbol written right after their name (besides calls).
_REFERRING_WORDS = frozenset(("constant", "addressof", "get_global", "include", "launch_func"))


@dataclass(frozen=True)
class BlockRecord:
    """A block: its span (label to end), label, arguments and ops."""

    span: Span
    label: str | None
    label_span: Span | None
    arguments: list[BlockArgument]
    operations: list[Operation]


@dataclass(frozen=True)
class RegionRecord:
    span: Span
    blocks: list[BlockRecord]


def top_operations(chunk: Chunk) -> list[Operation]:
    return chunk.operations


def regions(op: Operation) -> list[RegionRecord]:
    """The op's regions, each block with the span from its label (or the region's start) to
    the next label (or the region's end)."""
    out = []
    for region in op.regions:
        blocks = []
        count = len(region.blocks)
        for i, block in enumerate(region.blocks):
            start = block.label_span[0] if block.label_span is not None else region.span[0]
            following = region.blocks[i + 1].label_span if i + 1 < count else None
            end = following[0] if following is not None else region.span[1]
            blocks.append(
                BlockRecord(
                    (start, end), block.label, block.label_span, block.arguments, block.operations
                )
            )
        out.append(RegionRecord(region.span, blocks))
    return out


def op_name(op: Operation) -> str:
    return op.name


def op_span(op: Operation) -> Span:
    return op.span


def results(op: Operation) -> list[Value]:
    return list(op.results)


def header_arguments(op: Operation) -> list[BlockArgument]:
    """Arguments an op defines in its header (a function's signature)."""
    return list(op.header_arguments)


def operand_uses(op: Operation) -> Iterator[tuple[Span, Value | None]]:
    """Each ``%`` use of the op (its header; not those of nested ops): span and value."""
    for use in op.operands:
        yield use.span, use.value


def value_name(value: Value) -> str:
    """The name a value is written with at its definition (``%0`` for ``%0#1``)."""
    return value.group_name


def value_span(value: Value) -> Span:
    return value.span


def argument_type(argument: BlockArgument) -> str | None:
    return argument.type_text


def header_end(op: Operation) -> int:
    """Where the op's header ends: its first region's start, else its end."""
    return op.regions[0].span[0] if op.regions else op.span[1]


def name_start(op: Operation, text: str) -> int:
    """The offset of the op's name (quoted in the generic form), after its results."""
    after = max((value.span[1] for value in op.results), default=op.span[0])
    found = text.find(op.name, after, header_end(op))
    return found if found >= 0 else op.span[0]


def symbols(op: Operation, text: str) -> Iterator[tuple[Span, str, bool]]:
    """``@symbol`` references in the op's header (the part before its regions): span, name
    (unquoted) and whether it is the symbol the op defines (right after its name, unless the
    op is one that refers to a symbol there: ``func.call @f``, ``memref.get_global @g``)."""
    start, end = op.span[0], header_end(op)
    if text.find("@", start, end) < 0:
        return
    name_end = name_start(op, text) + len(op.name)
    defining = _DEFINING_WORDS.match(text, name_end)
    defined_at = defining.end() if defining is not None and not _refers(op.name) else -1
    for match in _SYMBOL.finditer(text, start, end):
        name = match.group()[1:]
        name = name[1:-1] if name.startswith('"') else name
        yield match.span(), name, match.start() == defined_at


def _refers(name: str) -> bool:
    """Whether an op of this name writes a symbol it refers to (not one it defines) right
    after its name: calls of any dialect, and the ops that read a global or take its
    address."""
    word = name.rsplit(".", 1)[-1].lower()
    return word.endswith("call") or word in _REFERRING_WORDS or word.startswith("global_")


def generic_symbol(op: Operation, text: str) -> tuple[Span, str] | None:
    """The symbol a generic-form op defines in its ``sym_name`` attribute (the span of the
    string, quotes included, and the name)."""
    if not op.is_generic or text.find("sym_name", op.span[0], header_end(op)) < 0:
        return None
    found = op.attribute("sym_name")
    if found is None or found.value_span is None or found.value is None:
        return None
    value = found.value
    if len(value) < 2 or not value.startswith('"') or not value.endswith('"'):
        return None
    return found.value_span, value[1:-1]


def trailing_location(op: Operation, text: str) -> Span | None:
    """The span of the op's own trailing ``loc(...)`` (after its regions), if any."""
    start, end = op.span
    after = op.regions[-1].span[1] if op.regions else start
    if not text.endswith(")", start, end):
        return None
    found = text.rfind("loc(", after, end)
    return (found, end) if found >= 0 else None


def aliases(chunk: Chunk) -> dict[str, Span]:
    """``#alias`` / ``!alias`` definitions of the chunk: name -> span of the name."""
    return dict(chunk.aliases)


__all__ = ["function_name"]  # a func.func's symbol, generic form too
