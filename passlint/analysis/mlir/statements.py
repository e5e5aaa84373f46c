"""Parsing one statement with the lark LALR grammar.

The grammar only sees terminal kinds, so every statement with the same kind sequence has the
same parse (what ``fast.templates`` remembers). A parse is reduced to a ``Template``: which
token positions hold results, the op name, operand uses, block-argument definitions,
regions, attribute groups, types and the location. Instantiating a template with a
statement's own tokens is cheap; a model dump with 50,000 statements has a few hundred
distinct kind sequences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lark import Token, Tree

from passlint.analysis import codes
from passlint.analysis.mlir.grammar import grammar, lark_parser
from passlint.analysis.mlir.lalr import LalrRunner, Rejected, grammar_digest
from passlint.analysis.mlir.lexer import KIND, Tok
from passlint.analysis.mlir.program_constant import program_constant
from passlint.analysis.mlir.repetition import compress
from passlint.analysis.mlir.syntax_rules import (
    SCALAR_TYPE,
    Checker,
    SyntaxProblem,
    check_statement,
)
from passlint.analysis.mlir.syntax_rules import first_index as _index
from passlint.analysis.mlir.syntax_rules import kind_of as _kind
from passlint.analysis.mlir.syntax_rules import last_index as _last_index
from passlint.analysis.mlir.template import Argument, Entry, StatementError, Template

__all__ = ["Argument", "Entry", "StatementError", "Template", "new_template", "parse_statement"]

TYPE_WORDS = frozenset(("tensor", "vector", "memref", "complex", "tuple"))

Span = tuple[int, int]  # inclusive token index range
END = 1 << 30  # an error's token index at the end of the statement


@program_constant
def _runner() -> LalrRunner:
    """The runner of the tables written in ``lalr_tables`` (lark's own, built afresh, when
    the grammar changed since they were written): the same for every input."""
    from passlint.analysis.mlir import lalr_tables

    if grammar_digest(grammar()) != lalr_tables.GRAMMAR_SHA256:
        return LalrRunner.of_lark(lark_parser())
    return LalrRunner(lalr_tables.START, lalr_tables.END, lalr_tables.STATES, lalr_tables.RULES)


def terminal_kinds(text: str, toks: list[Tok]) -> tuple[str, ...]:
    """The kinds the grammar sees: ``loc`` before ``(`` is the LOC keyword."""
    kinds = list(map(KIND, toks))
    for i in indices_of(kinds, "BARE_ID"):
        tok = toks[i]
        if (
            tok.end - tok.start == 3
            and text.startswith("loc", tok.start)
            and i + 1 < len(toks)
            and toks[i + 1].kind == "LPAR"
        ):
            kinds[i] = "LOC"
    return tuple(kinds)


def indices_of(kinds: list[str] | tuple[str, ...], kind: str) -> list[int]:
    """Where ``kind`` stands in ``kinds`` (found by C-speed searches: long statements hold
    few words among tens of thousands of tokens)."""
    found: list[int] = []
    at = -1
    try:
        while True:
            at = kinds.index(kind, at + 1)
            found.append(at)
    except ValueError:
        return found


def parse_statement(text: str, toks: list[Tok]) -> Template | StatementError:
    """The template of a statement, or the first error with the expected terminals."""
    return new_template(terminal_kinds(text, toks), text, toks)


ParseKinds = Callable[[tuple[str, ...]], "Tree[Token] | StatementError"]


def new_template(
    kinds: tuple[str, ...], text: str, toks: list[Tok], parse: ParseKinds | None = None
) -> Template | StatementError:
    """The template of the statement ``toks`` whose terminal kinds are ``kinds``; ``parse``
    turns kinds into a parse tree (``parse_kinds`` when not given)."""
    parse = parse or parse_kinds
    compression = compress(kinds)
    if compression is None:
        found = _template(kinds, text, toks, parse)
    else:
        short_toks = [toks[index] for index in compression.kept]
        found = compression.expand(_template(compression.kinds, text, short_toks, parse))
    if isinstance(found, Template) and found.kinds is not kinds:
        found = replace(found, kinds=kinds)  # (a template of the compressed kinds)
    return found


def _template(
    kinds: tuple[str, ...], text: str, toks: list[Tok], parse: ParseKinds
) -> Template | StatementError:
    tree = parse(kinds)
    if isinstance(tree, StatementError):
        return _operand_list_error(kinds, tree)
    return _Builder(kinds, text, toks).build(tree)


def _operand_list_error(kinds: tuple[str, ...], error: StatementError) -> StatementError:
    """MLIR's wording for a malformed operand list of a generic op (``"op"(%a %b)``)."""
    index = error.index
    if not _in_operand_list(kinds, index):
        return error
    if kinds[index - 1] == "COMMA":
        return StatementError(index, error.expected, "expected SSA operand", codes.E005)
    return StatementError(index, error.expected, "expected ')' to end operand list", codes.E005)


def _in_operand_list(kinds: tuple[str, ...], index: int) -> bool:
    """Is token ``index`` inside the operand list that follows a generic op's name?"""
    at = 0
    while at < len(kinds) and kinds[at] in ("VALUE_ID", "COLON", "INT", "COMMA"):
        at += 1
    if at < len(kinds) and kinds[at] == "EQUAL":
        at += 1
    if not (at + 1 < len(kinds) and kinds[at] == "STRING" and kinds[at + 1] == "LPAR"):
        return False
    end = min(index, len(kinds))
    return at + 1 < index and all(kind in ("VALUE_ID", "COMMA") for kind in kinds[at + 2 : end])


def parse_kinds(kinds: tuple[str, ...]) -> Tree[Token] | StatementError:
    """The parse tree of a statement's terminal kinds, or where it stops."""
    parsed = _runner().parse(kinds)
    if isinstance(parsed, Rejected):
        return StatementError(parsed.index, parsed.expected)
    return parsed


class _Builder:
    """Reduce a parse tree to a Template (token positions by role)."""

    def __init__(self, kinds: tuple[str, ...], text: str, toks: list[Tok]) -> None:
        self.kinds = kinds
        self.text = text
        self.toks = toks
        self.operands: list[int] = []
        self.arguments: list[Argument] = []
        self.bindings: list[int] = []
        self.regions: list[int] = []
        self.types: list[Span] = []
        self.list_no = 0

    def build(self, tree: Tree[Token]) -> Template | StatementError:
        problem = self._builtin_syntax(tree)
        if problem is not None:
            return problem
        rule = tree.data
        if rule == "block_label":
            if len(tree.children) > 2:
                self._arg_list(tree.children[1], defines=True)
            return Template(
                "label",
                name=0,
                arguments=tuple(self.arguments),
                types=tuple(self.types),
                kinds=self.kinds,
            )
        if rule == "alias_definition":
            return Template("alias", name=0, kinds=self.kinds)
        if rule == "resources":
            return Template("resources", kinds=self.kinds)
        results: list[tuple[int, int]] = []
        operation = tree.children[-1]
        assert isinstance(operation, Tree)
        if rule == "defining_statement":
            results_node = tree.children[0]
            assert isinstance(results_node, Tree)
            for result in results_node.children:
                if isinstance(result, Tree):
                    value = _index(result.children[0])
                    count = _index(result.children[2]) if len(result.children) == 3 else -1
                    results.append((value, count))
        generic = operation.data == "generic_operation"
        children = operation.children
        items = children[1:]
        if generic and (problem := _generic_form_error(children[2:])) is not None:
            return problem
        if generic:
            operand_list = children[1]
            assert isinstance(operand_list, Tree)
            for child in operand_list.children:
                if isinstance(child, Tree):
                    self.operands.append(_index(child))
            items = children[2:]
        groups: list[tuple[str, Span]] = []
        entries: list[Entry] = []
        colon = arrow = -1
        location: Span | None = None
        symbols: list[int] = []
        words: list[int] = []
        self._sequence(items, defines=True)
        previous: Tree[Token] | Token | None = None
        for child in items:
            after_equal = (
                isinstance(previous, Tree)
                and previous.data == "atom"
                and self.kinds[_index(previous)] == "EQUAL"
            )
            previous = child
            if isinstance(child, Token):
                continue
            if child.data == "dictionary" and after_equal:
                pass  # a custom group's value (`window = {...}`), not the attribute dictionary
            elif child.data == "dictionary":
                groups.append(("dict", (_index(child), _last_index(child))))
                entries.extend(self._entries(child, len(groups) - 1))
            elif child.data == "angle" and _is_properties(child):
                inner = child.children[1]
                assert isinstance(inner, Tree)
                groups.append(("properties", (_index(inner), _last_index(inner))))
                entries.extend(self._entries(inner, len(groups) - 1))
            elif child.data == "atom":
                index = _index(child)
                kind = self.kinds[index]
                if kind == "COLON" and colon < 0:
                    colon = index
                elif kind == "ARROW" and arrow < 0 and colon >= 0:
                    arrow = index
                elif kind == "SYMBOL":
                    symbols.append(index)
                elif kind == "BARE_ID":
                    words.append(index)
            elif child.data == "location":
                location = (_index(child), _last_index(child))
        return Template(
            "op",
            results=tuple(results),
            name=0 if not results else _index(operation),
            generic=generic,
            operands=tuple(self.operands),
            arguments=tuple(self.arguments),
            bindings=tuple(self.bindings),
            regions=tuple(self.regions),
            groups=tuple(groups),
            entries=tuple(entries),
            types=tuple(self.types),
            colon=colon,
            arrow=arrow,
            location=location,
            symbols=tuple(symbols),
            words=tuple(words),
            kinds=self.kinds,
        )

    def _builtin_syntax(self, tree: Tree[Token]) -> StatementError | None:
        """What MLIR's parser says of the builtin syntax in the statement (types, attribute
        dictionaries, locations, signatures), or None."""
        words = [""] * len(self.kinds)
        text, toks = self.text, self.toks
        for index in indices_of(self.kinds, "BARE_ID"):
            words[index] = text[toks[index].start : toks[index].end]
        checker = Checker(words)
        try:
            check_statement(checker, tree)
        except SyntaxProblem as problem:
            index = END if problem.index is None else problem.index
            return StatementError(index, (), problem.message, problem.code)
        return None

    # -- walking -------------------------------------------------------------------------
    def _sequence(self, items: list[Tree[Token] | Token], defines: bool) -> None:
        """Visit a sequence of items, recording uses, definitions, regions and types."""
        for i, child in enumerate(items):
            if isinstance(child, Token):
                if child.type == "REGION":
                    self.regions.append(int(child.start_pos or 0))
                continue
            rule = child.data
            if (
                rule == "use"
                and defines
                and _is_equal(items[i + 1] if i + 1 < len(items) else None)
            ):
                self.bindings.append(_index(child))  # `scf.for %i = %lb to ...`
            elif rule == "use":
                self.operands.append(_index(child))
            elif rule == "atom":
                index = _index(child)
                kind = self.kinds[index]
                word = self._text(index) if kind in ("BARE_ID", "BANG_ID") else ""
                nxt = items[i + 1] if i + 1 < len(items) else None
                has_angle = isinstance(nxt, Tree) and nxt.data == "angle"
                if kind == "BANG_ID" or (word in TYPE_WORDS and has_angle):
                    end = _last_index(nxt) if has_angle and nxt is not None else index
                    self.types.append((index, end))
                elif kind == "BARE_ID" and SCALAR_TYPE.match(word):
                    self.types.append((index, index))
                continue
            elif rule == "arg_list":
                self._arg_list(child, defines=defines)
            elif rule == "successor":
                if len(child.children) > 1:
                    self._arg_list(child.children[1], defines=False)
            elif rule in ("angle", "square", "dictionary"):
                self._sequence(child.children[1:-1], defines=False)

    def _arg_list(self, node: Tree[Token] | Token, defines: bool) -> None:
        assert isinstance(node, Tree)
        list_no = self.list_no
        self.list_no += 1
        for entry in node.children:
            if isinstance(entry, Token):
                continue
            if entry.data == "argument":
                value = _index(entry.children[0])
                rest = [c for c in entry.children[2:]]
                if defines:
                    self.arguments.append(Argument(value, self._type_span(rest), list_no))
                else:
                    self.operands.append(value)
                self._sequence(rest, defines=False)
            elif entry.data == "binding":
                value = _index(entry.children[0])
                if defines:
                    self.bindings.append(value)
                else:
                    self.operands.append(value)
                self._sequence(entry.children[2:], defines=False)
            else:
                self._sequence(entry.children, defines=defines)

    def _type_span(self, items: list[Tree[Token] | Token]) -> Span | None:
        """Token range of a type: the items before any location or attribute dictionary."""
        kept = [
            item
            for item in items
            if not (isinstance(item, Tree) and item.data in ("location", "dictionary"))
        ]
        if not kept:
            return None
        return (_index(kept[0]), _last_index(kept[-1]))

    def _entries(self, group: Tree[Token], group_no: int) -> list[Entry]:
        """``key = value`` entries of a dictionary, split at its top-level commas."""
        entries: list[Entry] = []
        current: list[Tree[Token] | Token] = []
        for child in [*group.children[1:-1], None]:
            if child is None or (isinstance(child, Token) and child.type == "COMMA"):
                if current:
                    key = _index(current[0])
                    if len(current) >= 3 and self.kinds[_index(current[1])] == "EQUAL":
                        entries.append(
                            Entry(group_no, key, (_index(current[2]), _last_index(current[-1])))
                        )
                    else:
                        entries.append(Entry(group_no, key, None))
                current = []
            else:
                current.append(child)
        return entries

    def _text(self, index: int) -> str:
        tok = self.toks[index]
        return self.text[tok.start : tok.end]


def _is_equal(item: Tree[Token] | Token | None) -> bool:
    return isinstance(item, Tree) and item.data == "atom" and _kind(item) == "EQUAL"


def _generic_form_error(items: list[Tree[Token] | Token]) -> StatementError | None:
    """What MLIR's parser says of a generic op whose parts after the operand list are not
    ``[successors] <{properties}> ({regions}) {attributes} : (types) -> types loc(...)``."""
    at = 0
    kinds = [_kind(item) for item in items]

    def error(message: str) -> StatementError:
        index = _index(items[at]) if at < len(items) else END
        return StatementError(index, (), message)

    if at < len(kinds) and kinds[at] == "square":
        at += 1
    if at < len(kinds) and kinds[at] == "angle":
        item = items[at]
        assert isinstance(item, Tree)
        if not _is_properties(item):
            return error("expected '{' in properties")
        at += 1
    if at < len(kinds) and kinds[at] == "arg_list":
        item = items[at]
        assert isinstance(item, Tree)
        if not all(_is_region_entry(entry) for entry in item.children if isinstance(entry, Tree)):
            return error("expected '{' to begin a region")
        at += 1
    if at < len(kinds) and kinds[at] == "dictionary":
        at += 1
    if at >= len(kinds) or kinds[at] != "COLON":
        return error("expected ':' followed by operation type")
    at += 1
    if at >= len(kinds) or kinds[at] != "arg_list":
        return error("expected function type")
    at += 1
    if at >= len(kinds) or kinds[at] != "ARROW":
        return error("expected '->' in function type")
    at += 1
    if at < len(kinds) and kinds[at] == "arg_list":
        at += 1
    elif at < len(kinds) and kinds[at] in ("BARE_ID", "BANG_ID"):
        at += 1
        if at < len(kinds) and kinds[at] == "angle":
            at += 1
    else:
        return error("expected type")
    if at < len(kinds) and kinds[at] == "location":
        at += 1
    if at < len(kinds):
        return error("expected operation name in quotes")
    return None


def _is_region_entry(entry: Tree[Token]) -> bool:
    """Is an entry of a parenthesised list exactly one region?"""
    children = entry.children
    return (
        entry.data == "entry_items"
        and len(children) == 1
        and isinstance(children[0], Token)
        and children[0].type == "REGION"
    )


def _is_properties(angle: Tree[Token]) -> bool:
    children = angle.children
    return len(children) == 3 and isinstance(children[1], Tree) and children[1].data == "dictionary"
