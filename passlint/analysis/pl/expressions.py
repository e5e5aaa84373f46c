"""Source text of expressions the analysis builds (extents, keys, callee names), for
integers of any size: CPython refuses to turn an int of more than 4,300 digits into
decimal text (``ValueError``), and takes quadratic time below that, while a hexadecimal
literal of any length is valid Python. An int above ``DECIMAL_BITS`` is written in hex."""

from __future__ import annotations

import ast
import copy

from passlint.analysis.pl.walk import nodes_below

DECIMAL_BITS = 4_000  # about 1,200 decimal digits


def int_text(value: int) -> str:
    """``value`` as a Python literal: decimal, or hex when it is huge."""
    if value.bit_length() <= DECIMAL_BITS:
        return str(value)
    return f"-{-value:#x}" if value < 0 else f"{value:#x}"


def constant_text(value: object) -> str:
    """``repr`` of a constant's value, ints by ``int_text`` (``True`` is not ``1``)."""
    return int_text(value) if type(value) is int else repr(value)


def unparse(node: ast.AST) -> str:
    """``ast.unparse``, huge ints written in hex."""
    huge: dict[int, object] = {}
    for below in nodes_below((node,)):
        value = below.value if type(below) is ast.Constant else None
        if type(value) is int and value.bit_length() > DECIMAL_BITS:
            # a name spelled as the literal (unparse writes a name as it is); a negative
            # one (made by folding, never parsed) in parentheses
            text = int_text(value)
            huge[id(below)] = ast.Name(f"({text})" if value < 0 else text)
    if not huge:
        return ast.unparse(node)
    return ast.unparse(copy.deepcopy(node, huge))
