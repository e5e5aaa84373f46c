"""TensorizerLegalization in apply mode: the module text after the whole pass.

The pass is applied as text edits on the original, so every statement it does not change is
printed exactly as written, and what it adds is printed in the style of the file (pretty or
generic form, the statement's indentation, the file's line ending):

- stage A (StableHLO): each splat ``stablehlo.constant`` (``isSplat()``: every element
  equal, so every single-element constant, rank 0 included) becomes a scalar constant of its
  one value and a ``stablehlo.broadcast_in_dim`` that keeps the original result name;
- stage B (StableHLO): each single-result op producing a zero-element tensor, and each
  returned zero-element input, becomes a ``stablehlo.custom_call @AwsNeuronZeroSizedOp``
  carrying ``neuron.actual_shape``;
- stage C: an identity ``mhlo.copy`` for every output that is an input, a constant or a value
  already returned at an earlier slot (with ``neuron.actual_shape`` in StableHLO unless the
  source op has one), and ``neuron.symName`` on every producing op: an array of symbol refs,
  one slot per result, accumulated across outputs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import TextEdit
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.ir import BlockArgument, Chunk, Operation, OpResult, TypeRef
from passlint.analysis.mlir.known_ops import (
    aliased_constant_type,
    constant_type,
    is_splat_constant,
    splat_value,
)
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.mlir.types import ShapedType
from passlint.analysis.source import SourceText, line_break, line_start
from passlint.passes.tensorizer_legalization.analysis import (
    FreshNames,
    analyze_chunk,
    names_in_function,
)
from passlint.passes.tensorizer_legalization.attach import attach, attach_before_colon
from passlint.passes.tensorizer_legalization.findings import copy_statement
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo

_BARE_SYMBOL = re.compile(r"[A-Za-z_][\w$.]*\Z")
ZERO_SIZED_TARGET = "AwsNeuronZeroSizedOp"


@dataclass(frozen=True)
class Legalized:
    """The file after the pass, and the ops whose name passlint placed without certainty:
    a custom form it does not know, too rich to print in generic form, takes the attribute
    before its `:` (where most custom forms take one), offsets in the input text."""

    text: str
    unsure: list[tuple[int, str]]  # (offset of the op, its name)


def legalize(text: str, pipeline: str = "auto", memo: MlirMemo | None = None) -> Legalized:
    """The whole file after TensorizerLegalization (each `// -----` chunk on its own;
    ``memo``: the parser's, as for ``parse_file``)."""
    parsed = parse_file(text, memo)
    source = SourceText(text)
    edits: list[TextEdit] = []
    unsure: list[tuple[int, str]] = []
    for chunk in parsed.chunks:
        legalizer = _Legalizer(text, source, analyze_chunk(chunk, pipeline))
        edits.extend(legalizer.edits())
        unsure.extend(legalizer.unsure)
    return Legalized(apply_edits(text, edits), sorted(unsure))


def unsure_placement(op_name: str) -> str:
    """What ``legalize`` says of a name it placed without certainty."""
    return (
        f"`{excerpt(op_name)}` is in a custom form passlint does not know: its neuron.symName "
        "is placed before its ':', where most custom forms take attributes; MLIR may reject it"
    )


def legalize_text(text: str, pipeline: str = "auto", memo: MlirMemo | None = None) -> str:
    """The text of ``legalize``."""
    return legalize(text, pipeline, memo).text


def symbol_ref(name: str) -> str:
    """``@name``, quoted when the name is not a bare identifier (``@"result[0]"``)."""
    return "@" + (name if _BARE_SYMBOL.match(name) else json.dumps(name))


def result_types(op: Operation) -> list[TypeRef]:
    """The result types an op's signature spells (``: T`` stands for every result), or an
    aliased constant's."""
    before, after = op.signature_types()
    if after:
        return after
    if before:
        return before[-1:] * max(len(op.results), 1)
    aliased = aliased_constant_type(op)
    return [aliased] if aliased else []


def actual_shape(shaped: ShapedType | None) -> str:
    """``neuron.actual_shape``: a StringAttr of the logical shape (``StringAttr(logicalShape)``
    in the pass), spelled as MLIR spells a shape: ``"0x4"``, ``"?x4"``, ``""`` for rank 0,
    ``"*"`` unranked."""
    if shaped is None or shaped.shape is None:
        return json.dumps("*")
    return json.dumps("x".join("?" if dim is None else str(dim) for dim in shaped.shape))


@dataclass
class _Legalizer:
    text: str
    source: SourceText
    analysis: ChunkAnalysis
    replaced: dict[int, Operation] = field(default_factory=dict)  # id(op) -> op rewritten whole
    names: dict[int, list[str]] = field(default_factory=dict)  # id(op) -> symName slots
    named_ops: dict[int, Operation] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)  # SSA names in use in main
    fresh: FreshNames = field(default_factory=lambda: FreshNames(()))
    generic: bool = False  # print added ops in generic form
    newline: str = "\n"
    unsure: list[tuple[int, str]] = field(default_factory=list)  # names placed by a guess

    @property
    def chunk(self) -> Chunk:
        return self.analysis.chunk

    @property
    def stablehlo(self) -> bool:
        return self.analysis.variant == "stablehlo"

    def edits(self) -> list[TextEdit]:
        analysis = self.analysis
        if analysis.main is None or analysis.ret is None:
            return []
        self.generic = analysis.ret.is_generic
        self.newline = line_break(self.text, analysis.ret.span[0])
        self.taken = names_in_function(analysis.main)
        self.fresh = FreshNames(self.taken)
        splats: list[Operation] = []
        zero_sized: list[Operation] = []
        if self.stablehlo:
            for op in analysis.main.walk():
                if op.name == "stablehlo.constant" and op.results and is_splat_constant(op):
                    splats.append(op)
                elif len(op.results) == 1 and op.name not in ("func.func",) and _zero(op):
                    zero_sized.append(op)
        for output in analysis.outputs:
            if output.case.apply == "name" and output.named_op is not None:
                self._name(output.named_op, output.named_result, output.name)
        edits: list[TextEdit] = []
        # An op rewritten whole (a zero-sized fusion) takes the ops of its regions with it.
        rewritten = {id(op): op for op in (*splats, *zero_sized)}
        for op in splats:
            if not _nested_in(op, rewritten):
                edits.append(self._replace(op, self._splat_lines(op)))
        for op in zero_sized:
            if not _nested_in(op, rewritten):
                edits.append(self._replace(op, self._zero_sized_lines(op)))
        edits.extend(self._return_edits())
        for key, op in self.named_ops.items():
            if key not in self.replaced and not _nested_in(op, self.replaced):
                edits.append(self._attach_name(op))
        return edits

    # -- naming ----------------------------------------------------------------------------
    def _name(self, op: Operation, result: int, name: str) -> None:
        key = id(op)
        if key not in self.names:
            self.names[key] = _existing_names(op) or ['""'] * max(len(op.results), 1)
            self.named_ops[key] = op
        slots = self.names[key]
        while len(slots) <= result:
            slots.append('""')
        slots[result] = symbol_ref(name)[1:]

    def _sym_name(self, op: Operation) -> str | None:
        slots = self.names.get(id(op))
        return None if slots is None else "[" + ", ".join("@" + s for s in slots) + "]"

    def _attach_name(self, op: Operation) -> TextEdit:
        """Add (or replace) ``neuron.symName`` where the op's form takes attributes
        (``attach``), in generic form when its custom form is not one passlint knows."""
        value = self._sym_name(op)
        existing = op.attribute("neuron.symName")
        if existing is not None and existing.value_span is not None:
            return TextEdit("", self.source.range(*existing.value_span), str(value))
        entry = f"neuron.symName = {value}"
        edit = attach(op, entry)
        if edit is None:
            self.unsure.append((op.span[0], op.name))
            edit = attach_before_colon(op, entry)
        return TextEdit("", self.source.range(*edit[0]), edit[1])

    # -- rewrites --------------------------------------------------------------------------
    def _replace(self, op: Operation, lines: list[str]) -> TextEdit:
        self.replaced[id(op)] = op
        indent = self._indent(op.span[0])
        end = op.header_span[1]
        location = op.location_span
        suffix = ""
        if location is not None and location[1] == end:
            suffix = " " + self.text[location[0] : location[1]]
        body = (self.newline + indent).join(line + suffix for line in lines)
        return TextEdit("", self.source.range(op.span[0], end), body)

    def _indent(self, offset: int) -> str:
        prefix = self.text[line_start(self.text, offset) : offset]
        return prefix[: len(prefix) - len(prefix.lstrip())]

    def _fresh(self, base: str) -> str:
        name = self.fresh(base)
        self.taken.add(name)
        return name

    def _attrs(self, op: Operation, extra: list[str]) -> str:
        sym = self._sym_name(op)
        entries = [*extra, *([f"neuron.symName = {sym}"] if sym else [])]
        return " {" + ", ".join(entries) + "}" if entries else ""

    def _splat_lines(self, op: Operation) -> list[str]:
        result = op.results[0].name
        shaped = constant_type(op)
        assert shaped is not None
        scalar_type = f"tensor<{shaped.element_type}>"
        full_type = (
            result_types(op)[0].text if result_types(op) else f"tensor<{shaped.element_type}>"
        )
        value = splat_value(op)
        scalar = self._fresh(_derived_name(result, "scalar"))
        attrs = self._attrs(op, [])
        if op.is_generic:
            return [
                f'{scalar} = "stablehlo.constant"() <{{value = {value} : {scalar_type}}}> '
                f": () -> {scalar_type}",
                f'{result} = "stablehlo.broadcast_in_dim"({scalar}) '
                f"<{{broadcast_dimensions = array<i64>}}>{attrs} : ({scalar_type}) -> {full_type}",
            ]
        return [
            f"{scalar} = stablehlo.constant {value} : {scalar_type}",
            f"{result} = stablehlo.broadcast_in_dim {scalar}, dims = []{attrs} : "
            f"({scalar_type}) -> {full_type}",
        ]

    def _zero_sized_lines(self, op: Operation) -> list[str]:
        result = op.results[0].name
        type_text = result_types(op)[0].text
        shape = actual_shape(result_types(op)[0].shaped)
        return [self._custom_call(result, type_text, shape, self._sym_name(op))]

    def _custom_call(self, result: str, type_text: str, shape: str, sym_name: str | None) -> str:
        attrs = [f"neuron.actual_shape = {shape}"]
        if sym_name:
            attrs.append(f"neuron.symName = {sym_name}")
        attr_text = "{" + ", ".join(attrs) + "}"
        if self.generic:
            return (
                f'{result} = "stablehlo.custom_call"() <{{call_target_name = '
                f'"{ZERO_SIZED_TARGET}"}}> {attr_text} : () -> {type_text}'
            )
        call = f"stablehlo.custom_call @{ZERO_SIZED_TARGET}()"
        return f"{result} = {call} {attr_text} : () -> {type_text}"

    def _return_edits(self) -> list[TextEdit]:
        """Copies (and zero-sized custom calls) inserted before the return, operands replaced."""
        ret = self.analysis.ret
        assert ret is not None
        lines: list[str] = []
        edits: list[TextEdit] = []
        for output in self.analysis.outputs:
            type_text = output.type_text
            if type_text is None and isinstance(output.value, BlockArgument):
                type_text = output.value.type_text
            if type_text is None:
                continue
            shaped = output.shaped
            if output.case.apply == "zero-sized-call":
                name = self._fresh(f"%{_ssa_suffix(output.name)}_zero")
                sym_name = f"[{symbol_ref(output.name)}]"
                lines.append(self._custom_call(name, type_text, actual_shape(shaped), sym_name))
            elif output.case.apply == "copy" and output.copy_name is not None:
                name = output.copy_name
                self.taken.add(name)
                attrs = []
                source_op = output.value.op if isinstance(output.value, OpResult) else None
                if self.stablehlo and (
                    source_op is None or source_op.attribute("neuron.actual_shape") is None
                ):
                    attrs.append(f"neuron.actual_shape = {actual_shape(shaped)}")
                attrs.append(f"neuron.symName = [{symbol_ref(output.name)}]")
                lines.append(
                    copy_statement(
                        name,
                        output.use.name,
                        type_text,
                        self.generic,
                        " {" + ", ".join(attrs) + "}",
                    )
                )
            else:
                continue
            edits.append(TextEdit("", self.source.range(*output.use.span), name))
        if lines:
            indent = self._indent(ret.span[0])
            start = line_start(self.text, ret.span[0])
            if self.text[start : ret.span[0]].strip():
                insert = ret.span[0]
                new = "".join(line + self.newline + indent for line in lines)
            else:
                insert = start
                new = "".join(indent + line + self.newline for line in lines)
            edits.insert(0, TextEdit("", self.source.range(insert, insert), new))
        return edits


def _nested_in(op: Operation, ops: dict[int, Operation]) -> bool:
    """Is ``op`` inside a region of one of ``ops`` (by id)?"""
    parent = op.parent_op
    while parent is not None:
        if id(parent) in ops:
            return True
        parent = parent.parent_op
    return False


def _derived_name(result: str, suffix: str) -> str:
    """``%cst_scalar`` from ``%cst``; ``%scalar_2`` from ``%2`` (``%2_scalar`` is not an SSA
    name: a name starting with a digit is all digits)."""
    stem = result[1:]
    return f"%{suffix}_{stem}" if stem[:1].isdigit() else f"%{stem}_{suffix}"


def _ssa_suffix(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_$.\-]", "_", name) or "output"
    return "output_" + cleaned if cleaned[0].isdigit() else cleaned


def _zero(op: Operation) -> bool:
    types = result_types(op)
    shaped = types[0].shaped if types else None
    return shaped is not None and shaped.num_elements == 0


def _existing_names(op: Operation) -> list[str] | None:
    attr = op.attribute("neuron.symName")
    if attr is None or attr.value is None:
        return None
    text = attr.value.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    return [item.strip()[1:] for item in text[1:-1].split(",") if item.strip().startswith("@")]
