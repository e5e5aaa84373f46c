"""MLIR text to IR: `// -----` chunks, statements, templates, def-use and E001 issues.

Never raises on any input: every problem becomes a ``SyntaxIssue`` and parsing resumes at the
next statement, so one file reports all its errors and a broken statement still defines its
results and records its uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passlint.analysis.collector import collector_paused
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.ir import (
    Block,
    BlockArgument,
    Chunk,
    Operation,
    ParsedFile,
    Region,
    SyntaxIssue,
    Value,
    group_names,
    group_size,
    new_operation,
)
from passlint.analysis.mlir.lexer import KIND, Tok, tokenize
from passlint.analysis.mlir.op_table import ISOLATED_OPS
from passlint.analysis.mlir.statements import (
    StatementError,
    Template,
    parse_statement,
)
from passlint.analysis.mlir.structure import (
    LineStatement,
    MemoStatement,
    RegionSyntax,
    Statement,
    StatementSyntax,
    scan,
)
from passlint.analysis.mlir.syntax_rules import EMPTY_BODY_ADVICE
from passlint.analysis.mlir.types import resolve_alias
from passlint.analysis.mlir.validate import validate_chunk
from passlint.analysis.source import line_end, line_start

if TYPE_CHECKING:
    from passlint.analysis.mlir.fast.statement_memo import Entry
    from passlint.analysis.mlir.memo import MlirMemo

_MARKER = "// -----"
_BAD_KINDS = frozenset(("ERROR", "BAD_STRING"))  # characters no token starts with

_DESCRIPTIONS = {
    "VALUE_ID": "an SSA value",
    "CARET_ID": "a block label",
    "SYMBOL": "a symbol (@name)",
    "HASH_ID": "an attribute alias (#name)",
    "BANG_ID": "a type alias (!name)",
    "STRING": "a string",
    "HEX": "a hex number",
    "FLOAT": "a number",
    "INT": "an integer",
    "BARE_ID": "an identifier",
    "DIMS": "a dimension list",
    "ELEMENTS": "a list of elements",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LANGLE": "'<'",
    "RANGLE": "'>'",
    "EQUAL": "'='",
    "COMMA": "','",
    "COLON": "':'",
    "ARROW": "'->'",
    "PUNCT": "punctuation",
    "REGION": "a region",
    "LOC": "'loc'",
    "RESOURCE_OPEN": "'{-#'",
    "RESOURCE_CLOSE": "'#-}'",
    "$END": "the end of the statement",
    "OPERATION": "an operation name",
}


# Messages that say what they found already (a name, an empty body): no ", not ..."
# after them.
_SAYS_WHAT_IT_FOUND = ("is unknown", *EMPTY_BODY_ADVICE)
# What to do, after MLIR's own wording of a statement's error.
_ADVICE = {
    **EMPTY_BODY_ADVICE,
    "expected ','": "separate the operands with a comma",
    "expected SSA operand": "add the operand or remove the comma",
    "expected ')' to end operand list": "separate operands with commas",
    "expected ':' followed by operation type": "write the generic form's parts in order",
    "expected function type": "write the type as `(operand types) -> result types`",
    "expected '->' in function type": "write the type as `(operand types) -> result types`",
    "expected type": "write the result types after '->'",
    "expected operation name in quotes": "end the generic op after its type",
    "expected '{' to begin a region": "write a region `{...}` here",
    "expected '{' in properties": "write the properties as `<{...}>`",
    "expected SSA identifier": "name every argument (`%name: type`) or none",
    "expected type instead of SSA identifier": "name every argument (`%name: type`) or none",
}


_ADVICE_BY_WORD = (
    ("the operands or the type", "complete the operation"),
    ("is unknown", "spell the op as `dialect.op`"),
    ("number of operands and types", "give one type per operand"),
    ("location", 'write one location, as `loc("file.py":1:2)`'),
    ("FileLineColRange", 'write the location as `"file.py":1:2`'),
    ("attribute dictionary", "write `name = value` entries separated by commas"),
    ("attribute name", "write `name = value` entries separated by commas"),
    ("attribute value", "write a value after '='"),
    ("element literal", "write one number between commas"),
    ("type", "write a type here"),
    ("symbol name", "name the function, as `@name`"),
    ("SSA operand", "write `%name: type`"),
    ("expected ':'", "add ':' before the type"),
    ("expected ')'", "separate the entries with commas"),
    ("expected '<'", "write the literal as `word<...>`"),
)


def split_chunks(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each `// -----` chunk (one chunk when there is no marker).

    A marker is a line of `// -----` and blanks (spaces and tabs) alone; the literal is found
    by substring search, which is faster than a regular expression tried at every line."""
    bounds: list[tuple[int, int]] = []
    start = at = 0
    while (found := text.find(_MARKER, at)) >= 0:
        begin, end = line_start(text, found), line_end(text, found)
        at = max(end, found + 1)
        blank_before = not text[begin:found].strip(" \t")
        if blank_before and not text[found + len(_MARKER) : end].strip(" \t"):
            bounds.append((start, begin))
            start = end
    bounds.append((start, len(text)))
    return bounds


