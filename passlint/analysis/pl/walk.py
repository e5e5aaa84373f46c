"""Walks over ``ast`` subtrees that are cheaper than ``ast.walk`` (one loop, no generators).

Expression contexts (``Load``/``Store``) are skipped; nodes come in no particular order.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

_AST = ast.AST


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
