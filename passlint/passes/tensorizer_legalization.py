"""TensorizerLegalization (MHLO and StableHLO variants) in dry-run mode.

For each `// -----` chunk: find ``func.func @main``, read its output names, classify every
operand of its return by slot as design section 3 says (stage A splat rewrite and stage B
zero-size rewrite of the StableHLO variant first, then C: copy or name), and report what the
pass would reject or rewrite. ``analyze_chunk`` is shared with apply mode and the server's
hover and inlay hints; ``check`` turns it into findings with byte-minimal copy fixes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Literal

from passlint.analysis.findings import Finding, Fix, Location, Severity, TextEdit
from passlint.analysis.mlir.attribute_text import split_top_level
from passlint.analysis.mlir.ir import (
    Attribute,
    BlockArgument,
    Chunk,
    Operation,
    OpResult,
    ParsedFile,
    Use,
    Value,
)
from passlint.analysis.mlir.known_ops import (
    composite_decomposition,
    constant_type,
    constant_value,
    fusion_kind,
    is_splat_constant,
)
from passlint.analysis.mlir.main_outline import outline_main, used_names
from passlint.analysis.mlir.outline_reads import Reads
from passlint.analysis.mlir.types import ShapedType, parse_shaped_type
from passlint.analysis.source import SourceText

Variant = Literal["mhlo", "stablehlo"]
Case = Literal[
    "input",
    "zero-sized-input",
    "constant",
    "splat-constant",
    "zero-sized",
    "fusion",
    "composite",
    "compute",
    "repeated",
    "unresolved",
]
CONSTANT_OPS = frozenset(("mhlo.constant", "stablehlo.constant"))
RETURN_OPS = frozenset(("func.return", "return"))
TERMINATORS = frozenset(("mhlo.return", "stablehlo.return", "func.return", "return"))
COPY_CASES = frozenset(("input", "constant", "repeated"))
_NAME_CHARS = re.compile(r"[^A-Za-z0-9_$.\-]")


@dataclass
class Output:
    """One operand of @main's return: its slot, name, source and what the pass does."""

    slot: int
    name: str
    use: Use
    type_text: str | None
    case: Case
    value: Value | None
    first_slot: int | None = None  # for "repeated": the slot that returned the value first
    named_op: Operation | None = None  # the op whose neuron.symName gets this name
    named_result: int = 0
    copy_name: str | None = None  # fresh SSA name for the copy, when one is inserted
    composite_function: str | None = None  # decomposition name, for composites


@dataclass
class ChunkAnalysis:
    chunk: Chunk
    variant: Variant
    main: Operation | None
    ret: Operation | None = None
    outputs: list[Output] = field(default_factory=list)
    output_names: Attribute | None = None
    names: list[str | None] | None = None  # output_names as read (None entries: not strings)


def variant_of(chunk: Chunk, pipeline: str) -> Variant:
    """MHLO when the chunk uses mhlo.* ops and no stablehlo.*, StableHLO otherwise.

    ``mhlo.copy`` does not count: both variants insert it, so a fixed module keeps its variant.
    """
    if pipeline in ("mhlo", "stablehlo"):
        return pipeline  # type: ignore[return-value]
    dialects = {
        op.dialect for top in chunk.operations for op in top.walk() if op.name != "mhlo.copy"
    }
    return "mhlo" if "mhlo" in dialects and "stablehlo" not in dialects else "stablehlo"


def analyze_chunk(
    chunk: Chunk,
    pipeline: str = "auto",
    variant: Variant | None = None,
    taken: Container[str] | None = None,
) -> ChunkAnalysis:
    """Classify @main's outputs. ``variant`` and ``taken`` (the SSA names used in main) are
    given by callers that know them without walking the whole chunk (the quick path)."""
    variant = variant or variant_of(chunk, pipeline)
    functions = chunk.functions()
    main = functions.get("main")
    analysis = ChunkAnalysis(chunk, variant, main)
    if main is None or not main.regions or not main.regions[0].blocks:
        return analysis
    body = main.regions[0]
    ret = next(
        (
            op
            for block in reversed(body.blocks)
            for op in reversed(block.operations)
            if op.name in RETURN_OPS
        ),
        None,
    )
    analysis.ret = ret
    if ret is None:
        return analysis
    analysis.output_names = main.attribute("output_names")
    analysis.names = _read_names(analysis.output_names)
    types = ret.signature_types()[0]
    seen: dict[int, int] = {}
    for slot, use in enumerate(ret.operands):
        name = _slot_name(analysis.names, slot)
        type_text = types[slot].text if slot < len(types) else None
        output = Output(slot, name, use, type_text, "unresolved", use.value)
        _classify(output, variant, functions, seen)
        analysis.outputs.append(output)
    _choose_copy_names(analysis, names_in_function(main) if taken is None else taken)
    return analysis


