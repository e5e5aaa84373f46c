"""MLIR's builtin syntax inside a statement: types, attribute dictionaries, attribute values,
locations and ``func.func`` signatures, checked on the parse tree of the generic grammar.

The statement grammar (``mlir.lark``) is generic on purpose: any dialect's custom form
parses. What every dialect shares is checked here, with the wording of MLIR's parser: the
types after an op's top-level ``:``, attribute dictionaries (``{k = v, ...}``, properties,
``attributes {...}``, argument and result attributes), ``dense<...>`` literals, ``loc(...)``
and the signature of ``func.func``. Dialect attributes and types (``#d<...>``, ``!d.t<...>``)
are left alone: their syntax is their dialect's. A check reads the kinds and words of the
statement only, so its answer is cached with the statement's template.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lark import Token, Tree

from passlint.analysis import codes
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.op_table import BARE_OP_NAMES, FUNC_RETURN_OPS, ISOLATED_OPS, MODULE_OPS

Item = Tree[Token] | Token

SHAPED = frozenset(("tensor", "vector", "memref"))
# Builtin scalar types: integers, floats (f8E4M3FN and friends), index, none.
SCALAR_TYPE = re.compile(r"(?:[su]?i\d+|f\d+|bf\d+|tf\d+|f\d+E\w+|index|none)\Z")
_ATTRIBUTE_WORDS = frozenset(("true", "false", "unit"))
_LITERALS = frozenset(("dense", "dense_resource", "array", "sparse"))
_FLOATS_INTS = re.compile(r"(?:[su]?i\d+|f\d+|bf16)\Z")
_ATOMS = frozenset(("INT", "FLOAT", "STRING", "BARE_ID", "SYMBOL", "HASH_ID", "HEX"))

# A function in custom form whose braces hold no op: MLIR's parser rejects it (with or
# without arguments, in these words), and what to do.
EMPTY_BODY_ADVICE = {
    "custom op 'func.func' expected non-empty function body": (
        "add its ops, or drop `{}` to declare it"
    ),
    "empty block: expect at least a terminator": "end the body with its terminator (`return`)",
}


def empty_body_problem(has_arguments: bool) -> str:
    """What MLIR's parser says of an empty body: the arguments make it a block."""
    first, second = EMPTY_BODY_ADVICE
    return second if has_arguments else first


def is_op_name(word: str) -> bool:
    """Can a bare word name an operation in custom form (``dialect.op``, ``return``)?"""
    return "." in word or word in BARE_OP_NAMES


# The bare words the checks below (and a template's types) compare by their text; every
# other word is read only through the predicates ``word_class`` lists. A check that reads a
# word in a new way must be reflected there.
_TOLD_APART = frozenset(
    (
        *SHAPED,
        "complex",
        "tuple",
        *_ATTRIBUTE_WORDS,
        *_LITERALS,
        *BARE_OP_NAMES,
        "unknown",
        "callsite",
        "at",
        "fused",
        "to",
        "attributes",
        *ISOLATED_OPS,
        *FUNC_RETURN_OPS,
    )
)


def word_class(word: str) -> object:
    """What the builtin-syntax checks and a template's type spans read of a bare word: two
    statements of the same token kinds whose words are of the same classes check alike and
    have the same template (an error's message may still name the word). A word starting
    with ``x`` may be the tail of a shape (``x8xf32``)."""
    if word in _TOLD_APART or word.startswith("x"):
        return word
    return (
        is_op_name(word),
        SCALAR_TYPE.match(word) is not None,
        _FLOATS_INTS.match(word) is not None,
    )


class SyntaxProblem(Exception):
    """Where (a token index; None: the end of the statement), MLIR's wording and the code."""

    def __init__(self, index: int | None, message: str, code: str = codes.E001) -> None:
        super().__init__(message)
        self.index = index
        self.message = message
        self.code = code


def first_index(node: Item) -> int:
    """The index of the first token of a tree (or of a token)."""
    while not isinstance(node, Token):
        node = node.children[0]
    return node.start_pos or 0


