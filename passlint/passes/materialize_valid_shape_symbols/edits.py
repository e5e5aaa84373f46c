"""Byte-minimal, layout-keeping source edits for MaterializeValidShapeSymbols fixes.

A signature written one parameter per line stays so (same indentation, the line's own
line ending); a one-line signature stays on one line. Only the inserted or moved text
changes.
"""

from __future__ import annotations

import ast
import re

from passlint.analysis.findings import TextEdit
from passlint.analysis.pl.model import CallSite, Function, Module, Param
from passlint.analysis.pl.positions import Positions, line_at, starts_line
from passlint.analysis.source import SourceText


def scalar_annotation(module: Module) -> str:
    """``pl.Scalar[pl.INDEX]`` spelled with the module's own alias of pypto.language."""
    for local, full in sorted(module.aliases.items()):
        if full == "pypto.language":
            return f"{local}.Scalar[{local}.INDEX]"
    if module.aliases.get("Scalar") == "pypto.language.Scalar" and "INDEX" in module.aliases:
        return "Scalar[INDEX]"
    if module.aliases.get("pypto") == "pypto":
        return "pypto.language.Scalar[pypto.language.INDEX]"
    return "pl.Scalar[pl.INDEX]"


def _insertion(source: SourceText, at: int, items: list[str]) -> str:
    """``item, `` per item, or ``item,<line ending><indent>`` when ``at`` starts its line."""
    line = line_at(source, at)
    if starts_line(source.text, line, at):
        indent = source.text[line.start : at]
        return "".join(f"{item},{line.newline}{indent}" for item in items)
    return "".join(f"{item}, " for item in items)


def leading_params(kernel: Function, module: Module, pos: Positions, names: list[str]) -> TextEdit:
    """Insert ``NAME: pl.Scalar[pl.INDEX]`` params in front of the kernel's first param."""
    annotation = scalar_annotation(module)
    declarations = [f"{name}: {annotation}" for name in names]
    text = module.text
    if kernel.params:
        at = pos.start(kernel.params[0].node)
        new_text = _insertion(pos.source, at, declarations)
    else:
        args = kernel.node.args
        first = [*args.posonlyargs, *args.args]
        if kernel.has_self and first:
            at = pos.end(first[0])
            new_text = ", " + ", ".join(declarations)
        else:
            at = text.find("(", pos.start(kernel.node)) + 1
            new_text = ", ".join(declarations)
    return TextEdit(module.path, pos.source.range(at, at), new_text)


def declaration(module: Module, pos: Positions, at: int, text: str) -> TextEdit:
    """Insert ``text`` (a declaration on a line of its own) at offset ``at``."""
    return TextEdit(module.path, pos.source.range(at, at), text)


def renamed(
    module: Module, pos: Positions, reads: tuple[ast.Name, ...], name: str
) -> list[TextEdit]:
    """Read ``name`` at each of ``reads`` (names of one symbol in a kernel)."""
    return [TextEdit(module.path, pos.range(read), name) for read in reads]


def call_extents(site: CallSite, module: Module, pos: Positions, texts: list[str]) -> TextEdit:
    """Prepend the extents to the kernel's arguments at one call site."""
    if site.insert_at >= 0:
        at = site.insert_at
        new_text = _insertion(pos.source, at, texts)
    elif site.form == "call":
        at = site.span[1] - 1
        new_text = ", ".join(texts)
    else:
        at = pos.end(site.node.args[0])
        new_text = ", " + ", ".join(texts)
    return TextEdit(module.path, pos.source.range(at, at), new_text)


# What may follow a parameter alone on its line: a comma, a comment.
_REST_OF_LINE = re.compile(r"\s*,*\s*(?:#.*)?\Z", re.DOTALL)


def move_param(
    kernel: Function, module: Module, pos: Positions, late: Param, first_reader: Param
) -> list[TextEdit]:
    """Move ``late`` in front of ``first_reader`` (VS005), keeping the signature layout."""
    text = module.text
    params = kernel.params
    start, end = pos.span(late.node)
    target = pos.start(first_reader.node)
    line, target_line = line_at(pos.source, start), line_at(pos.source, target)
    own_line = starts_line(text, line, start) and _REST_OF_LINE.match(text, end, line.end)
    if own_line and starts_line(text, target_line, target):
        rest = text[end : line.end]
        if rest.lstrip().startswith(","):
            moved = text[start : line.end].rstrip()
        else:
            moved = text[start:end] + "," + rest.rstrip()
        indent = text[target_line.start : target]
        return [
            TextEdit(
                module.path, pos.source.range(target, target), moved + target_line.newline + indent
            ),
            TextEdit(module.path, pos.source.range(line.start, line.end + len(line.ending)), ""),
        ]
    moved = text[start:end]
    insert = _insertion(pos.source, target, [moved])
    following = next((p for p in params if p.index == late.index + 1), None)
    previous = next((p for p in params if p.index == late.index - 1), None)
    if following is not None:
        delete = (start, pos.start(following.node))
    else:
        assert previous is not None
        delete = (pos.end(previous.node), end)
    return [
        TextEdit(module.path, pos.source.range(target, target), insert),
        TextEdit(module.path, pos.source.range(*delete), ""),
    ]