def _read_names(attr: Attribute | None) -> list[str | None] | None:
    if attr is None or attr.value is None:
        return None
    text = attr.value.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    names: list[str | None] = []
    for item in _items(text[1:-1]):
        item = item.strip()
        if len(item) >= 2 and item.startswith('"') and item.endswith('"'):
            try:
                names.append(json.loads(item))
            except ValueError:
                names.append(item[1:-1])
        else:
            names.append(None)
    return names


def _items(text: str) -> list[str]:
    """The comma-separated items of an array attribute's body (none when it is empty)."""
    return split_top_level(text, ",") if text.strip() else []


def _slot_name(names: list[str | None] | None, slot: int) -> str:
    if names is not None and slot < len(names) and names[slot] is not None:
        return names[slot] or ""
    return f"output{slot}"


def _shaped(value: Value | None, fallback: str | None) -> ShapedType | None:
    if isinstance(value, BlockArgument) and value.type_text:
        return value.shaped_type
    return parse_shaped_type(fallback) if fallback else None


def _classify(
    output: Output, variant: Variant, functions: dict[str, Operation], seen: dict[int, int]
) -> None:
    value = output.value
    shaped = _shaped(value, output.type_text)
    zero = shaped is not None and shaped.num_elements == 0
    if value is None:
        output.case = "unresolved"
        return
    if isinstance(value, BlockArgument):
        if zero:
            output.case = "zero-sized-input"
        else:
            output.case = "input"
        return
    assert isinstance(value, OpResult) and value.op is not None
    op = value.op
    output.named_op, output.named_result = op, value.index
    if variant == "stablehlo" and zero:
        output.case = "zero-sized"
        return
    if op.name in CONSTANT_OPS:
        if variant == "stablehlo" and op.name == "stablehlo.constant" and is_splat_constant(op):
            output.case = "splat-constant"
        else:
            output.case = "constant"
            output.named_op = None
            return
    elif op.name == "mhlo.fusion" and fusion_kind(op) == "ScheduleFusion":
        output.case = "fusion"
        inner = _region_result(op, value.index)
        if inner is not None:
            output.named_op, output.named_result = inner
    elif op.name == "stablehlo.composite":
        output.case = "composite"
        output.composite_function = composite_decomposition(op)
        decomposition = functions.get(output.composite_function or "")
        if decomposition is not None:
            inner = _region_result(decomposition, value.index)
            if inner is not None:
                output.named_op, output.named_result = inner
    else:
        output.case = "compute"
    key = id(value)
    if key in seen:
        output.first_slot = seen[key]
        output.case = "repeated"
        output.named_op = None
    else:
        seen[key] = output.slot


def _region_result(op: Operation, index: int) -> tuple[Operation, int] | None:
    """The op (and result index) producing operand ``index`` of the terminator of ``op``'s
    first region: where the pass names a fusion's or a composite's output."""
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[-1]
    if not block.operations or block.operations[-1].name not in TERMINATORS:
        return None
    terminator = block.operations[-1]
    if index >= len(terminator.operands):
        return None
    inner = terminator.operands[index].value
    if isinstance(inner, OpResult) and inner.op is not None:
        return inner.op, inner.index
    return None


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


def _choose_copy_names(analysis: ChunkAnalysis, taken: Container[str]) -> None:
    """Fresh SSA names, unused in main and distinct from each other, for every copy."""
    chosen: set[str] = set()
    for output in analysis.outputs:
        if output.case not in COPY_CASES:
            continue
        base = "%" + (_NAME_CHARS.sub("_", output.name) or f"output{output.slot}") + "_copy"
        if base[1].isdigit():
            base = "%output_" + base[1:]
        name, n = base, 1
        while name in taken or name in chosen:
            name = f"{base}_{n}"
            n += 1
        chosen.add(name)
        output.copy_name = name