def parse_file(text: str, memo: MlirMemo | None = None) -> ParsedFile:
    """Parse a whole .mlir file into its chunks.

    Without ``memo`` every statement is tokenized, parsed and built afresh (the reference
    pipeline); with one, one-line statements become IR from their line shapes and what the
    memo keeps is reused (the fast paths): both give the same IR.
    """
    with collector_paused():
        chunks = [parse_chunk(text, start, end, memo) for start, end in split_chunks(text)]
    return ParsedFile(text, chunks)


def parse_chunk(
    text: str,
    start: int = 0,
    end: int | None = None,
    memo: MlirMemo | None = None,
    whole: bool = True,
) -> Chunk:
    """One chunk's IR and errors (``memo``: as for ``parse_file``). ``whole``: the text is a
    whole chunk, so undefined values, aliases and blocks are errors (not for the pieces
    @main's outline parses alone)."""
    end = len(text) if end is None else end
    if memo is not None and (lines := memo.line_table(text, start, end)).ok:
        statements, structure_errors = memo.scan_lines(text, lines)
    else:  # (without the line table, or when its lines do not add up: cut every token)
        statements, structure_errors = scan(text, tokenize(text, start, end), end=end)
    chunk = Chunk(start, end)
    chunk.errors.extend(structure_errors)
    builder = _Builder(text, chunk, memo)
    block = Block(None, None)
    builder.fill_block_list([block], statements, parent_op=None)
    del statements  # (its syntax is garbage now: not kept alive beside the IR below)
    chunk.operations = block.operations
    if chunk.alias_values:
        _share_alias_values(block, chunk.alias_values)
    resolve_uses(chunk.operations, {})
    if whole:
        chunk.errors.extend(validate_chunk(text, chunk, builder.relocated, memo))
    chunk.errors.sort(key=lambda issue: (issue.start, issue.end))
    return chunk


def _share_alias_values(root: Block, aliases: dict[str, str]) -> None:
    """Give every block of a chunk its type aliases (a chunk that defines any: few do)."""
    stack = [root]
    while stack:
        block = stack.pop()
        block.alias_values = aliases
        stack.extend(b for op in block.operations for region in op.regions for b in region.blocks)


