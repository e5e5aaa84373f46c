"""Running the LALR tables of the statement grammar (``mlir.lark``) over a statement's kinds.

The tables are lark's LALR analysis of the grammar. Building them takes lark about 30 ms, a
third of a one-file check, so they are written once into ``lalr_tables.py``: running this
module (``python -m passlint.analysis.mlir.lalr``) writes them again, a test checks that they
are the grammar's, and a grammar changed since is analysed by lark at start-up instead.

lark's parse of a token stream (``Lark.parse``) sets up a parser state, a lexer thread and a
``Token`` per terminal for every call, and feeds the tokens one method call at a time. A
statement's kinds are known beforehand, so this runs the tables in one loop, with one shared
``Token`` per (kind, position), and builds lark's trees (a test compares the two on every
statement shape of the fixtures) at about a quarter of the cost. A rule's tree is its
children, with those of the ``_`` rules among them taken in (lark's inlining); two kinds of
reduction, two thirds of them all, make no new tree: a ``?rule`` of one symbol
(``?item: plain_item``) gives its child as it is, and a step of an inlined list
(``__item_plus: __item_plus item``) adds to the list tree it extends. Names are plain
interned strings (lark's are partly ``Token`` objects, whose ``__eq__`` is Python code).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from pprint import pformat
from typing import Any

from lark import Lark, Token, Tree
from lark.parsers.lalr_analysis import Shift

Reduce = Callable[..., Any]  # (name, children) -> tree; or one of the two markers below
# state -> {symbol: (shift, target)}: shift to state ``target``, or reduce by rule ``target``
States = dict[int, dict[str, tuple[bool, int]]]
# Per rule: how many values it takes, the nonterminal it makes, the name of its tree (its
# alias, else that nonterminal), how it reduces ("child": a ``?rule`` of one symbol gives it
# as it is; "extend": a step of an inlined list; "tree"), and the positions of the ``_`` rules
# whose children its tree takes in.
RuleRow = tuple[int, str, str, str, tuple[int, ...]]


def _IDENTITY(children: list[Any]) -> Any:
    """A ``?rule`` of one symbol: its child, as it is."""
    return children[0]


def _EXTEND(children: list[Any]) -> Any:
    """A step of an inlined list: the list tree with the step's values added."""
    children[0].children += children[1:]
    return children[0]


@dataclass(frozen=True)
class Rejected:
    """The statement does not parse: the position of the unexpected token (the number of
    kinds for the end of the statement) and the terminals that were expected there."""

    index: int
    expected: tuple[str, ...]


def grammar_digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode()).hexdigest()


def tables_of(lark: Lark) -> tuple[int, int, States, tuple[RuleRow, ...]]:
    """The start state, end state, states and rules of ``lark``'s LALR parser."""
    inner = lark.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> _Parser
    table = inner.parse_table
    (start,) = lark.options.start
    # A terminal with a callback would be transformed when shifted; the runner shifts
    # tokens as they are.
    assert not any(isinstance(key, str) for key in inner.callbacks)
    rules = list(inner.callbacks)
    number = {rule: n for n, rule in enumerate(rules)}
    states: States = {
        state: {
            str(symbol): (True, arg) if action is Shift else (False, number[arg])
            for symbol, (action, arg) in sorted(row.items(), key=lambda item: str(item[0]))
        }
        for state, row in sorted(table.states.items())
    }
    rows = tuple(
        (
            len(rule.expansion),
            str(rule.origin.name),
            str(rule.alias or rule.origin.name),
            _reduction(rule),
            tuple(
                n
                for n, symbol in enumerate(rule.expansion)
                if not symbol.is_term and symbol.name.startswith("_")
            ),
        )
        for rule in rules
    )
    return table.start_states[start], table.end_states[start], states, rows


def _reduction(rule: Any) -> str:
    """How a lark rule reduces (see ``RuleRow``)."""
    size = len(rule.expansion)
    if rule.options.expand1 and not rule.alias:  # a ?rule: may give a single child as it is
        if size != 1:
            raise ValueError(f"{rule.origin.name}: a ?rule of several symbols is not supported")
        return "child"
    inlined = rule.origin.name.startswith("_")
    return "extend" if inlined and size > 1 and rule.expansion[0] == rule.origin else "tree"