def kind_of(item: Item) -> str:
    """An item's rule, or the terminal kind of an atom or a bare token."""
    if isinstance(item, Token):
        return item.type
    if item.data == "atom":
        child = item.children[0]
        return child.type if isinstance(child, Token) else "atom"
    return str(item.data)


def inner(node: Tree[Token]) -> list[Item]:
    """The items between a bracketed node's brackets."""
    return list(node.children[1:-1])


def split_commas(items: Sequence[Item]) -> list[list[Item]]:
    parts: list[list[Item]] = [[]]
    for item in items:
        if isinstance(item, Token) and item.type == "COMMA":
            parts.append([])
        else:
            parts[-1].append(item)
    return parts


class Checker:
    """Checks over one statement's parse tree; ``words[i]`` is token ``i``'s text for the
    kinds whose text matters (identifiers), else ''."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = words

    def word(self, item: Item) -> str:
        return self.words[first_index(item)] if kind_of(item) == "BARE_ID" else ""

    def fail(self, items: Sequence[Item], at: int, message: str, after: Item | None = None) -> None:
        """Raise at ``items[at]`` (or after ``after``, at the end of a bracketed node)."""
        if at < len(items):
            raise SyntaxProblem(first_index(items[at]), message)
        if items:  # the token right after the last item (a comma or a closing bracket)
            raise SyntaxProblem(last_index(items[-1]) + 1, message)
        if after is not None and isinstance(after, Tree):
            raise SyntaxProblem(last_index(after), message)
        raise SyntaxProblem(None, message)

    # -- types -------------------------------------------------------------------------------
    def type(self, items: Sequence[Item], at: int, function: bool = True) -> int:
        """Read one type at ``items[at]``; the index after it."""
        if at >= len(items):
            self.fail(items, at, "expected non-function type")
        item = items[at]
        kind = kind_of(item)
        if kind == "BANG_ID":
            nxt = at + 1
            return nxt + 1 if nxt < len(items) and kind_of(items[nxt]) == "angle" else nxt
        if kind == "BARE_ID":
            word = self.word(item)
            if word in SHAPED or word in ("complex", "tuple"):
                nxt = at + 1
                if nxt >= len(items) or kind_of(items[nxt]) != "angle":
                    self.fail(items, nxt, f"expected '<' in {word} type")
                angle = items[nxt]
                assert isinstance(angle, Tree)
                self.type_body(word, inner(angle), angle)
                return nxt + 1
            if SCALAR_TYPE.match(word):
                return at + 1
            self.fail(items, at, "expected non-function type")
        if kind == "arg_list" and function:
            assert isinstance(item, Tree)
            for entry in item.children:
                if isinstance(entry, Tree):
                    self.type_entry(entry)
            nxt = at + 1
            if nxt >= len(items) or kind_of(items[nxt]) != "ARROW":
                self.fail(items, nxt, "expected '->' in function type")
            nxt += 1
            if nxt < len(items) and kind_of(items[nxt]) == "arg_list":
                result = items[nxt]
                assert isinstance(result, Tree)
                for entry in result.children:
                    if isinstance(entry, Tree):
                        self.type_entry(entry)
                return nxt + 1
            return self.type(items, nxt, function=False)
        self.fail(items, at, "expected non-function type")
        return at  # not reached

    def type_entry(self, entry: Tree[Token]) -> None:
        """One entry of a parenthesised type list: a type, maybe with attributes."""
        if entry.data != "entry_items":
            self.fail(entry.children, 0, "expected non-function type")
        items = list(entry.children)
        if not items:
            self.fail(items, 0, "expected non-function type")
        end = self.type(items, 0)
        if end < len(items) and kind_of(items[end]) == "dictionary":
            dictionary = items[end]
            assert isinstance(dictionary, Tree)
            self.dictionary(dictionary)
            end += 1
        if end < len(items):
            self.fail(items, end, "expected ')'")

    def type_body(self, word: str, items: list[Item], angle: Tree[Token]) -> None:
        """What stands between ``<`` and ``>`` of a builtin type."""
        at = 0
        if word in SHAPED:
            at = self.dimensions(items)
            if at < 0:
                return  # the element type came glued to an `x` (`4 xf32`): read already
        if word == "tuple":
            for part in split_commas(items) if items else []:
                if not part:
                    self.fail(items, at, "expected non-function type", angle)
                end = self.type(part, 0)
                if end < len(part):
                    self.fail(part, end, "expected '>' in tuple type")
            return
        end = self.type(items, at, function=False)
        if end < len(items) and kind_of(items[end]) == "COMMA" and word != "complex":
            return  # an encoding, a layout, a memory space: attributes of many dialects
        if end < len(items):
            self.fail(items, end, f"expected '>' in {word} type")

    def dimensions(self, items: list[Item]) -> int:
        """Skip a shaped type's dimension list; -1 when it ends in its element type.

        The lexer makes one token of ``4x8x`` right after ``tensor<``; a line break or a
        space elsewhere leaves MLIR's own tokens: ``4`` and ``xf32`` or ``x8xf32`` (``0x4``
        reads as a hex number)."""
        at = 0
        while at < len(items):
            kind = kind_of(items[at])
            word = self.word(items[at])
            if kind in ("DIMS", "INT", "HEX") or (kind == "PUNCT" and at + 1 < len(items)):
                at += 1
            elif kind == "square":
                at += 1  # a scalable dimension of a vector
            elif word.startswith("x") and at > 0:
                rest = word.lstrip("x").split("x")[-1]
                if rest == "" or rest.isdigit():
                    at += 1
                    continue
                if SCALAR_TYPE.match(rest):
                    return -1 if at + 1 == len(items) else at + 1
                self.fail(items, at, "expected non-function type")
            else:
                break
        return at

    def types_after_colon(self, items: Sequence[Item], at: int) -> None:
        """The types after an op's top-level ``:`` (a list, or a function type)."""
        while True:
            at = self.type(items, at)
            if at < len(items) and kind_of(items[at]) == "COMMA":
                at += 1
                continue
            return

    # -- attributes --------------------------------------------------------------------------
    def dictionary(self, node: Tree[Token]) -> None:
        """``{name = value, name, ...}``: an attribute dictionary."""
        items = inner(node)
        if not items:
            return
        for entry in split_commas(items):
            if not entry:
                self.fail(items, _after_comma(items), "expected attribute name", node)
            key = kind_of(entry[0])
            if key not in ("BARE_ID", "STRING"):
                self.fail(entry, 0, "expected attribute name")
            if len(entry) == 1:
                continue
            if kind_of(entry[1]) != "EQUAL":
                self.fail(entry, 1, "expected '}' in attribute dictionary")
            if len(entry) == 2:
                self.fail(entry, 2, "expected attribute value", node)
            end = self.attribute(entry, 2)
            if end < len(entry):
                self.fail(entry, end, "expected '}' in attribute dictionary")

    def attribute(self, items: Sequence[Item], at: int) -> int:
        """One attribute value at ``items[at]`` (with its ``: type``); the index after it."""
        item = items[at]
        kind = kind_of(item)
        nxt = at + 1
        if kind in ("STRING", "INT", "FLOAT", "HEX"):
            pass
        elif kind == "SYMBOL":
            while True:  # nested references: `@outer::@inner` (lexed as two ':')
                if nxt + 2 < len(items) and [kind_of(i) for i in items[nxt : nxt + 3]] == [
                    "COLON",
                    "COLON",
                    "SYMBOL",
                ]:
                    nxt += 3
                elif (
                    nxt + 1 < len(items)
                    and kind_of(items[nxt]) == "PUNCT"
                    and kind_of(items[nxt + 1]) == "SYMBOL"
                ):
                    nxt += 2
                else:
                    break
        elif kind in ("HASH_ID", "BANG_ID"):
            if nxt < len(items) and kind_of(items[nxt]) == "angle":
                nxt += 1
        elif kind == "dictionary":
            assert isinstance(item, Tree)
            self.dictionary(item)
        elif kind == "square":
            pass
        elif kind == "location":
            assert isinstance(item, Tree)
            self.location(item)
        elif kind == "arg_list":
            return self.type(items, at)
        elif kind == "BARE_ID":
            word = self.word(item)
            if word in SHAPED or word in ("complex", "tuple") or SCALAR_TYPE.match(word):
                return self.type(items, at)
            if word in _ATTRIBUTE_WORDS:
                pass
            else:
                if nxt < len(items) and kind_of(items[nxt]) == "square":
                    nxt += 1  # distinct[0]<...>
                if nxt >= len(items) or kind_of(items[nxt]) != "angle":
                    self.fail(items, nxt, f"expected '<' after '{excerpt(word)}'")
                angle = items[nxt]
                assert isinstance(angle, Tree)
                if word == "dense":
                    self.dense(angle)
                nxt += 1
        else:
            self.fail(items, at, "expected attribute value")
        if nxt < len(items) and kind_of(items[nxt]) == "COLON":
            return self.type(items, nxt + 1)
        return nxt

    def dense(self, angle: Tree[Token]) -> None:
        """``dense<...>``: a hex string, or numbers nested in ``[...]`` separated by commas."""
        items = inner(angle)
        if len(items) == 1 and kind_of(items[0]) in ("STRING", "ELEMENTS"):
            return  # a hex blob, or a long list the lexer found well formed
        self.elements(items, angle)

    def elements(self, items: list[Item], node: Tree[Token]) -> None:
        """Elements of a ``dense<...>`` literal, in nested lists: one literal between commas."""
        if not items:
            return
        for part in split_commas(items):
            if not part:
                at = _after_comma(items)
                self.fail(items, at, "expected element literal of primitive type", node)
            first = part[0]
            if kind_of(first) == "square":
                assert isinstance(first, Tree)
                self.elements(inner(first), first)
            if len(part) > 1:
                closer = "']'" if kind_of(node) == "square" else "'>'"
                self.fail(part, 1, f"expected {closer}")

    # -- locations ---------------------------------------------------------------------------
    def location(self, node: Tree[Token]) -> None:
        """``loc(...)``: one location instance."""
        items = list(node.children[2:-1])
        if not items:
            self.fail(items, 0, "expected location instance", node)
        end = self.location_instance(items, 0)
        if end < len(items):
            self.fail(items, end, "expected ')' in location")

    def location_instance(self, items: list[Item], at: int) -> int:
        if at >= len(items):
            self.fail(items, at, "expected location instance")
        kind = kind_of(items[at])
        nxt = at + 1
        if kind == "HASH_ID":
            return nxt
        if kind == "STRING":
            if nxt < len(items) and kind_of(items[nxt]) == "COLON":
                return self.file_line_col(items, nxt)
            if nxt < len(items) and kind_of(items[nxt]) == "arg_list":
                return nxt + 1  # a named location: `"name"(loc)`
            return nxt
        word = self.word(items[at]) if kind == "BARE_ID" else ""
        if word == "unknown":
            return nxt
        if word == "callsite" and nxt < len(items) and kind_of(items[nxt]) == "arg_list":
            group = items[nxt]
            assert isinstance(group, Tree)
            entries = [e for e in group.children if isinstance(e, Tree)]
            parts = list(entries[0].children) if len(entries) == 1 else []
            end = self.location_instance(parts, 0)
            if end >= len(parts) or self.word(parts[end]) != "at":
                self.fail(parts, end, "expected 'at' in callsite location", group)
            end = self.location_instance(parts, end + 1)
            if end < len(parts):
                self.fail(parts, end, "expected ')' in callsite location")
            return nxt + 1
        if word == "fused":
            while nxt < len(items) and kind_of(items[nxt]) in ("angle", "square"):
                nxt += 1
            return nxt
        self.fail(items, at, "expected location instance")
        return at  # not reached

    def file_line_col(self, items: list[Item], colon: int) -> int:
        at = colon + 1
        if at >= len(items) or kind_of(items[at]) != "INT":
            self.fail(items, at, "expected integer line number in FileLineColRange")
        at += 1
        if at < len(items) and kind_of(items[at]) == "COLON":
            at += 1
            if at >= len(items) or kind_of(items[at]) != "INT":
                self.fail(items, at, "expected integer column number in FileLineColRange")
            at += 1
        if at < len(items) and self.word(items[at]) == "to":
            at += 1
            while at < len(items) and kind_of(items[at]) in ("COLON", "INT"):
                at += 1
        return at

    # -- func.func ---------------------------------------------------------------------------
    def function_signature(self, items: Sequence[Item]) -> None:
        """``func.func [visibility] @name(args) [-> results] [attributes {...}] [{body}]``."""
        at = 0
        while at < len(items) and kind_of(items[at]) == "BARE_ID" and at < 1:
            at += 1  # public / private / nested
        if at >= len(items) or kind_of(items[at]) != "SYMBOL":
            self.fail(
                items,
                at,
                "custom op 'func.func' expected valid '@'-identifier for symbol name",
            )
        at += 1
        if at >= len(items) or kind_of(items[at]) != "arg_list":
            self.fail(items, at, "expected '('")
        arguments = items[at]
        assert isinstance(arguments, Tree)
        entries = [e for e in arguments.children if isinstance(e, Tree)]
        self.function_arguments(entries)
        at += 1
        if at < len(items) and kind_of(items[at]) == "ARROW":
            at += 1
            if at < len(items) and kind_of(items[at]) == "arg_list":
                results = items[at]
                assert isinstance(results, Tree)
                for entry in results.children:
                    if isinstance(entry, Tree):
                        self.type_entry(entry)
                at += 1
            else:
                at = self.type(items, at, function=False)
        if at < len(items) and self.word(items[at]) == "attributes":
            at += 1
            if at >= len(items) or kind_of(items[at]) != "dictionary":
                self.fail(items, at, "expected '{' in attribute dictionary")
            at += 1
        if at < len(items) and _empty_dictionary(items[at]):  # `{}`: a body of no block
            self.fail(items, at, empty_body_problem(bool(entries)))

    def function_arguments(self, entries: list[Tree[Token]]) -> None:
        """A signature's arguments: named (``%a: T {attrs} loc(...)``) or, all of them, bare
        types (``T {attrs} loc(...)``, a declaration's); the first decides, as in MLIR."""
        named = bool(entries) and _names_value(entries[0])
        for entry in entries:
            if _names_value(entry) != named:
                message = (
                    "expected SSA identifier"
                    if named
                    else "expected type instead of SSA identifier"
                )
                self.fail(entry.children, 0, message)
            elif named:
                self.argument(entry)  # (`%a T`, its ':' missing, fails there)
            else:
                self.typed_entry(list(entry.children))

    def typed_entry(self, items: list[Item]) -> None:
        """An argument's type (a function type too), maybe its attributes and location."""
        end = self.type(items, 0)
        if end < len(items) and kind_of(items[end]) == "dictionary":
            dictionary = items[end]
            assert isinstance(dictionary, Tree)
            self.dictionary(dictionary)
            end += 1
        if end < len(items) and kind_of(items[end]) == "location":
            location = items[end]
            assert isinstance(location, Tree)
            self.location(location)
            end += 1
        if end < len(items):
            self.fail(items, end, "expected ')'")

    def argument(self, entry: Tree[Token]) -> None:
        """``%name: type {attrs} loc(...)`` in a signature or a block label."""
        if entry.data != "argument":
            self.fail(entry.children, 1 if entry.children else 0, "expected ':'")
        self.typed_entry(list(entry.children[2:]))