def describe_output(analysis: ChunkAnalysis, output: Output) -> str:
    """What the pass does with one output, in a sentence (hover text, Markdown)."""
    value = output.value
    name = f"'{output.name}'"
    case = output.case
    if case == "input":
        arg = value.name if isinstance(value, BlockArgument) else output.use.name
        return (
            f"returns the input {arg}; the pass inserts `mhlo.copy` of it before the return "
            f"and names the copy {name} (TL001)"
        )
    if case == "zero-sized-input":
        if analysis.variant == "mhlo":
            return (
                "a zero-element input: the MHLO variant leaves it un-copied, so the output "
                "aliases the input (TL006)"
            )
        return (
            "a zero-element input: stage B replaces it with `stablehlo.custom_call "
            f"@AwsNeuronZeroSizedOp`, named {name} (TL006)"
        )
    if case == "constant":
        return f"a constant: the pass copies it with `mhlo.copy` and names the copy {name} (TL002)"
    if case == "splat-constant":
        return (
            "a splat constant: stage A rewrites it into a scalar `stablehlo.constant` and a "
            f"`stablehlo.broadcast_in_dim`, named {name} in place (TL007)"
        )
    if case == "zero-sized":
        return (
            "zero elements: stage B replaces it with `stablehlo.custom_call "
            f"@AwsNeuronZeroSizedOp` carrying `neuron.actual_shape`, named {name} (TL006)"
        )
    if case == "repeated":
        return (
            f"already returned as output {output.first_slot}: the pass would overwrite that "
            f"name; copying it for this slot gives it its own buffer named {name} (TL003)"
        )
    if case == "unresolved":
        return "the returned value is not defined in @main; the pass cannot name it"
    where = _named_where(output)
    if case == "fusion":
        return (
            "a ScheduleFusion `mhlo.fusion`: the pass names the matching operand of the "
            f"region's `mhlo.return`, {where}"
        )
    if case == "composite":
        target = f"@{output.composite_function}" if output.composite_function else "(none)"
        return (
            "a `stablehlo.composite`: the pass names the return value of its decomposition "
            f"{target}, {where}"
        )
    return f"computed here: the pass names it in place, {where}"


def _named_where(output: Output) -> str:
    op = output.named_op
    if op is None:
        return "but finds no op to name"
    return (
        f"writing {output.name!r} into `neuron.symName` slot {output.named_result} of `{op.name}`"
    )


# -- findings ----------------------------------------------------------------------------------


def quick_check(
    path: str, text: str, source: SourceText, pipeline: str
) -> tuple[list[Finding], Reads] | None:
    """The findings of ``check`` from @main's outline alone, with what they were read from,
    or None when the outline cannot be had or does not settle every output (composites need
    their decomposition function).

    For an editor's first answer on a large file; the full ``check`` follows and prevails.
    """
    outline = outline_main(text)
    if outline is None:
        return None
    variant: Variant
    if pipeline in ("mhlo", "stablehlo"):
        variant = pipeline  # type: ignore[assignment]
    else:
        only_mhlo = "mhlo" in outline.dialects and "stablehlo" not in outline.dialects
        variant = "mhlo" if only_mhlo else "stablehlo"
    analysis = analyze_chunk(outline.chunk, pipeline, variant, used_names(outline))
    if any(output.case in ("composite", "unresolved") for output in analysis.outputs):
        return None
    return _chunk_findings(path, analysis, source), outline.read


def check(path: str, parsed: ParsedFile, source: SourceText, pipeline: str) -> list[Finding]:
    """Findings of the pass for every chunk of a parsed .mlir file."""
    findings: list[Finding] = []
    for chunk in parsed.chunks:
        analysis = analyze_chunk(chunk, pipeline)
        findings.extend(_chunk_findings(path, analysis, source))
    return findings


def _chunk_findings(path: str, analysis: ChunkAnalysis, source: SourceText) -> list[Finding]:
    chunk = analysis.chunk
    if analysis.main is None:
        if not chunk.operations:
            return []
        first = chunk.operations[0]
        return [
            Finding(
                "TL005",
                Severity.ERROR,
                path,
                source.range(*first.name_span),
                "this module has no func.func @main: TensorizerLegalization legalizes the "
                "outputs of @main and aborts without one; add @main or ignore TL005 for "
                "libraries and lit tests",
            )
        ]
    findings = _names_findings(path, analysis, source)
    for output in analysis.outputs:
        finding = _output_finding(path, analysis, output, source)
        if finding is not None:
            findings.append(finding)
    return findings


