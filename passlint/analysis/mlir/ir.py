"""The MLIR IR: operations, values, blocks and regions, each with its source span.

Spans are ``(start, end)`` character offsets into the whole file (also for `// -----`
chunks). Operations read their statement's tokens (cut again from the text when first asked
for) so the known ops the passes need (`func.func`, constants, fusions, composites, copies,
returns) are read structurally on demand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from passlint.analysis import codes
from passlint.analysis.mlir.lexer import Tok, statement_tokens
from passlint.analysis.mlir.op_table import MODULE_OPS
from passlint.analysis.mlir.template import Template
from passlint.analysis.mlir.types import (
    NO_ALIASES,
    ShapedType,
    bounded,
    resolve_alias,
    shaped_type_in,
)

Span = tuple[int, int]

# After an op's results (or at its start): its name, quoted in the generic form
# (`= "dialect.op"`) or bare (`= dialect.op`).
_GENERIC_NAME = re.compile(
    r'(?:\s*:\s*\d+)?(?:\s*,\s*%[^=]*)?\s*=?\s*"([^"\\\n]*+(?:\\.[^"\\\n]*+)*+)"'
)
_CUSTOM_NAME = re.compile(r"(?:\s*:\s*\d+)?(?:\s*,\s*%[^=]*)?\s*=?\s*([A-Za-z_][\w$.]*)")


def match_name(text: str, at: int, generic: bool) -> re.Match[str] | None:
    """An op's name read from the text after its results (``at``: their end, or the op's
    start): group 1 is the name, unquoted in the generic form."""
    return (_GENERIC_NAME if generic else _CUSTOM_NAME).match(text, at)


# The symbol an op defines right after its name and visibility: the first of its symbols.
_DEFINED_SYMBOL = re.compile(
    r'[ \t]+(?:(private|public|nested)[ \t]+)?@([A-Za-z_$.\-][\w$.\-]*|"[^"\\\n]*")'
)


@dataclass(eq=False, slots=True)
class Value:
    """An SSA value: an operation result or a block argument, defined where its name (the
    group's, ``%0`` for ``%0#1``) is written at ``start``.

    Values and uses keep one offset, not a span: a 50,000-op module has ~150,000 of them."""

    name: str
    start: int
    index: int
    uses: list[Use] = field(default_factory=list)

    @property
    def group_name(self) -> str:
        """The name a use spells without ``#n`` (``%0`` for ``%0#1``)."""
        return self.name.split("#", 1)[0]

    @property
    def span(self) -> Span:
        """Where the (group) name is written."""
        name = self.name
        hash_at = name.find("#")
        return self.start, self.start + (len(name) if hash_at < 0 else hash_at)


@dataclass(eq=False, slots=True)
class OpResult(Value):
    op: Operation | None = None


@dataclass(eq=False, slots=True)
class BlockArgument(Value):
    """A block argument; ``owner`` is the op whose header or region block defines it."""

    owner: Operation | None = None
    type_span: Span | None = None
    type_text: str | None = None

    @property
    def shaped_type(self) -> ShapedType | None:
        """The argument's type, its aliases resolved."""
        if not self.type_text:
            return None
        owner = self.owner
        return shaped_type_in(self.type_text, NO_ALIASES if owner is None else owner.alias_values)


@dataclass(eq=False, slots=True)
class Use:
    """A use of a value, written as ``name`` at ``start``."""

    name: str
    start: int
    user: Operation
    operand_index: int
    value: Value | None = None

    @property
    def span(self) -> Span:
        return self.start, self.start + len(self.name)


@dataclass(eq=False, slots=True)
class Block:
    label: str | None
    label_span: Span | None
    arguments: list[BlockArgument] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    # The chunk's alias definitions, resolved (``Chunk.alias_values``): what the types and
    # attributes written in the block's ops stand for.
    alias_values: Mapping[str, str] = field(default_factory=lambda: NO_ALIASES)


@dataclass(eq=False, slots=True)
class Region:
    span: Span
    parent: Operation
    blocks: list[Block] = field(default_factory=list)

    @property
    def operations(self) -> list[Operation]:
        return [op for block in self.blocks for op in block.operations]


@dataclass(frozen=True)
class Attribute:
    """``key = value`` in an attribute dictionary or properties (``value`` None: unit)."""

    key: str
    key_span: Span
    value: str | None
    value_span: Span | None
    group: str  # "dict" or "properties"


@dataclass(frozen=True)
class TypeRef:
    """A type as written, and the type aliases in scope where it is written."""

    span: Span
    text: str
    aliases: Mapping[str, str] = field(
        default_factory=lambda: NO_ALIASES, compare=False, repr=False
    )

    @property
    def shaped(self) -> ShapedType | None:
        return shaped_type_in(self.text, self.aliases)


def new_operation(
    name: str,
    span: Span,
    text: str,
    tokens: list[Tok] | None,
    template: Template,
    results: Iterable[tuple[str, int]],
    uses: Iterable[tuple[str, int]],
) -> Operation:
    """The one way the front end builds an op: its results and uses (each a name and the
    offset it is written at) numbered in order; its regions and header arguments are set
    by the caller."""
    op = Operation(name, span, text, tokens, template)
    op.results = [OpResult(n, at, index, op=op) for index, (n, at) in enumerate(results)]
    op.operands = [Use(n, at, op, index) for index, (n, at) in enumerate(uses)]
    return op


def group_names(base: str, count: int) -> list[str]:
    """The names of a result group ``%base:count``: ``%base`` alone for one result."""
    return [base] if count == 1 else [f"{base}#{k}" for k in range(count)]


def group_size(digits: str) -> int:
    """A result group's size, bounded so a typo like `%0:99999999` cannot exhaust memory."""
    if not digits.isdigit():
        return 1
    size = bounded(digits, LARGEST_GROUP)
    return LARGEST_GROUP if size is None else max(1, size)


LARGEST_GROUP = 4096


@dataclass(eq=False, slots=True)
class Operation:
    """An operation; ``tokens`` may be None (a statement that holds no error and no block
    reference: most of them): they are cut from the text again, as the statement scanner
    cut them, the first time something asks for them. Few are asked for, and tokens are
    most of an IR's memory otherwise."""

    name: str
    span: Span
    text: str = field(repr=False)
    tokens: list[Tok] | None = field(repr=False)
    template: Template = field(repr=False)
    results: list[OpResult] = field(default_factory=list)
    operands: list[Use] = field(default_factory=list)
    # Most ops have neither: an empty tuple each, not two empty lists per op.
    regions: Sequence[Region] = ()
    header_arguments: Sequence[BlockArgument] = ()
    parent: Block | None = field(default=None, repr=False)
    parent_op: Operation | None = field(default=None, repr=False)

    # -- token access ----------------------------------------------------------------------
    @property
    def toks(self) -> list[Tok]:
        if self.tokens is None:
            regions = (region.span for region in self.regions)
            self.tokens = statement_tokens(self.text, self.span[0], self.span[1], regions)
        return self.tokens

    def tok_text(self, index: int) -> str:
        tok = self.toks[index]
        return self.text[tok.start : tok.end]

    def tok_span(self, first: int, last: int | None = None) -> Span:
        return self.toks[first].start, self.toks[first if last is None else last].end

    def span_text(self, first: int, last: int) -> str:
        return self.text[self.toks[first].start : self.toks[last].end]

    # -- structure -------------------------------------------------------------------------
    @property
    def name_span(self) -> Span:
        if self.tokens is None:  # read from the text when it is plain, without the tokens
            at = self.results[-1].span[1] if self.results else self.span[0]
            generic = self.template.generic
            found = match_name(self.text, at, generic)
            if found is not None and found.group(1) == self.name:
                return (found.start(1) - 1, found.end(1) + 1) if generic else found.span(1)
        return self.tok_span(self.template.name)

    @property
    def is_generic(self) -> bool:
        return self.template.generic

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    @property
    def header_span(self) -> Span:
        """From the start of the statement to the end of its last non-region token."""
        return self.span[0], self.toks[-1].end

    @property
    def location_span(self) -> Span | None:
        loc = self.template.location
        return None if loc is None else self.tok_span(*loc)

    @property
    def attributes(self) -> list[Attribute]:
        """The op's attributes; a value that is an alias (``#names``) reads as what it
        stands for (its span stays the alias's)."""
        groups = self.template.groups
        aliases = self.alias_values
        out = []
        for entry in self.template.entries:
            key = self.tok_text(entry.key)
            if key.startswith('"'):
                key = key[1:-1]
            value_span = None if entry.value is None else self.tok_span(*entry.value)
            value = None if value_span is None else self.text[value_span[0] : value_span[1]]
            if value is not None and aliases:
                value = resolve_alias(value, aliases)
            out.append(
                Attribute(key, self.tok_span(entry.key), value, value_span, groups[entry.group][0])
            )
        return out

    def attribute(self, key: str) -> Attribute | None:
        for attr in self.attributes:
            if attr.key == key:
                return attr
        return None

    def attribute_group_spans(self, kind: str = "dict") -> list[Span]:
        return [
            self.tok_span(*span) for group_kind, span in self.template.groups if group_kind == kind
        ]

    @property
    def symbols(self) -> list[str]:
        """Top-level ``@symbol`` references, in order (a func's own name comes first)."""
        return [self.tok_text(i)[1:] for i in self.template.symbols]

    @property
    def words(self) -> list[str]:
        return [self.tok_text(i) for i in self.template.words]

    @property
    def alias_values(self) -> Mapping[str, str]:
        """The type aliases the op's types may name (its chunk's)."""
        return NO_ALIASES if self.parent is None else self.parent.alias_values

    def shaped_type(self, text: str) -> ShapedType | None:
        """A shaped type written in this op (``text``), its aliases resolved."""
        return shaped_type_in(text, self.alias_values)

    @property
    def types(self) -> list[TypeRef]:
        aliases = self.alias_values
        return [
            TypeRef(self.tok_span(a, b), self.span_text(a, b), aliases)
            for a, b in self.template.types
        ]

    def signature_types(self) -> tuple[list[TypeRef], list[TypeRef]]:
        """Types after the top-level ``:``: (before ``->``, after ``->``), parens removed.

        ``return %a, %b : T1, T2`` gives ([T1, T2], []); ``"op"(%a) : (T) -> U`` gives
        ([T], [U]); ``stablehlo.add %a, %b : T`` gives ([T], []).
        """
        colon = self.template.colon
        if colon < 0:
            return [], []
        arrow = self.template.arrow if self.template.arrow > colon else -1
        before: list[TypeRef] = []
        after: list[TypeRef] = []
        aliases = self.alias_values
        for a, b in self.template.types:
            if a <= colon or _inside_location(self.template.location, a):
                continue
            ref = TypeRef(self.tok_span(a, b), self.span_text(a, b), aliases)
            if arrow >= 0 and a > arrow:
                after.append(ref)
            else:
                before.append(ref)
        return _outermost(before), _outermost(after)

    def walk(self) -> list[Operation]:
        """This op and every op nested in its regions, in textual order (iterative)."""
        out: list[Operation] = []
        stack: list[Operation] = [self]
        while stack:
            op = stack.pop()
            out.append(op)
            nested = [inner for region in op.regions for inner in region.operations]
            stack.extend(reversed(nested))
        return out


def _inside_location(location: tuple[int, int] | None, index: int) -> bool:
    return location is not None and location[0] <= index <= location[1]


def _outermost(types: list[TypeRef]) -> list[TypeRef]:
    """Drop types nested in an earlier one (``tensor<complex<f32>>`` has an inner type)."""
    out: list[TypeRef] = []
    for ref in types:
        if out and out[-1].span[0] <= ref.span[0] and ref.span[1] <= out[-1].span[1]:
            continue
        out.append(ref)
    return out


@dataclass(frozen=True)
class SyntaxIssue:
    """An error MLIR's parser reports: where, what, optionally a related place (the opener
    of a bracket, a first definition) and its code (E001 unless a more precise one fits)."""

    start: int
    end: int
    message: str
    related: Span | None = None
    code: str = codes.E001
    related_note: str = "opened here"


@dataclass(eq=False, slots=True)
class Chunk:
    """One `// -----` piece of a file (the whole file when it is not split)."""

    start: int
    end: int
    operations: list[Operation] = field(default_factory=list)
    errors: list[SyntaxIssue] = field(default_factory=list)
    aliases: dict[str, Span] = field(default_factory=dict)
    # `!name = type`, `#name = attr` (not locations): what each alias stands for, itself
    # resolved (`!b = !a`).
    alias_values: dict[str, str] = field(default_factory=dict)

    def top_level_operations(self) -> list[Operation]:
        """Ops at the top level or directly inside a top-level ``module``."""
        out: list[Operation] = []
        for op in self.operations:
            if op.name in MODULE_OPS and op.regions:
                out.extend(op.regions[0].operations)
            else:
                out.append(op)
        return out

    def functions(self) -> dict[str, Operation]:
        found: dict[str, Operation] = {}
        for op in self.top_level_operations():
            if op.name == "func.func":
                name = function_name(op)
                if name is not None and name not in found:
                    found[name] = op
        return found


@dataclass(eq=False, slots=True)
class ParsedFile:
    text: str
    chunks: list[Chunk]

    @property
    def errors(self) -> list[SyntaxIssue]:
        return [error for chunk in self.chunks for error in chunk.errors]

    def release(self) -> None:
        """Break the IR's reference cycles, when it is garbage and will not be read again.

        Ops, their results, uses, regions and block arguments point at each other, so only
        the collector could free them, after traversing every object once more (a sixth of a
        batch check of the upstream StableHLO tests). Cleared, they are freed at once by
        reference counting: an op no longer holds its results, uses, arguments, regions or
        parents, and a use no longer its value (the one edge left between values and uses)."""
        stack = [op for chunk in self.chunks for op in chunk.operations]
        while stack:
            op = stack.pop()
            for use in op.operands:
                use.value = None
            for region in op.regions:
                for block in region.blocks:
                    stack += block.operations
            op.results, op.operands, op.header_arguments = [], [], ()
            op.regions, op.parent, op.parent_op = (), None, None


def function_name(op: Operation) -> str | None:
    """The symbol of a ``func.func`` (pretty ``@name`` or generic ``sym_name = "name"``)."""
    if op.is_generic:
        attr = op.attribute("sym_name")
        return attr.value.strip('"') if attr and attr.value else None
    template = op.template
    first = template.symbols[0] if template.symbols and not template.recovered else -1
    if op.tokens is None and template.name == 0 and first in (1, 2):
        # ``func.func [visibility] @name``, read from the text: a file's every function is
        # named this way, and its tokens are not cut for that.
        found = _DEFINED_SYMBOL.match(op.text, op.span[0] + len(op.name))
        if found is not None and (found.group(1) is not None) == (first == 2):
            name = found.group(2)
            return name[1:-1] if name.startswith('"') else name
    symbols = op.symbols
    if not symbols:
        return None
    name = symbols[0]
    return name[1:-1] if name.startswith('"') else name