class _Builder:
    def __init__(self, text: str, chunk: Chunk, memo: MlirMemo | None) -> None:
        self.text = text
        self.chunk = chunk
        self.memo = memo
        # One string per op name and value name of the chunk, shared by its ops, results and
        # uses (a 7.7 MB module has 50,000 ops and 150,000 values).
        self._strings: dict[str, str] = {}
        self.relocated: dict[int, Entry] = {}  # id of an op relocated from its kept copy

    def _shared(self, name: str) -> str:
        """The chunk's one string equal to ``name``."""
        return self._strings.setdefault(name, name)

    def fill_block_list(
        self,
        blocks: list[Block],
        statements: list[Statement],
        parent_op: Operation | None,
    ) -> None:
        """Append statements' ops to ``blocks[-1]``, opening a new block at each label.

        Consumes ``statements``: each one's syntax is freed once its op is built, so the
        syntax of a large region does not stay beside its IR (a tenth of the peak)."""
        statements.reverse()
        while statements:
            item = statements.pop()
            if isinstance(item, LineStatement):
                assert self.memo is not None  # (only the line table makes them)
                op = self.memo.line_operation(self.text, item, self._shared)
                if op is not None:
                    op.parent = blocks[-1]
                    op.parent_op = parent_op
                    blocks[-1].operations.append(op)
                    continue
                statement = StatementSyntax(self._line_tokens(item), [])
            elif isinstance(item, MemoStatement):
                assert self.memo is not None  # (only the memo keeps them)
                op = self.memo.relocated(item, self.text)
                self.relocated[id(op)] = item.entry
                op.parent = blocks[-1]
                op.parent_op = parent_op
                blocks[-1].operations.append(op)
                continue
            else:
                statement = item
            errors, aliases = len(self.chunk.errors), len(self.chunk.aliases)
            template = self._template(statement)
            if template.kind == "label" and parent_op is None:
                label = statement.toks[0]
                self.chunk.errors.append(
                    SyntaxIssue(
                        label.start,
                        label.end,
                        f"Unexpected block label {excerpt(self._tok(label))!r}; expected an "
                        "operation. Labels belong inside a region.",
                    )
                )
            elif template.kind == "label":
                label = statement.toks[0]
                block = Block(self._tok(label), (label.start, label.end))
                block.arguments = [
                    self._argument(statement.toks, argument.value, index, argument.type, parent_op)
                    for index, argument in enumerate(template.arguments)
                ]
                if blocks[-1].operations or blocks[-1].label is not None:
                    blocks.append(block)
                else:
                    blocks[-1] = block
            elif template.kind == "alias":
                self._alias(statement.toks)
            elif template.kind == "op":
                op = self._operation(statement, template)
                op.parent = blocks[-1]
                op.parent_op = parent_op
                blocks[-1].operations.append(op)
                quiet = errors == len(self.chunk.errors) and aliases == len(self.chunk.aliases)
                if statement.memo_key and quiet and self.memo is not None:
                    self.memo.keep(statement.memo_key, op, statement.start)

    def _alias(self, toks: list[Tok]) -> None:
        """Record an alias definition (``#name = attr``, ``!name = type``) and what it
        stands for, its own aliases resolved (they are defined before it). Locations are
        left out: the passes never read them, and a JAX export defines thousands."""
        alias = toks[0]
        name = self._tok(alias)
        self.chunk.aliases.setdefault(name, (alias.start, alias.end))
        values = self.chunk.alias_values
        if name in values or len(toks) < 3 or self.text.startswith("loc(", toks[2].start):
            return
        values[name] = resolve_alias(self.text[toks[2].start : toks[-1].end], values)

    def _tok(self, tok: Tok) -> str:
        return self.text[tok.start : tok.end]

    def _line_tokens(self, line: LineStatement) -> list[Tok]:
        return tokenize(self.text, line.start, line.end)

    def _template(self, statement: StatementSyntax) -> Template:
        toks = statement.toks
        if not _BAD_KINDS.isdisjoint(map(KIND, toks)):
            index = next(i for i, tok in enumerate(toks) if tok.kind in _BAD_KINDS)
            tok = toks[index]
            message = (
                "Unterminated string: expected '\"' before the end of the line; close it."
                if tok.kind == "BAD_STRING"
                else _unexpected(self._tok(tok))
            )
            self.chunk.errors.append(SyntaxIssue(tok.start, tok.end, message))
            return _fallback(self.text, toks[:index])
        if statement.broken:
            return _fallback(self.text, toks)
        if self.memo is None:
            found = parse_statement(self.text, toks)
        else:
            found = self.memo.parse_statement(self.text, toks, _pieces(self.text, statement))
        if isinstance(found, StatementError):
            self.chunk.errors.append(self._issue(toks, found))
            return _fallback(self.text, toks)
        return found

    def _issue(self, toks: list[Tok], error: StatementError) -> SyntaxIssue:
        if error.index >= len(toks):
            start = stop = toks[-1].end
            what = "end of the statement"
        else:
            tok = toks[error.index]
            region = tok.kind == "REGION"
            start, stop = (tok.start, tok.start + 1) if region else (tok.start, tok.end)
            what = "a region" if region else repr(excerpt(self._tok(tok)))
        if error.message:
            advice = _ADVICE.get(error.message) or next(
                (text for key, text in _ADVICE_BY_WORD if key in error.message),
                "fix the statement here",
            )
            found = "the end of the statement" if error.index >= len(toks) else what
            wording = f"{error.message[0].upper()}{error.message[1:]}"
            if not any(word in error.message for word in _SAYS_WHAT_IT_FOUND):
                wording += f", not {found}"
            message = f"{wording}; {advice}."
            return SyntaxIssue(start, stop, message, code=error.code)
        names = set(error.expected) - {"LOC"}
        if names == {"BARE_ID", "STRING"}:
            names = {"OPERATION"}
        expected = [_DESCRIPTIONS.get(name, name) for name in sorted(names, key=_rank)]
        shown = ", ".join(expected[:8]) + (", ..." if len(expected) > 8 else "")
        if len(expected) > 1 and len(expected) <= 8:
            shown = ", ".join(expected[:-1]) + " or " + expected[-1]
        return SyntaxIssue(start, stop, f"Unexpected {what}; expected {shown}.", code=error.code)

    def _operation(self, statement: StatementSyntax, template: Template) -> Operation:
        toks = statement.toks
        shared = self._shared
        name = self._tok(toks[template.name]) if template.name >= 0 else ""
        if template.generic or name.startswith('"'):
            name = name[1:-1]
        # Its tokens are cut again on demand, but where the scanner's differ from that cut
        # (a bracket it dropped) and where validation reads them (block references).
        names_blocks = any(
            "^" in piece for piece in _pieces(self.text, statement)
        ) and "CARET_ID" in map(KIND, toks)  # (a `^` in a string names none)
        kept = toks if statement.broken or names_blocks else None
        results: list[tuple[str, int]] = []
        for value_index, count_index in template.results:
            tok = toks[value_index]
            count = 1 if count_index < 0 else group_size(self._tok(toks[count_index]))
            results += [(name, tok.start) for name in group_names(shared(self._tok(tok)), count)]
        uses = [(shared(self._tok(toks[i])), toks[i].start) for i in template.operands]
        span = (statement.start, statement.end)
        op = new_operation(shared(name), span, self.text, kept, template, results, uses)
        arguments = [
            self._argument(toks, argument.value, n, argument.type, op)
            for n, argument in enumerate(template.arguments)
        ]
        arguments += [
            self._argument(toks, i, len(arguments) + n, None, op)
            for n, i in enumerate(template.bindings)
        ]
        if arguments:
            op.header_arguments = arguments
        if statement.regions:
            op.regions = [self._region(region, op) for region in statement.regions]
        return op

    def _argument(
        self,
        toks: list[Tok],
        value: int,
        index: int,
        type_span: tuple[int, int] | None,
        owner: Operation | None,
    ) -> BlockArgument:
        tok = toks[value]
        argument = BlockArgument(self._tok(tok), tok.start, index, owner=owner)
        if type_span is not None:
            start, end = toks[type_span[0]].start, toks[type_span[1]].end
            argument.type_span = (start, end)
            argument.type_text = self.text[start:end]
        return argument

    def _region(self, syntax: RegionSyntax, owner: Operation) -> Region:
        region = Region((syntax.start, syntax.end), owner)
        blocks = [Block(None, None)]
        self.fill_block_list(blocks, syntax.statements, owner)
        region.blocks = blocks
        return region