def _describe(output: Output) -> str:
    return f"output {output.slot} ('{output.name}')"


def _names_findings(path: str, analysis: ChunkAnalysis, source: SourceText) -> list[Finding]:
    attr, names = analysis.output_names, analysis.names
    if attr is None or attr.value_span is None:
        return []
    rng = source.range(*attr.value_span)
    count = len(analysis.outputs)
    problem = None
    if names is None:
        problem = "is not an array of strings"
    elif any(name is None for name in names):
        bad = [i for i, name in enumerate(names) if name is None]
        problem = f"has entries that are not strings (at {', '.join(map(str, bad))})"
    elif len(names) < count:
        problem = (
            f"has {len(names)} name{'s' if len(names) != 1 else ''} for {count} returned values: "
            "the pass reads past its end for the outputs without one"
        )
    elif len(names) > count:
        problem = (
            f"has {len(names)} names for {count} returned value{'s' if count != 1 else ''}: "
            f"{', '.join(repr(n) for n in names[count:])} name no output"
        )
    else:
        duplicates = sorted({n for n in names if n is not None and names.count(n) > 1})
        if duplicates:
            problem = (
                f"names two outputs {', '.join(repr(d) for d in duplicates)}: two buffers "
                "would share one name"
            )
    if problem is None:
        return []
    return [
        Finding(
            "TL004",
            Severity.ERROR,
            path,
            rng,
            f"output_names of @main {problem}; give exactly one distinct string per operand "
            "of the return",
            (Location(path, source.range(*analysis.ret.name_span), "the return of @main"),)
            if analysis.ret is not None
            else (),
        )
    ]


def _output_finding(
    path: str, analysis: ChunkAnalysis, output: Output, source: SourceText
) -> Finding | None:
    rng = source.range(*output.use.span)
    what = _describe(output)
    value = output.value
    mhlo = analysis.variant == "mhlo"
    if output.case == "input":
        assert isinstance(value, BlockArgument)
        return Finding(
            "TL001",
            Severity.WARNING,
            path,
            rng,
            f"{what} returns the input {value.name} itself: the tensorizer needs a distinct, "
            f"writable buffer per output, so TensorizerLegalization inserts an identity "
            f"mhlo.copy and names the copy '{output.name}'; copy the input before the return",
            (Location(path, source.range(*value.span), f"input {value.name} is defined here"),),
            _copy_fix(path, analysis, output, source),
        )
    if output.case == "constant":
        assert isinstance(value, OpResult) and value.op is not None
        op = value.op
        reason = _constant_reason(op, analysis.variant)
        return Finding(
            "TL002",
            Severity.WARNING,
            path,
            rng,
            f"{what} returns {value.name}, {reason}: constants are read-only, so "
            f"TensorizerLegalization inserts an identity mhlo.copy and names the copy "
            f"'{output.name}'; copy the constant before the return",
            (Location(path, source.range(*op.header_span), "the constant is defined here"),),
            _copy_fix(path, analysis, output, source),
        )
    if output.case == "repeated":
        first = output.first_slot if output.first_slot is not None else 0
        first_output = analysis.outputs[first]
        return Finding(
            "TL003",
            Severity.WARNING,
            path,
            rng,
            f"{what} returns {output.use.name}, already returned as output {first} "
            f"('{first_output.name}'): the second name overwrites the first in the same "
            f"neuron.symName slot and both outputs share one buffer; copy the value for this "
            f"output",
            (
                Location(
                    path, source.range(*first_output.use.span), f"first returned as output {first}"
                ),
            ),
            _copy_fix(path, analysis, output, source),
        )
    if output.case == "zero-sized-input":
        assert isinstance(value, BlockArgument)
        if mhlo:
            return Finding(
                "TL006",
                Severity.WARNING,
                path,
                rng,
                f"{what} returns the zero-element input {value.name}: the MHLO variant leaves "
                f"it un-copied, so the output still aliases the input",
                (Location(path, source.range(*value.span), f"input {value.name} is defined here"),),
            )
        return _zero_sized_stablehlo(path, output, source)
    if output.case == "zero-sized":
        return _zero_sized_stablehlo(path, output, source)
    if output.case == "splat-constant":
        assert isinstance(value, OpResult) and value.op is not None
        return Finding(
            "TL007",
            Severity.INFORMATION,
            path,
            rng,
            f"{what} returns the splat constant {value.name}: stage A of the StableHLO variant "
            f"rewrites it into a scalar stablehlo.constant and a stablehlo.broadcast_in_dim, "
            f"which is named '{output.name}' in place (no copy)",
            (Location(path, source.range(*value.op.header_span), "the splat constant"),),
        )
    if output.case == "composite" and output.composite_function not in analysis.chunk.functions():
        assert isinstance(value, OpResult) and value.op is not None
        missing = output.composite_function
        decomposition = value.op.attribute("decomposition")
        where = (
            decomposition.value_span
            if decomposition and decomposition.value_span
            else value.op.name_span
        )
        return Finding(
            "TL009",
            Severity.ERROR,
            path,
            source.range(*where),
            f"{what} is produced by stablehlo.composite {value.name}, whose decomposition "
            f"{'@' + missing if missing else '(none given)'} is not a function of this module: "
            f"the pass names the output inside the decomposition and fails without it; add "
            f"the function or fix the decomposition attribute",
            (Location(path, source.range(*output.use.span), f"returned as {what}"),),
        )
    return None


