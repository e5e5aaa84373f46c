"""Running a lark LALR parser's own tables over a statement's token kinds.

lark's parse of a token stream (``Lark.parse``) sets up a parser state, a lexer thread and a
``Token`` per terminal for every call, and feeds the tokens one method call at a time. A
statement's kinds are known beforehand, so this runs the same tables and the same tree
callbacks in one loop, with one shared ``Token`` per (kind, position): the trees are lark's
(a test compares the two on every statement shape of the fixtures), at about half the cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark import Lark, Token, Tree
from lark.parsers.lalr_analysis import Shift


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
        self.states: dict[Any, dict[str, tuple[Any, Any]]] = table.states
        self.start_state = table.start_states[start]
        self.end_state = table.end_states[start]
        callbacks: dict[Any, Callable[[list[Any]], Any]] = inner.callbacks
        # A terminal with a callback would be transformed when shifted: the loop below
        # shifts tokens as they are.
        assert not any(isinstance(key, str) for key in callbacks)
        # Per rule: how many values it takes, the nonterminal it makes, its tree callback.
        self.reductions = {
            rule: (len(rule.expansion), rule.origin.name, callback)
            for rule, callback in callbacks.items()
        }
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
                size, made_kind, callback = reductions[arg]
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value_stack.append(callback(children))
                state_stack.append(states[state_stack[-1]][made_kind][1])
                if index == count and state_stack[-1] == end_state:
                    tree: Tree[Token] = value_stack[-1]
                    return tree
        raise AssertionError("the end of the statement was shifted")  # (lark never does)
