"""Walks over ``ast`` subtrees that are cheaper than ``ast.walk`` (one loop, no generators),
and over the statements of a body without their expressions.

Expression contexts (``Load``/``Store``) are skipped; nodes come in no particular order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

_AST = ast.AST
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def nodes_below(
    roots: Iterable[ast.AST], barriers: tuple[type[ast.AST], ...] = ()
) -> list[ast.AST]:
    """Every node of the subtrees at ``roots``, without entering nodes of a ``barriers``
    type (which are listed themselves)."""
    out: list[ast.AST] = []
    stack = list(roots)
    while stack:
        node = stack.pop()
        out.append(node)
        if barriers and isinstance(node, barriers):
            continue
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend([item for item in value if isinstance(item, _AST)])
            elif isinstance(value, _AST) and name != "ctx":
                stack.append(value)
    return out


def names_below(node: ast.AST) -> list[ast.Name]:
    """The ``Name`` nodes of an expression, in source order."""
    if type(node) is ast.Name:
        return [node]
    if type(node) is ast.Constant:
        return []
    found = [n for n in nodes_below((node,)) if type(n) is ast.Name]
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    return found


def flat_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a block in source order, entering compound statements (not defs)."""
    stack: list[Iterator[ast.stmt]] = [iter(body)]
    while stack:
        stmt = next(stack[-1], None)
        if stmt is None:
            stack.pop()
            continue
        yield stmt
        if isinstance(stmt, _DEFS):
            continue
        for block in reversed(blocks(stmt)):
            stack.append(iter(block))


def blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement blocks of a compound statement (bodies, else, finally, handlers,
    match cases)."""
    found: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list):
            found.append(block)
    found.extend(handler.body for handler in getattr(stmt, "handlers", ()))
    found.extend(case.body for case in getattr(stmt, "cases", ()))
    return found