def _names_value(entry: Tree[Token]) -> bool:
    """Does a parenthesised list's entry start with an SSA name (``%a: T``, or ``%a T``)?"""
    return entry.data == "argument" or (
        bool(entry.children) and kind_of(entry.children[0]) == "use"
    )


def _after_comma(items: list[Item]) -> int:
    """Index (in ``items``) of what follows the comma an empty entry stands after."""
    for at in range(len(items) - 1):
        if kind_of(items[at]) == "COMMA" and kind_of(items[at + 1]) == "COMMA":
            return at + 1
    return len(items) if items and kind_of(items[-1]) == "COMMA" else 0


def last_index(node: Item) -> int:
    """The index of the last token of a tree (or of a token)."""
    while not isinstance(node, Token):
        node = node.children[-1]
    return node.start_pos or 0


# -- statements --------------------------------------------------------------------------------


def check_statement(checker: Checker, tree: Tree[Token]) -> None:
    """Raise a SyntaxProblem for the first builtin-syntax error of a parsed statement."""
    rule = tree.data
    children = tree.children
    if rule == "block_label":
        if len(children) > 2 and isinstance(children[1], Tree):
            for entry in children[1].children:
                if not isinstance(entry, Tree):
                    continue
                if entry.data != "argument":
                    index = first_index(entry.children[1]) if len(entry.children) > 1 else None
                    raise SyntaxProblem(index, "expected ':' and type for SSA operand")
                checker.argument(entry)
        return
    if rule == "alias_definition":
        items = list(children[2:])
        end = (
            checker.type(items, 0)
            if kind_of(children[0]) == "BANG_ID"
            else checker.attribute(items, 0)
        )
        if end < len(items):
            checker.fail(items, end, "expected end of alias definition")
        return
    if rule == "resources":
        return
    operation = children[-1]
    assert isinstance(operation, Tree)
    if operation.data == "generic_operation":
        _generic_operation(checker, list(operation.children[2:]))
    else:
        name = checker.words[first_index(operation.children[0])]
        results = rule == "defining_statement"
        at = first_index(operation.children[0])
        _custom_operation(checker, name, at, list(operation.children[1:]), results)


