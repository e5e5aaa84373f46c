"""The hover every .mlir value, op, ``@symbol`` and ``^label`` gets (Markdown), as an MLIR
user expects it of a language server:

- a value: its type, what defines it (an op's result, shown on one line; a function's or
  a block's argument) and how many uses it has;
- an op (on its name): its operands and results with their types, successors, regions;
- an ``@symbol`` (where it is defined or used): the function's signature, or the defining
  op on one line, and how many references it has;
- a ``^label``: the block's arguments and its predecessors (the terminators that branch
  to it).

Answered from the index of the last analysed version (spans and numbers); the words shown
(types, the op's line) are read from the current text of the one op concerned
(``op_text``), through the view's shift. Counts of uses scan only the region that can hold
them, at C speed (``array.index``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from passlint.server.mlir_index import LABEL, SYMBOL, VALUE, MlirIndex
from passlint.server.op_text import OpReading, argument_type, function_type, read_op
from passlint.server.quoting import code, shown
from passlint.server.views import MlirView

Span = tuple[int, int]

LISTED = 16  # operands, results, predecessors listed at most (then "and N more")
TYPE = 120  # characters of a type shown, at most
_SYM_NAME = re.compile(r'sym_name\s*=\s*"([^"\\\n]*+(?:\\.[^"\\\n]*+)*+)"')


def occurrence_section(view: MlirView, occurrence: int) -> str | None:
    """What the value, label or symbol named at ``occurrence`` is."""
    index = view.index
    entity = index.entities[occurrence]
    kind = index.kinds[entity]
    if kind == VALUE:
        written = _text(view, (index.starts[occurrence], index.ends[occurrence]))
        return _value(view, entity, written or index.names[entity])
    if kind == LABEL:
        return _label(view, entity)
    if kind == SYMBOL:
        return _symbol(view, entity)
    return None


def op_section(view: MlirView, op: int) -> str | None:
    """What the op is: its symbol, operands, results, successors, the symbols it refers to
    and its regions."""
    index = view.index
    reading = _reading(view, op)
    if reading is None:
        return None
    header_end = index.header_end(op)
    operands = list(_header_uses(index, op, header_end, VALUE))
    regions = len(index.regions_of(op))
    counts = [_count(len(operands), "operand"), _count(len(reading.results), "result")]
    if regions:
        counts.append(_count(regions, "region"))
    head = code(_op_name(view, op))
    symbol = _defined_symbol(view, op, header_end)
    if symbol is not None:
        head += " " + code("@" + symbol)
        signature = _signature(view, op, header_end)
        if signature is not None:
            head += ": " + code(signature, TYPE)
    lines = []
    if operands:
        lines.append("- operands: " + _listed(_operands(view, reading, operands), len(operands)))
    if reading.results:
        pairs = zip(reading.results[:LISTED], reading.result_types, strict=False)
        words = [_typed(result, kind) for result, kind in pairs]
        lines.append("- results: " + _listed(words, len(reading.results)))
    for entity_kind, title in ((LABEL, "successors"), (SYMBOL, "symbols")):
        named = list(_header_uses(index, op, header_end, entity_kind))
        if named:
            words = [code(_text(view, span) or index.names[e]) for span, e in named[:LISTED]]
            lines.append(f"- {title}: " + _listed(words, len(named)))
    body = "\n\n" + "\n".join(lines) if lines else ""
    return f"{head} · {', '.join(counts)}{body}"


def _operands(view: MlirView, reading: OpReading, operands: list[tuple[Span, int]]) -> list[str]:
    """The first operands, each with its type as its definition writes it (else as the op's
    signature lists it)."""
    listed = reading.operand_types
    words = []
    for i, (span, entity) in enumerate(operands[:LISTED]):
        written = _text(view, span) or view.index.names[entity]
        kind = _type_of(view, entity, written)
        words.append(_typed(written, kind if kind or listed is None else listed[i]))
    return words


# -- values ------------------------------------------------------------------------------------


def _value(view: MlirView, entity: int, written: str) -> str:
    index = view.index
    definition = index.definitions[entity]
    op = index.op_at(definition)
    uses = _count(_uses(view, entity, written if "#" in written else None), "use")
    if op >= 0 and definition < index.op_names[op]:  # a result of ``op``
        reading = _reading(view, op)
        if reading is None:
            return f"{code(written)} · {uses}"
        chosen = _chosen_results(reading, index.names[entity], written)
        types = [reading.result_types[k] for k in chosen]
        head = _typed(written, types[0] if len(types) == 1 else _group_type(types))
        which = ", ".join(str(k) for k in chosen) or "?"
        role = f"result{'s' if len(chosen) > 1 else ''} {which} of {_op_words(view, op)}"
        return f"{head}\n\n{role} · {uses}\n\n{_fenced(reading.line)}"
    kind, role = _argument(view, entity, op)
    return f"{_typed(written, kind)}\n\n{role} · {uses}"


def _type_of(view: MlirView, entity: int, written: str | None) -> str | None:
    """A value's type as its definition writes it."""
    index = view.index
    definition = index.definitions[entity]
    op = index.op_at(definition)
    if op >= 0 and definition < index.op_names[op]:
        reading = _reading(view, op)
        if reading is None:
            return None
        chosen = _chosen_results(reading, index.names[entity], written or index.names[entity])
        types = [reading.result_types[k] for k in chosen]
        return types[0] if len(types) == 1 else _group_type(types)
    return _argument(view, entity, op)[0]


