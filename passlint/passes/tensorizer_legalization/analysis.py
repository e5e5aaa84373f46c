"""@main's outputs classified by the case table (``cases``): the one analysis that
findings, fixes, hover, inlay hints and apply mode read.

For each `// -----` chunk: find ``func.func @main``, read its output names, and give every
operand of its return (by slot) the first case of ``cases.CASES`` that matches it, with the
op the pass names for it and, for copies, a fresh SSA name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container

from passlint.analysis.mlir.attribute_text import split_top_level
from passlint.analysis.mlir.ir import (
    Attribute,
    Chunk,
    Operation,
    ParsedFile,
)
from passlint.analysis.mlir.op_table import FUNC_RETURN_OPS
from passlint.passes.tensorizer_legalization.cases import classify
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, Variant

_NAME_CHARS = re.compile(r"[^A-Za-z0-9_$.\-]")


def analyze_file(parsed: ParsedFile, pipeline: str = "auto") -> tuple[ChunkAnalysis, ...]:
    """Every chunk's analysis: what findings, hover, inlay hints and symbols all read."""
    return tuple(analyze_chunk(chunk, pipeline) for chunk in parsed.chunks)


def analyze_chunk(
    chunk: Chunk,
    pipeline: str = "auto",
    variant: Variant | None = None,
    taken: Container[str] | None = None,
) -> ChunkAnalysis:
    """Classify @main's outputs. ``variant`` and ``taken`` (the SSA names used in main) are
    given by callers that know them without walking the whole chunk (the quick path)."""
    functions = chunk.functions()
    main = functions.get("main")
    analysis = ChunkAnalysis(chunk, pipeline, main, functions=functions, known_variant=variant)
    if main is None or not main.regions or not main.regions[0].blocks:
        return analysis
    analysis.ret = ret = next(
        (
            op
            for block in reversed(main.regions[0].blocks)
            for op in reversed(block.operations)
            if op.name in FUNC_RETURN_OPS
        ),
        None,
    )
    if ret is None:
        return analysis
    analysis.output_names = main.attribute("output_names")
    analysis.names = _read_names(analysis.output_names)
    types = ret.signature_types()[0]
    first_slots: dict[int, int] = {}
    for slot, use in enumerate(ret.operands):
        type_text = types[slot].text if slot < len(types) else None
        analysis.outputs.append(
            classify(analysis, slot, _slot_name(analysis.names, slot), use, type_text, first_slots)
        )
    _choose_copy_names(analysis, names_in_function(main) if taken is None else taken)
    return analysis


def _read_names(attr: Attribute | None) -> list[str | None] | None:
    if attr is None or attr.value is None:
        return None
    text = attr.value.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    names: list[str | None] = []
    for item in split_top_level(text[1:-1], ",") if text[1:-1].strip() else []:
        item = item.strip()
        if len(item) >= 2 and item.startswith('"') and item.endswith('"'):
            try:
                names.append(json.loads(item))
            except ValueError:
                names.append(item[1:-1])
        else:
            names.append(None)
    return names


def _slot_name(names: list[str | None] | None, slot: int) -> str:
    if names is not None and slot < len(names) and names[slot] is not None:
        return names[slot] or ""
    return f"output{slot}"


def names_in_function(main: Operation) -> set[str]:
    """Every SSA name defined anywhere in a function (results and block arguments)."""
    taken = {arg.name for arg in main.header_arguments}
    for op in main.walk():
        taken.update(result.group_name for result in op.results)
        for region in op.regions:
            for block in region.blocks:
                taken.update(arg.name for arg in block.arguments)
        taken.update(arg.name for arg in op.header_arguments)
    return taken


def may_be_copy_name(name: str) -> bool:
    """Could ``name`` be the fresh name of a copy (``_choose_copy_names``: ``%..._copy``, or
    ``%..._copy_N``)? The only names of @main whose being taken changes the analysis."""
    return _COPY_NAME.fullmatch(name) is not None


_COPY_NAME = re.compile(r"%.*_copy(?:_[0-9]+)?")


def _choose_copy_names(analysis: ChunkAnalysis, taken: Container[str]) -> None:
    """Fresh SSA names, unused in main and distinct from each other, for every copy."""
    fresh = FreshNames(taken)
    for output in analysis.outputs:
        if not output.case.copies:
            continue
        base = "%" + (_NAME_CHARS.sub("_", output.name) or f"output{output.slot}") + "_copy"
        if base[1].isdigit():
            base = "%output_" + base[1:]
        output.copy_name = fresh(base)


class FreshNames:
    """Names none of ``taken`` and none given before: ``base``, else ``base_1``, ``base_2``...

    Each base goes on from the last number it gave (a thousand outputs of one name would
    otherwise try every name given before them, each time)."""

    def __init__(self, taken: Container[str]) -> None:
        self.taken = taken
        self.given: set[str] = set()
        self.numbers: dict[str, int] = {}

    def __call__(self, base: str) -> str:
        number = self.numbers.get(base, 0)
        name = f"{base}_{number}" if number else base
        while name in self.taken or name in self.given:
            number += 1
            name = f"{base}_{number}"
        self.numbers[base] = number + 1
        self.given.add(name)
        return name