def _pieces(text: str, statement: StatementSyntax) -> tuple[str, ...]:
    """The statement's text between its regions (its own tokens' text: a ``^`` in it may
    name a block)."""
    at = statement.start
    pieces = []
    for region in statement.regions:
        pieces.append(text[at : region.start])
        at = region.end
    pieces.append(text[at : statement.end])
    return tuple(pieces)


def _unexpected(character: str) -> str:
    """The message for a character no token starts with."""
    if character == _BYTE_ORDER_MARK:
        return (
            "Unexpected byte order mark (U+FEFF); remove it. MLIR's parser reads it as a "
            "character no token starts with, at the start of a file too."
        )
    return f"Unexpected character {character!r}; remove it."


_BYTE_ORDER_MARK = "\ufeff"


def _rank(name: str) -> tuple[int, str]:
    """Order expected terminals: closing brackets and separators first, then the rest."""
    first = ("RPAR", "RSQB", "RANGLE", "RBRACE", "COLON", "EQUAL", "COMMA", "ARROW")
    return (first.index(name), "") if name in first else (len(first), name)


def _fallback(text: str, toks: list[Tok]) -> Template:
    """A template for a statement that does not parse: results before `=`, every other
    `%` token a use, the first word or string after `=` the op name."""
    results: list[tuple[int, int]] = []
    index = 0
    while index < len(toks) and toks[index].kind in ("VALUE_ID", "COMMA", "COLON", "INT"):
        if toks[index].kind == "VALUE_ID":
            results.append((index, -1))
        index += 1
    if not (index < len(toks) and toks[index].kind == "EQUAL"):
        results, index = [], 0
    else:
        index += 1
    if toks and toks[0].kind == "RESOURCE_OPEN":
        return Template("resources")
    if toks and toks[0].kind == "CARET_ID":
        return Template("label", name=0)  # a broken label still starts its block
    name = next((i for i in range(index, len(toks)) if toks[i].kind in ("BARE_ID", "STRING")), -1)
    if name < 0:
        return Template("invalid")
    uses = tuple(i for i in range(index, len(toks)) if toks[i].kind == "VALUE_ID")
    regions = tuple(i for i, tok in enumerate(toks) if tok.kind == "REGION")
    return Template(
        "op",
        results=tuple(results),
        name=name,
        generic=toks[name].kind == "STRING",
        operands=uses,
        regions=regions,
        recovered=True,
    )