def _constant_reason(op: Operation, variant: Variant) -> str:
    if op.name == "mhlo.constant" or variant == "mhlo":
        return f"a {op.name} (the {variant.upper()} variant copies constants, splat or not)"
    shaped = constant_type(op)
    if shaped is not None and shaped.rank == 0:
        return "a scalar stablehlo.constant (stage A only rewrites splats of higher rank)"
    if constant_value(op).strip().startswith("dense_resource<"):
        return "a stablehlo.constant holding a resource blob"
    return "a non-splat stablehlo.constant"


def _zero_sized_stablehlo(path: str, output: Output, source: SourceText) -> Finding:
    return Finding(
        "TL006",
        Severity.INFORMATION,
        path,
        source.range(*output.use.span),
        f"{_describe(output)} has zero elements ({output.type_text or 'zero-sized'}): stage B "
        f"of the StableHLO variant replaces it with a stablehlo.custom_call "
        f"@AwsNeuronZeroSizedOp carrying neuron.actual_shape",
    )


def _copy_fix(path: str, analysis: ChunkAnalysis, output: Output, source: SourceText) -> Fix | None:
    ret = analysis.ret
    if ret is None or output.copy_name is None:
        return None
    type_text = output.type_text
    if type_text is None and isinstance(output.value, BlockArgument):
        type_text = output.value.type_text
    if type_text is None:
        return None
    copy = copy_statement(output.copy_name, output.use.name, type_text, generic=ret.is_generic)
    text = source.text
    line_start = text.rfind("\n", 0, ret.span[0]) + 1
    prefix = text[line_start : ret.span[0]]
    newline = "\r\n" if text.find("\r\n", line_start) == text.find("\n", line_start) - 1 else "\n"
    if prefix.strip():
        indent = prefix[: len(prefix) - len(prefix.lstrip())]
        insert_at, new_text = ret.span[0], f"{copy}{newline}{indent}"
    else:
        insert_at, new_text = _above_suppression(text, line_start), f"{prefix}{copy}{newline}"
    return Fix(
        f"Copy {output.use.name} into {output.copy_name} for output {output.slot} "
        f"('{output.name}')",
        (
            TextEdit(path, source.range(insert_at, insert_at), new_text),
            TextEdit(path, source.range(*output.use.span), output.copy_name),
        ),
    )


_SUPPRESSION_LINE = re.compile(r"[ \t]*//\s*passlint:\s*ignore\[[A-Za-z0-9, ]+\][^\n]*\n")


def _above_suppression(text: str, line_start: int) -> int:
    """Where to insert a line before the line at ``line_start``: above a whole-line
    ``// passlint: ignore[...]`` comment right before it, which must stay next to the line it
    suppresses."""
    if line_start == 0:
        return line_start
    previous = text.rfind("\n", 0, line_start - 1) + 1
    return previous if _SUPPRESSION_LINE.fullmatch(text, previous, line_start) else line_start


def copy_statement(
    result: str, operand: str, type_text: str, generic: bool, attributes: str = ""
) -> str:
    """``%r = mhlo.copy %v : T`` (pretty) or ``%r = "mhlo.copy"(%v) : (T) -> T`` (generic)."""
    if generic:
        return f'{result} = "mhlo.copy"({operand}){attributes} : ({type_text}) -> {type_text}'
    return f"{result} = mhlo.copy {operand}{attributes} : {type_text}"