def _generic_operation(checker: Checker, items: list[Item]) -> None:
    for at, item in enumerate(items):
        kind = kind_of(item)
        if kind == "angle" and isinstance(item, Tree) and len(item.children) == 3:
            properties = item.children[1]
            if isinstance(properties, Tree) and properties.data == "dictionary":
                checker.dictionary(properties)
        elif kind == "dictionary" and isinstance(item, Tree):
            checker.dictionary(item)
        elif kind == "COLON":
            checker.type(items, at + 1)
        elif kind == "location" and isinstance(item, Tree):
            checker.location(item)


def _custom_operation(
    checker: Checker, name: str, name_index: int, items: list[Item], results: bool
) -> None:
    """An op in custom form: its dialect's syntax is unknown, what every format shares is
    checked (operand lists, attribute dictionaries, types after ':', locations)."""
    if not is_op_name(name):
        raise SyntaxProblem(name_index, f"custom op '{excerpt(name)}' is unknown")
    if results and not items:
        raise SyntaxProblem(None, f"expected the operands or the type of '{excerpt(name)}'")
    function = name == "func.func"
    if function:
        checker.function_signature(items)
    elif name in MODULE_OPS:
        _module(checker, items)
    elif name in FUNC_RETURN_OPS:
        _return(checker, items)
    if items and kind_of(items[0]) == "COMMA":
        raise SyntaxProblem(first_index(items[0]), "expected SSA operand", codes.E005)
    colon = False
    for at, item in enumerate(items):
        kind = kind_of(item)
        following = items[at + 1] if at + 1 < len(items) else None
        after = kind_of(following) if following is not None else "$END"
        if kind == "dictionary" and isinstance(item, Tree):
            checker.dictionary(item)
        elif kind == "location" and isinstance(item, Tree):
            checker.location(item)
        elif kind == "COLON" and not colon:
            colon = True
            checker.types_after_colon(items, at + 1)
        elif kind == "use" and after == "use":
            raise SyntaxProblem(first_index(items[at + 1]), "expected ','", codes.E005)
        elif kind == "use" and following is not None and _starts_type(checker, following):
            raise SyntaxProblem(first_index(following), "expected ':'")
        elif kind == "COMMA" and after in ("COMMA", "COLON", "$END") and at > 0:
            index = first_index(following) if following is not None else None
            raise SyntaxProblem(index, "expected SSA operand", codes.E005)
        elif kind == "EQUAL" and (at == 0 or kind_of(items[at - 1]) in ("COMMA", "EQUAL")):
            raise SyntaxProblem(first_index(item), "expected attribute name")
        elif kind == "EQUAL" and after in ("EQUAL", "COMMA", "$END"):
            index = first_index(following) if following is not None else None
            raise SyntaxProblem(index, "expected attribute value")
        elif kind == "BARE_ID" and checker.word(item) in _LITERALS:
            end = checker.attribute(items, at)  # a custom form's literal (`stablehlo.constant`)
            if end < len(items) and _starts_type(checker, items[end]):
                raise SyntaxProblem(first_index(items[end]), "expected ':'")
        elif kind == "BARE_ID" and checker.word(item) == "attributes":
            if following is None or kind_of(following) != "dictionary":
                checker.fail(items, at + 1, "expected '{' in attribute dictionary")
        elif kind == "arg_list" and after == "ARROW" and isinstance(item, Tree) and not function:
            previous = kind_of(items[at - 1]) if at > 0 else ""
            if previous not in ("COLON", "ARROW", "COMMA") and _type_list(checker, item):
                raise SyntaxProblem(first_index(item), "expected ':'")
        elif kind in ("square", "arg_list") and isinstance(item, Tree):
            _no_adjacent_values(item)