def _chosen_results(reading: OpReading, group: str, written: str) -> list[int]:
    """The result numbers ``written`` names (``%0#1``: one; ``%0`` of ``%0:2``: all)."""
    if written in reading.results:
        return [reading.results.index(written)]
    return [k for k, name in enumerate(reading.results) if name.split("#", 1)[0] == group]


def _group_type(types: list[str | None]) -> str | None:
    if not types or any(kind is None for kind in types):
        return None
    return "(" + ", ".join(kind for kind in types if kind is not None) + ")"


def _argument(view: MlirView, entity: int, owner: int) -> tuple[str | None, str]:
    """A block or function argument's type, and whose argument it is."""
    number, label, limit = _argument_place(view.index, entity, owner)
    if label is not None:
        where = f"block {code(view.index.names[label])} of {_op_words(view, owner)}"
    else:
        where = _op_words(view, owner) if owner >= 0 else "an op"
    role = f"argument {number if number >= 0 else '?'} of {where}"
    return _argument_type(view, entity, owner, number, limit), role


def _argument_place(index: MlirIndex, entity: int, owner: int) -> tuple[int, int | None, int]:
    """An argument's number, its block's label (None: an argument of the op's header, as a
    function's) and where the list it is written in ends, at the latest."""
    block = index.scopes[entity]
    label = index.label_of(block) if block >= 0 else None
    if label is not None and index.visible_from[entity] == index.block_starts[block]:
        return entity - label - 1, label, index.block_ends[block]  # (they follow the label)
    header_end = index.header_end(owner) if owner >= 0 else index.definition_ends[entity]
    arguments = [e for _, e in _header_definitions(index, owner, header_end)]
    return (arguments.index(entity) if entity in arguments else -1), None, header_end


def _argument_type(view: MlirView, entity: int, owner: int, number: int, limit: int) -> str | None:
    """The type written after the argument, else (``while(%iterArg = %x) : T``) the type
    the op's signature lists at its place."""
    index = view.index
    name_end, end = _current(view, index.definition_ends[entity]), _current(view, limit)
    if name_end is not None and end is not None:
        found = argument_type(view.source.text, name_end, end)
        if found is not None:
            return found
    if owner < 0 or number < 0 or index.definitions[entity] >= index.header_end(owner):
        return None
    reading = _reading(view, owner)
    return reading.types[number] if reading is not None and len(reading.types) > number else None


# -- labels and symbols --------------------------------------------------------------------------


def _label(view: MlirView, entity: int) -> str:
    index = view.index
    block = index.scopes[entity]
    region = index.block_regions[block]
    owner = index.op_at(index.region_starts[region])
    entry = index.region_blocks(region)[0] == block
    arguments, count = _block_arguments(view, entity, owner)
    terminators = list(
        dict.fromkeys(
            index.op_at(index.starts[i])
            for i in index.occurrences_in(entity, index.region_span(region))
            if not index.is_definition[i]
        )
    )
    predecessors = [_predecessor(view, region, op) for op in terminators[:LISTED]]
    return "\n".join(
        [
            f"block {code(index.names[entity])}{' (entry)' if entry else ''} of "
            f"{_op_words(view, owner)}",
            "",
            "- arguments: " + (_listed(arguments, count) if arguments else "none"),
            "- predecessors: "
            + (_listed(predecessors, len(terminators)) if predecessors else "none"),
        ]
    )


