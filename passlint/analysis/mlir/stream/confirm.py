"""What the parse of a hollowed text must show before its findings are the file's.

- Each placeholder is an op of its own, spanning its line, at the top level of the function
  the scan put its hole in (a ``func.func`` starting and ending where the scan saw it): so
  the hole's lines were whole statements there, and every line outside the holes of that
  function was seen by the scan (its names exported).
- The names the scan took for a function's arguments are its arguments.
- No issue of how names resolve (E003, E004, E006, E008) lies in a function with holes, and no
  issue points at a placeholder: the hole lines' names resolve as the scan found.
- No value a function returns is a placeholder's: the passes read those ops.
- The alias uses on the hole lines are defined where they must be (``validate.alias_issues``
  at the placeholder's place).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passlint.analysis import codes
from passlint.analysis.mlir.ir import Chunk, Operation, OpResult, ParsedFile, SyntaxIssue
from passlint.analysis.mlir.op_table import FUNC_RETURN_OPS
from passlint.analysis.mlir.stream.scan import PLACEHOLDER, Holes
from passlint.analysis.mlir.stream.windows import WINDOW
from passlint.analysis.mlir.validate import alias_issues

if TYPE_CHECKING:
    from passlint.analysis.mlir.stream.hollowed import Hollowed
    from passlint.analysis.mlir.stream.scan import Source

# The codes of how names resolve (what the scan settles for hole lines).
_NAME_CODES = frozenset((codes.E003, codes.E004, codes.E006, codes.E008))


def confirm(parsed: ParsedFile, hollowed: Hollowed, holes: Holes, source: Source) -> bool:
    """Does the parse of ``hollowed`` (``source``'s, with ``holes``) stand for the file's?"""
    placeholders = [op for chunk in parsed.chunks for op in _placeholders(chunk.operations)]
    if [op.span for op in placeholders] != hollowed.placeholders:
        return False
    at = 0
    for function, span in zip(holes.functions, hollowed.functions, strict=True):
        own = placeholders[at : at + len(function.holes)]
        at += len(function.holes)
        owner = own[0].parent_op
        if owner is None or owner.name != "func.func" or owner.span != span:
            return False
        blocks = [id(block) for block in owner.regions[0].blocks]
        if any(op.parent_op is not owner or id(op.parent) not in blocks for op in own):
            return False
        if not function.arguments <= _argument_names(owner) or _returns_placeholder(owner):
            return False
    issues = [issue for chunk in parsed.chunks for issue in chunk.errors]
    if any(_touches(issue, hollowed) for issue in issues):
        return False
    return _aliases_defined(parsed, hollowed, holes, source)


def _placeholders(operations: list[Operation]) -> list[Operation]:
    """The placeholder ops among ``operations`` and in their regions, in text order."""
    found: list[Operation] = []
    for top in operations:
        found.extend(op for op in top.walk() if op.name == PLACEHOLDER)
    return found


def _argument_names(function: Operation) -> set[str]:
    """The names of a function's arguments: its header's, or its entry block's."""
    names = {argument.name for argument in function.header_arguments}
    if function.regions and function.regions[0].blocks:
        names.update(argument.name for argument in function.regions[0].blocks[0].arguments)
    return names


def _returns_placeholder(function: Operation) -> bool:
    """Does the function's return (as the pass finds it) return a placeholder's value?"""
    blocks = function.regions[0].blocks
    ret = next(
        (
            op
            for block in reversed(blocks)
            for op in reversed(block.operations)
            if op.name in FUNC_RETURN_OPS
        ),
        None,
    )
    if ret is None:
        return False
    return any(
        isinstance(use.value, OpResult)
        and use.value.op is not None
        and use.value.op.name == PLACEHOLDER
        for use in ret.operands
    )


def _touches(issue: SyntaxIssue, hollowed: Hollowed) -> bool:
    """Is ``issue`` one the holes could change: about names, in a function with holes, or
    at a placeholder?"""
    spans = [(issue.start, issue.end)]
    if issue.related is not None:
        spans.append(issue.related)
    for start, end in hollowed.placeholders:
        if any(a <= end and start <= b for a, b in spans):
            return True
    if issue.code in _NAME_CODES:
        return any(start <= issue.start < end for start, end in hollowed.functions)
    return False


def _aliases_defined(parsed: ParsedFile, hollowed: Hollowed, holes: Holes, source: Source) -> bool:
    """Are the alias uses of every hole line defined where they must be?"""
    placeholder = iter(hollowed.placeholders)
    for function in holes.functions:
        for hole in function.holes:
            order = next(placeholder)[0]
            chunk = parsed.chunks[hole.chunk] if hole.chunk < len(parsed.chunks) else None
            if chunk is None or not _hole_aliases_defined(
                source, hole.start, hole.end, chunk, order
            ):
                return False
    return True


def _hole_aliases_defined(source: Source, start: int, end: int, chunk: Chunk, order: int) -> bool:
    """``_aliases_defined`` for one hole, read a window at a time (cut at line breaks)."""
    while start < end:
        cut = source.find(b"\n", min(start + WINDOW, end), end)
        stop = end if cut < 0 else cut + 1
        text = source[start:stop].decode("utf-8")
        if ("#" in text or "!" in text) and alias_issues(text, 0, len(text), chunk, order):
            return False
        start = stop
    return True