def resolve_uses(operations: list[Operation], outer: dict[str, Value]) -> None:
    """Link every use to its definition: one scope per region, nested scopes see outer
    values, isolated ops (func.func, module) start afresh; sibling regions reuse names.

    A region's own definitions shadow the outer ones of the same name (an outer value
    defined after the region, as MLIR allows); within one region the first definition wins.
    """
    _resolve(operations, [outer] if outer else [])


def _resolve(operations: list[Operation], outer: list[dict[str, Value]]) -> None:
    """``resolve_uses`` with the enclosing scopes as a chain, innermost last (a region
    nested in a 50,000-op body reads that body's names without copying them)."""
    own: dict[str, Value] = {}
    for op in operations:
        for result in op.results:
            own.setdefault(result.name, result)
            if result.name.endswith("#0"):
                own.setdefault(result.group_name, result)
    chain = [*outer, own]
    for op in operations:
        for use in op.operands:
            value = _lookup(chain, use.name)
            if value is None and use.name.endswith("#0"):
                value = _lookup(chain, use.name[:-2])  # `%0#0` of a single-result op
            if value is not None:
                use.value = value
                value.uses.append(use)
        if not op.regions:
            continue
        inner = [] if op.name in ISOLATED_OPS else chain
        if op.header_arguments:
            inner = [*inner, {argument.name: argument for argument in op.header_arguments}]
        for region in op.regions:
            block_args = [arg for block in region.blocks for arg in block.arguments]
            region_chain = inner
            if block_args:
                region_chain = [*inner, {argument.name: argument for argument in block_args}]
            _resolve(region.operations, region_chain)


def _lookup(chain: list[dict[str, Value]], name: str) -> Value | None:
    for scope in reversed(chain):
        value = scope.get(name)
        if value is not None:
            return value
    return None