def _block_arguments(view: MlirView, label: int, owner: int) -> tuple[list[str], int]:
    """The first arguments of the block of ``label`` with their types, and how many it has
    (they follow its label among the entities)."""
    index = view.index
    block = index.scopes[label]
    shown_arguments: list[str] = []
    argument = label + 1
    while (
        argument < len(index.names)
        and index.kinds[argument] == VALUE
        and index.scopes[argument] == block
        and index.visible_from[argument] == index.block_starts[block]
    ):
        if len(shown_arguments) < LISTED:
            number, limit = argument - label - 1, index.block_ends[block]
            kind = _argument_type(view, argument, owner, number, limit)
            shown_arguments.append(_typed(index.names[argument], kind))
        argument += 1
    return shown_arguments, argument - label - 1


def _predecessor(view: MlirView, region: int, terminator: int) -> str:
    """The block a branch to a label is in, and the branching op."""
    index = view.index
    source = _block_in_region(index, region, index.op_starts[terminator])
    label = index.label_of(source) if source >= 0 else None
    name = code(index.names[label]) if label is not None else "the entry block"
    by = code(_op_name(view, terminator))
    return f"{name} ({by}, {_where(view, index.op_starts[terminator])})"


def _symbol(view: MlirView, entity: int) -> str:
    index = view.index
    name = code("@" + index.names[entity])
    chunk = index.chunks[index.entity_chunks[entity]]
    references = sum(1 for i in index.occurrences_in(entity, chunk) if not index.is_definition[i])
    tail = _count(references, "reference")
    definition = index.definitions[entity]
    if definition < 0:
        return f"{name}: no definition in this module · {tail}"
    op = index.op_at(definition)
    line = _line(view, definition)
    where = f"defined on line {line}" if line is not None else "defined"
    if op < 0:
        return f"{name} · {where} · {tail}"
    header_end = index.header_end(op)
    signature = _signature(view, op, header_end)
    if signature is not None:
        head = f"{code(_op_name(view, op))} {name}: {code(signature, TYPE)}"
        return f"{head}\n\n{where} · {tail}"
    reading = _reading(view, op)
    shown_op = f"\n\n{_fenced(reading.line)}" if reading is not None else ""
    return f"{code(_op_name(view, op))} {name}\n\n{where} · {tail}{shown_op}"


def _signature(view: MlirView, op: int, header_end: int) -> str | None:
    """A function's ``(T) -> U`` (of an op named ``*func``: ``func.func``, ``llvm.func``)."""
    index = view.index
    if not _op_name(view, op).endswith("func"):
        return None
    header = view.to_current((index.op_starts[op], header_end))
    name_start = _current(view, index.op_names[op])
    if header is None or name_start is None:
        return None
    return function_type(view.source.text, header, name_start)


# -- the index -----------------------------------------------------------------------------------


def _reading(view: MlirView, op: int) -> OpReading | None:
    """What the op's current text says (None: it lies on lines changed since)."""
    index = view.index
    span = view.to_current((index.op_starts[op], index.op_ends[op]))
    name_start = _current(view, index.op_names[op])
    regions = [view.to_current(region) for region in index.regions_of(op)]
    if span is None or name_start is None or None in regions:
        return None
    operands = sum(1 for _ in _header_uses(index, op, index.header_end(op), VALUE))
    moved = [region for region in regions if region is not None]
    return read_op(view.source.text, span, name_start, moved, operands)


def _header_uses(
    index: MlirIndex, op: int, header_end: int, kind: int
) -> Iterator[tuple[Span, int]]:
    """The values (or labels) the op's header uses, in order: span and entity."""
    for i in index.header_occurrences(op, header_end):
        entity = index.entities[i]
        if not index.is_definition[i] and index.kinds[entity] == kind:
            yield (index.starts[i], index.ends[i]), entity


