"""Where apply mode writes an attribute into an op's text, in a form MLIR parses for that op.

An op in generic form takes it in its attribute dictionary. An op in a custom form takes it
where that form's ``attr-dict`` is, for the forms passlint knows (``ATTR_DICT_PLACES``);
any other op in a custom form is printed again in generic form when its text says everything
the generic form needs (operands, one attribute dictionary, a functional type), since the
place of the dictionary in an unknown custom syntax cannot be known.
"""

from __future__ import annotations

from typing import Literal

from passlint.analysis.mlir.ir import Operation

Place = Literal["before-colon", "after-name", "attributes-keyword"]

# Custom forms (StableHLO, MHLO, CHLO, func) whose optional attribute dictionary comes right
# before the signature's `:` (`%0 = stablehlo.add %a, %b {k = v} : T`).
_BEFORE_COLON_NAMES = [
    "abs",
    "add",
    "after_all",
    "and",
    "atan2",
    "bitcast_convert",
    "broadcast",
    "broadcast_in_dim",
    "cbrt",
    "ceil",
    "clamp",
    "compare",
    "complex",
    "composite",
    "concatenate",
    "convert",
    "cosine",
    "count_leading_zeros",
    "custom_call",
    "divide",
    "dot",
    "dot_general",
    "dynamic_broadcast_in_dim",
    "dynamic_iota",
    "dynamic_reshape",
    "dynamic_slice",
    "dynamic_update_slice",
    "exponential",
    "exponential_minus_one",
    "floor",
    "get_dimension_size",
    "get_tuple_element",
    "imag",
    "iota",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "pad",
    "popcnt",
    "power",
    "real",
    "reduce_precision",
    "remainder",
    "reshape",
    "reverse",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "select",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "sine",
    "slice",
    "sqrt",
    "subtract",
    "tan",
    "tanh",
    "transpose",
    "tuple",
    "xor",
    "copy",
]
_BEFORE_COLON = frozenset(
    [f"{dialect}.{name}" for dialect in ("stablehlo", "mhlo") for name in _BEFORE_COLON_NAMES]
    + ["func.call", "call", "chlo.top_k"]
    # checked with jaxlib: the compact and the region form of reduce, and convolution (its
    # `window = {...}` is not the attribute dictionary)
    + ["stablehlo.reduce", "stablehlo.convolution"]
)
ATTR_DICT_PLACES: dict[str, Place] = {
    **dict.fromkeys(_BEFORE_COLON, "before-colon"),
    # `attr-dict` first: `stablehlo.optimization_barrier {k = v} %a : T`
    "stablehlo.optimization_barrier": "after-name",
    "mhlo.optimization_barrier": "after-name",
    "stablehlo.constant": "after-name",
    "mhlo.constant": "after-name",
    # `stablehlo.while(%x = %c) : T attributes {k = v} cond {...} do {...}`
    "stablehlo.while": "attributes-keyword",
    "mhlo.while": "attributes-keyword",
}

Edit = tuple[tuple[int, int], str]  # replace this range of the text with this text


def attach(op: Operation, entry: str) -> Edit | None:
    """The edit that adds ``entry`` (``key = value``) to ``op``'s attributes, or None when
    passlint cannot place it with certainty (a custom form it does not know, too rich to
    print generically)."""
    if op.is_generic:
        return _into_dict_before_colon(op, entry)
    place = ATTR_DICT_PLACES.get(op.name)
    if place == "before-colon":
        return _into_dict_before_colon(op, entry)
    if place == "after-name":
        return _after_name(op, entry)
    if place == "attributes-keyword":
        return _attributes_keyword(op, entry)
    return _as_generic(op, entry)


def attach_before_colon(op: Operation, entry: str) -> Edit:
    """Before the signature's `:` (or at the end of the op's header): the usual place of a
    custom form's attribute dictionary, for an op ``attach`` cannot place."""
    edit = _into_dict_before_colon(op, entry)
    if edit is not None:
        return edit
    end = op.header_span[1]
    return (end, end), f" {{{entry}}}"


def _dict_closing_at(op: Operation, index: int) -> tuple[int, int] | None:
    """The token span of the top-level dictionary whose ``}`` is token ``index``."""
    for kind, (first, last) in op.template.groups:
        if kind == "dict" and last == index:
            return first, last
    return None


def _into_dict_before_colon(op: Operation, entry: str) -> Edit | None:
    colon = op.template.colon
    if colon < 0:
        return None
    toks, text = op.toks, op.text
    # The dictionary of a generic op, and of these custom forms, ends right before the `:`.
    found = _dict_closing_at(op, colon - 1)
    if found is not None:
        return _append(op, found, entry)
    at = toks[colon].start
    while at > 0 and text[at - 1] in " \t":
        at -= 1
    return (at, at), f" {{{entry}}}"


def _append(op: Operation, group: tuple[int, int], entry: str) -> Edit:
    first, last = group
    open_end, close = op.toks[first].end, op.toks[last].start
    inner = op.text[open_end:close].strip()
    return (close, close), (", " if inner else "") + entry


def _after_name(op: Operation, entry: str) -> Edit:
    name = op.template.name
    found = next(
        ((a, b) for kind, (a, b) in op.template.groups if kind == "dict" and a == name + 1),
        None,
    )
    if found is not None:
        return _append(op, found, entry)
    end = op.toks[name].end
    return (end, end), f" {{{entry}}}"


def _attributes_keyword(op: Operation, entry: str) -> Edit | None:
    for word in op.template.words:
        if op.tok_text(word) == "attributes":
            found = next(
                ((a, b) for kind, (a, b) in op.template.groups if kind == "dict" and a == word + 1),
                None,
            )
            return None if found is None else _append(op, found, entry)
    colon = op.template.colon
    types = [span for span in op.template.types if span[0] > colon]
    if colon < 0 or not types:
        return None
    end = op.toks[max(last for _, last in types)].end
    return (end, end), f" attributes {{{entry}}}"


def _as_generic(op: Operation, entry: str) -> Edit | None:
    """``op`` printed again in generic form with ``entry``, when its custom form holds only
    operands (and commas), at most one attribute dictionary right before the `:`, and a
    functional type with one type per operand: what the generic form needs, nothing to
    guess."""
    template = op.template
    if op.regions or op.header_arguments or template.colon < 0 or template.arrow < 0:
        return None
    colon = template.colon
    dictionary = _dict_closing_at(op, colon - 1)
    operands = set(template.operands)
    last_operand_part = dictionary[0] if dictionary is not None else colon
    for index in range(template.name + 1, last_operand_part):
        if index not in operands and op.tok_text(index) != ",":
            return None
    before, after = op.signature_types()
    if len(before) != len(op.operands) or not after:
        return None
    entries = [entry]
    if dictionary is not None:
        inner = op.span_text(dictionary[0], dictionary[1])[1:-1].strip()
        entries = [inner, entry] if inner else [entry]
    results = op.text[op.span[0] : op.toks[template.name].start]
    operand_text = ", ".join(use.name for use in op.operands)
    inputs = ", ".join(ref.text for ref in before)
    outputs = after[0].text if len(after) == 1 else "(" + ", ".join(r.text for r in after) + ")"
    generic = (
        f'{results}"{op.name}"({operand_text}) {{{", ".join(entries)}}} : ({inputs}) -> {outputs}'
    )
    end = op.toks[template.location[0]].start if template.location else op.header_span[1]
    while end > op.span[0] and op.text[end - 1] in " \t":
        end -= 1
    return (op.span[0], end), generic