def _module(checker: Checker, items: list[Item]) -> None:
    """``module [@name] [attributes {...}] {body}``."""
    at = 0
    if at < len(items) and kind_of(items[at]) == "SYMBOL":
        at += 1
    if at < len(items) and checker.word(items[at]) == "attributes":
        at += 2
    if at < len(items) and kind_of(items[at]) == "REGION":
        at += 1
    elif at < len(items) and _empty_dictionary(items[at]):
        at += 1  # `{}` on one line: read as an empty dictionary, an empty body here
    else:
        checker.fail(items, at, "expected '{' to begin a region")
    if at < len(items) and kind_of(items[at]) == "location":
        at += 1


def _empty_dictionary(item: Item) -> bool:
    return isinstance(item, Tree) and item.data == "dictionary" and not inner(item)


def _return(checker: Checker, items: list[Item]) -> None:
    """``return [%a, %b : T1, T2]``: as many types as operands."""
    del checker
    if items and kind_of(items[0]) in ("COLON", "COMMA"):
        raise SyntaxProblem(first_index(items[0]), "expected SSA operand", codes.E005)
    operands = sum(1 for item in items if kind_of(item) == "use")
    colon = next((at for at, item in enumerate(items) if kind_of(item) == "COLON"), -1)
    if colon < 0:
        return
    types = [part for part in split_commas(items[colon + 1 :])]
    typed = [part for part in types if part and kind_of(part[0]) != "location"]
    if operands and len(typed) != operands and all(typed):
        raise SyntaxProblem(
            first_index(items[colon]),
            f"custom op 'func.return' number of operands and types do not match: got "
            f"{operands} operands and {len(typed)} types",
            codes.E005,
        )