def _header_definitions(index: MlirIndex, op: int, header_end: int) -> Iterator[tuple[Span, int]]:
    """The values the op's header defines (a function's arguments), in order."""
    for i in index.header_occurrences(op, header_end):
        entity = index.entities[i]
        if index.is_definition[i] and index.kinds[entity] == VALUE:
            yield (index.starts[i], index.ends[i]), entity


def _defined_symbol(view: MlirView, op: int, header_end: int) -> str | None:
    """The symbol the op defines: ``@name`` after its name, or a generic ``sym_name``."""
    index = view.index
    for i in index.header_occurrences(op, header_end):
        entity = index.entities[i]
        if index.is_definition[i] and index.kinds[entity] == SYMBOL:
            return index.names[entity]
    header = view.to_current((index.op_names[op], header_end))
    if header is None:
        return None
    text = view.source.text
    at = text.find("sym_name", *header)
    found = _SYM_NAME.match(text, at) if at >= 0 else None
    return found.group(1) if found is not None else None


def _uses(view: MlirView, entity: int, written: str | None) -> int:
    """Uses of a value (of the one result ``written`` names, when given): its occurrences
    but its definition, in the region that holds it (an argument of an op's header, such
    as ``while(%iterArg = %x)``: in the op's regions)."""
    index = view.index
    block = index.scopes[entity]
    definition = index.definitions[entity]
    owner = index.op_at(definition)
    if owner >= 0 and index.op_names[owner] < definition < index.header_end(owner):
        span = index.op_starts[owner], index.op_ends[owner]
    elif block >= 0:
        span = index.region_span(index.block_regions[block])
    else:
        span = index.chunks[index.entity_chunks[entity]]
    count = 0
    for i in index.occurrences_in(entity, span):
        if index.is_definition[i]:
            continue
        if written is None or _text(view, (index.starts[i], index.ends[i])) == written:
            count += 1
    return count


def _block_in_region(index: MlirIndex, region: int, offset: int) -> int:
    """The block of ``region`` holding ``offset`` (a region's blocks follow each other)."""
    blocks = index.region_blocks(region)
    block = bisect.bisect_right(index.block_starts, offset, blocks.start, blocks.stop) - 1
    if block >= blocks.start and offset <= index.block_ends[block]:
        return block
    return -1


# -- words ------------------------------------------------------------------------------------


def _op_name(view: MlirView, op: int) -> str:
    return _text(view, view.index.name_span(op)) or "op"


def _op_words(view: MlirView, op: int) -> str:
    """An op as a hover names it: ``@main`` (``func.func``, line 5), ``mhlo.fusion`` (line 8)."""
    if op < 0:
        return "the top level"
    index = view.index
    written = _text(view, index.name_span(op))
    if written is None:
        return "an op on a changed line"
    name = code(written)
    at = _where(view, index.op_starts[op])
    symbol = _defined_symbol(view, op, index.header_end(op))
    if symbol is not None:
        return f"{code('@' + symbol)} ({name}, {at})"
    return f"{name} ({at})"


def _where(view: MlirView, offset: int) -> str:
    line = _line(view, offset)
    return f"line {line}" if line is not None else "a changed line"


def _typed(name: str, kind: str | None) -> str:
    return f"{code(name)}: {code(kind, TYPE)}" if kind is not None else code(name)


def _listed(words: list[str], total: int) -> str:
    more = f", and {total - len(words)} more" if total > len(words) else ""
    return ", ".join(words) + more


def _count(number: int, noun: str) -> str:
    return f"{'no' if number == 0 else number} {noun}{'' if number == 1 else 's'}"


def _fenced(line: str) -> str:
    """An op's line as an MLIR code block: escaped as a quote is, no backtick can end it."""
    return "```mlir\n" + shown(line, len(line)).replace("`", "\\x60") + "\n```"


def _text(view: MlirView, span: Span) -> str | None:
    """The current text of a span of the indexed version (None: on a changed line)."""
    moved = view.to_current(span)
    return None if moved is None else view.source.text[moved[0] : moved[1]]


def _current(view: MlirView, offset: int) -> int | None:
    moved = view.to_current((offset, offset))
    return None if moved is None else moved[0]


def _line(view: MlirView, offset: int) -> int | None:
    at = _current(view, offset)
    return None if at is None else view.source.position(at).line + 1