def render(lark: Lark, grammar: str) -> str:
    """The source of ``lalr_tables.py`` for ``lark``, built from ``grammar``."""
    start, end, states, rules = tables_of(lark)
    return (
        '"""LALR tables of mlir.lark, written by `python -m passlint.analysis.mlir.lalr`'
        ' (do not edit)."""\n\n'
        f"GRAMMAR_SHA256 = {grammar_digest(grammar)!r}\n"
        f"START = {start}\nEND = {end}\n"
        f"STATES = {pformat(states, width=100, compact=True)}\n"
        f"RULES = {pformat(rules, width=100, compact=True)}\n"
    )


class LalrRunner:
    """Parse kind sequences with the grammar's tables, into lark's trees."""

    def __init__(self, start: int, end: int, states: States, rules: tuple[RuleRow, ...]) -> None:
        intern = sys.intern
        self.start_state, self.end_state = start, end
        self.states = {
            state: {intern(symbol): action for symbol, action in row.items()}
            for state, row in states.items()
        }
        # The same rows in a list by state number (lark numbers them from 0): the loop's
        # lookups index it.
        self.table = [self.states[state] for state in range(len(self.states))]
        # Per rule: its size, the nonterminal it makes, how it reduces, its tree's name.
        self.reductions: list[tuple[int, str, Reduce, str]] = []
        for size, origin, name, how, inline in rules:
            reduce: Reduce = {"child": _IDENTITY, "extend": _EXTEND}.get(how) or _tree_of(inline)
            self.reductions.append((size, intern(origin), reduce, intern(name)))
        self._tokens: dict[tuple[str, int], Token] = {}

    @classmethod
    def of_lark(cls, lark: Lark) -> LalrRunner:
        return cls(*tables_of(lark))

    def token(self, kind: str, index: int) -> Token:
        """The (shared, never changed) token of ``kind`` at ``index``."""
        found = self._tokens.get((kind, index))
        if found is None:
            found = self._tokens[(kind, index)] = Token(kind, kind, start_pos=index)
        return found

    def parse(self, kinds: tuple[str, ...]) -> Tree[Token] | Rejected:
        table, reductions, end_state = self.table, self.reductions, self.end_state
        state = self.start_state  # (the top of state_stack)
        state_stack = [state]
        value_stack: list[Any] = []
        token, made = self.token, self._tokens.get
        count = len(kinds)
        for index in range(count + 1):
            kind = kinds[index] if index < count else "$END"
            while True:
                found = table[state].get(kind)
                if found is None:
                    expected = tuple(sorted(name for name in table[state] if name.isupper()))
                    return Rejected(index, expected)
                shift, arg = found
                if shift:
                    state = arg
                    state_stack.append(state)
                    value_stack.append(made((kind, index)) or token(kind, index))
                    break
                size, made_kind, reduce, name = reductions[arg]
                if reduce is _IDENTITY:
                    state = state_stack[-1] = table[state_stack[-2]][made_kind][1]
                    continue
                if reduce is _EXTEND:
                    value_stack[-size].children += value_stack[1 - size :]
                    del value_stack[1 - size :]
                    del state_stack[-size:]
                else:
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value_stack.append(reduce(name, children))
                state = table[state_stack[-1]][made_kind][1]
                state_stack.append(state)
                if index == count and state == end_state:
                    parsed: Tree[Token] = value_stack[-1]
                    return parsed
        raise AssertionError("the end of the statement was shifted")  # (lark never does)


def _tree_of(inline: tuple[int, ...]) -> Callable[[str, list[Any]], Tree[Token]]:
    """How a rule makes its tree: its children, the ``_`` rules' at ``inline`` taken in."""
    if not inline:
        return Tree

    def tree(name: str, children: list[Any]) -> Tree[Token]:
        taken: list[Any] = []
        for n, child in enumerate(children):
            if n in inline:
                taken += child.children
            else:
                taken.append(child)
        return Tree(name, taken)

    return tree


def main() -> None:
    """Write ``lalr_tables.py`` from ``mlir.lark`` (after the grammar changed)."""
    from passlint.analysis.mlir.grammar import grammar, lark_parser

    here = Path(__file__).resolve().parent
    (here / "lalr_tables.py").write_text(render(lark_parser(), grammar()), encoding="utf-8")


if __name__ == "__main__":
    main()
