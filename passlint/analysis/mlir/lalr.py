"""Running a lark LALR parser's own tables over a statement's token kinds.

lark's parse of a token stream (``Lark.parse``) sets up a parser state, a lexer thread and a
``Token`` per terminal for every call, and feeds the tokens one method call at a time. A
statement's kinds are known beforehand, so this runs the same tables and the same tree
callbacks in one loop, with one shared ``Token`` per (kind, position): the trees are lark's
(a test compares the two on every statement shape of the fixtures), at about half the cost.

Two kinds of reduction, two thirds of them all, skip lark's callback for what it amounts to:
a ``?rule`` of one symbol (``?item: plain_item``) gives its child as it is, and a step of an
inlined list (``__item_plus: __item_plus item``) adds to the list tree it extends, where
lark's callback wraps that tree's children in a new tree. Rule names are plain interned
strings from the start (lark's are ``Token`` objects, whose ``__eq__`` is Python code).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark import Lark, Token, Tree
from lark.parsers.lalr_analysis import Shift

Reduce = Callable[[list[Any]], Any]


def _IDENTITY(children: list[Any]) -> Any:
    """A ``?rule`` of one symbol: its child, as lark's callback gives it."""
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


class LalrRunner:
    """Parse kind sequences with ``lark``'s tables and tree callbacks (no lexer callbacks)."""

    def __init__(self, lark: Lark) -> None:
        inner = lark.parser.parser.parser  # ParsingFrontend -> LALR_Parser -> _Parser
        table = inner.parse_table
        (start,) = lark.options.start
        # Symbols as plain interned strings: lark's are partly ``Token`` objects, and looking
        # one of those up compares it with Python code.
        self.states: dict[Any, dict[str, tuple[Any, Any]]] = {
            state: {sys.intern(str(symbol)): action for symbol, action in row.items()}
            for state, row in table.states.items()
        }
        self.start_state = table.start_states[start]
        self.end_state = table.end_states[start]
        callbacks: dict[Any, Callable[[list[Any]], Any]] = inner.callbacks
        # A terminal with a callback would be transformed when shifted: the loop below
        # shifts tokens as they are.
        assert not any(isinstance(key, str) for key in callbacks)
        # Per rule: how many values it takes, the nonterminal it makes, its tree callback and
        # the name of the tree that callback makes.
        self.reductions: dict[Any, tuple[int, str, Reduce, str]] = {}
        for rule, callback in callbacks.items():
            origin, size = sys.intern(str(rule.origin.name)), len(rule.expansion)
            name = sys.intern(str(rule.alias or origin))
            single = rule.options.expand1 and not rule.alias  # may give a child as it is
            if single and size == 1:
                reduce: Reduce = _IDENTITY
            elif single:
                raise ValueError(f"{name}: a ?rule of several symbols is not supported")
            elif origin.startswith("_") and size > 1 and rule.expansion[0] == rule.origin:
                reduce = _EXTEND
            else:
                reduce = callback
            self.reductions[rule] = (size, origin, reduce, name)
        self._tokens: dict[tuple[str, int], Token] = {}

    def token(self, kind: str, index: int) -> Token:
        """The (shared, never changed) token of ``kind`` at ``index``."""
        found = self._tokens.get((kind, index))
        if found is None:
            found = self._tokens[(kind, index)] = Token(kind, kind, start_pos=index)
        return found

    def parse(self, kinds: tuple[str, ...]) -> Tree[Token] | Rejected:
        states, reductions, end_state = self.states, self.reductions, self.end_state
        state_stack = [self.start_state]
        value_stack: list[Any] = []
        token, made = self.token, self._tokens.get
        count = len(kinds)
        for index in range(count + 1):
            kind = kinds[index] if index < count else "$END"
            while True:
                row = states[state_stack[-1]]
                found = row.get(kind)
                if found is None:
                    expected = tuple(sorted(name for name in row if name.isupper()))
                    return Rejected(index, expected)
                action, arg = found
                if action is Shift:
                    state_stack.append(arg)
                    value_stack.append(made((kind, index)) or token(kind, index))
                    break
                size, made_kind, callback, name = reductions[arg]
                if callback is _IDENTITY:
                    state_stack[-1] = states[state_stack[-2]][made_kind][1]
                    continue
                if callback is _EXTEND:
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
                    tree = callback(children)
                    tree.data = name
                    value_stack.append(tree)
                state_stack.append(states[state_stack[-1]][made_kind][1])
                if index == count and state_stack[-1] == end_state:
                    parsed: Tree[Token] = value_stack[-1]
                    return parsed
        raise AssertionError("the end of the statement was shifted")  # (lark never does)