def _starts_type(checker: Checker, item: Item) -> bool:
    """Does ``item`` start a builtin or dialect type (a value right before it lacks ':')?"""
    kind = kind_of(item)
    if kind == "BANG_ID":
        return True
    word = checker.word(item)
    return word in SHAPED or word in ("complex", "tuple") or bool(_FLOATS_INTS.match(word))


def _type_list(checker: Checker, node: Tree[Token]) -> bool:
    """Is a parenthesised list a list of types (the operand types of a function type)?"""
    entries = [entry for entry in node.children if isinstance(entry, Tree)]
    return bool(entries) and all(
        entry.data == "entry_items" and entry.children and _starts_type(checker, entry.children[0])
        for entry in entries
    )


def _no_adjacent_values(node: Tree[Token]) -> None:
    """Two values (``%a %b``) or two plain atoms (``[1 1]``) with no comma between them."""
    entries = (
        [list(entry.children) for entry in node.children if isinstance(entry, Tree)]
        if node.data == "arg_list"
        else [inner(node)]
    )
    for items in entries:
        for at in range(len(items) - 1):
            first, second = kind_of(items[at]), kind_of(items[at + 1])
            if first == "use" and second == "use":
                raise SyntaxProblem(first_index(items[at + 1]), "expected ','", codes.E005)
            if node.data == "square" and first in _ATOMS - {"BARE_ID"} and second in _ATOMS:
                raise SyntaxProblem(first_index(items[at + 1]), "expected ']'")
