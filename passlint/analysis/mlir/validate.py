"""What MLIR's parser rejects beyond a statement's own syntax, found on the IR of a chunk.

- E003: a use of a value that is not defined in scope (``use of undeclared SSA value
  name``), or, outside graph regions, that is defined only after the use in the same block
  (the verifier's ``operand #N does not dominate this use``; uses across blocks are left
  alone: that needs the control-flow graph);
- E004: a name defined twice while the first definition is visible (``redefinition of SSA
  value``; ``region entry argument ... is already in use`` for a region's arguments);
- E006: a generic op binding more or fewer results than its function type has (``operation
  defines N results but was provided M to bind``), a use of a result number an op does not
  have (``reference to invalid result number``);
- E007: an alias ``#name`` / ``!name`` used and never defined in the chunk;
- E001: a dimension or an integer type's width beyond what MLIR allows (``integers``);
- E008: a successor naming no block of its region, a block label defined twice;
- E001: a function whose braces hold no op (``expected non-empty function body``).

Module bodies and the top level are graph regions (values may be used before they are
defined); every other region is an SSACFG region, as for unregistered ops in MLIR.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from passlint.analysis import codes
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.mlir.integers import out_of_range
from passlint.analysis.mlir.ir import (
    Block,
    BlockArgument,
    Chunk,
    Operation,
    OpResult,
    Region,
    SyntaxIssue,
    Use,
    Value,
)
from passlint.analysis.mlir.lexer import STRING_OR_REST
from passlint.analysis.mlir.op_table import ISOLATED_OPS, MODULE_OPS
from passlint.analysis.mlir.syntax_rules import EMPTY_BODY_ADVICE, empty_body_problem
from passlint.analysis.source import lines_with

if TYPE_CHECKING:
    from passlint.analysis.mlir.fast.statement_memo import Entry
    from passlint.analysis.mlir.memo import MlirMemo
    from passlint.analysis.mlir.template import Template
# Strings and comments are skipped; ``#name`` / ``!name`` not followed by ``<`` and without a
# dot is an alias (``#stablehlo<...>``, ``#sdy.sharding<...>`` are dialect attributes).
_ALIAS_USE = re.compile(
    rf"{STRING_OR_REST}|//[^\r\n]*|(?<![\w$.\-#!])(?P<alias>[#!][A-Za-z_][\w$\-]*)(?![\w$.\-<])"
)
# The third alternative alone, its look-behind moved after the first character so a search
# skips to `#` and `!` at C speed: a chunk without a match has no alias use (most lit tests).
_ALIAS_LIKE = re.compile(r"[#!](?<![\w$.\-#!][#!])[A-Za-z_][\w$\-]*(?![\w$.\-<])")


def validate_chunk(
    text: str,
    chunk: Chunk,
    relocated: dict[int, Entry] | None = None,
    memo: MlirMemo | None = None,
) -> list[SyntaxIssue]:
    """The E003-E008 issues of a parsed chunk, in no particular order.

    Names a statement that does not parse may define are not reported as undeclared: the
    syntax error is the one to fix (MLIR stops at it). ``relocated``: the kept copy of each
    op relocated from one (by id): an isolated op's regions, found clean in one copy, are
    clean in every copy (their uses resolve within them alone)."""
    checker = _Checker(text, relocated or {}, type_counts if memo is None else memo.type_counts)
    if chunk.errors:
        checker.unsure = {
            use.name.split("#", 1)[0]
            for top in chunk.operations
            for op in top.walk()
            if op.template.recovered
            for use in op.operands
        }
    checker.scope(chunk.operations, [], graph=True, entry_arguments=[])
    checker.aliases(chunk)
    return checker.issues + out_of_range(text, chunk.start, chunk.end)


class _Checker:
    def __init__(
        self,
        text: str,
        relocated: dict[int, Entry],
        type_counts: Callable[[Operation], tuple[int | None, int | None]],
    ) -> None:
        self.type_counts = type_counts  # ``type_counts``, or a memo's (by template)
        self.text = text
        self.issues: list[SyntaxIssue] = []
        self.position: dict[int, int] = {}  # id(op) -> index in its block
        self.unsure: set[str] = set()  # names a broken statement may define
        self.groups: dict[int, set[str]] = {}  # id(block) -> the result names it defines
        self.relocated = relocated  # id of an op relocated from a kept copy -> the copy

    def issue(
        self,
        span: tuple[int, int],
        message: str,
        code: str,
        related: Value | None,
        note: str = "first defined here",
    ) -> None:
        related_span = None if related is None else related.span
        self.issues.append(SyntaxIssue(span[0], span[1], message, related_span, code, note))

    # -- definitions -------------------------------------------------------------------------
    def scope(
        self,
        operations: list[Operation],
        visible: list[dict[str, Value]],
        graph: bool,
        entry_arguments: Sequence[BlockArgument],
        region: Region | None = None,
    ) -> None:
        """Check one region (its ops, and nested regions): ``visible`` holds the names
        defined by enclosing regions of the same isolated scope, a chain innermost last (a
        region nested in a 50,000-op body reads that body's names without copying them)."""
        own: dict[str, Value] = {}
        for argument in entry_arguments:
            self.define(argument, visible, own, entry=True)
        if region is not None:
            self.blocks(region, visible, own)
        for index, op in enumerate(operations):
            self.position[id(op)] = index
        # In textual order, as MLIR's parser goes: an op's regions are read before its
        # results are defined (a region may reuse the name of the op's own result).
        for op in operations:
            if not op.template.recovered:
                for use in op.operands:
                    self.use(use, op, graph)
            if op.regions:
                self.regions(op, visible, own)
            groups = set()
            for result in op.results:
                if result.group_name not in groups:
                    groups.add(result.group_name)
                    self.define(result, visible, own, entry=False)
            if op.template.generic and not op.template.recovered:
                self.counts(op)

    def regions(
        self, op: Operation, visible: list[dict[str, Value]], own: dict[str, Value]
    ) -> None:
        """Check the regions of ``op``, unless it is isolated and a copy of it was clean."""
        if op.name == "func.func" and not (op.template.recovered or op.template.generic):
            self.body(op)
        isolated = op.name in ISOLATED_OPS
        entry = self.relocated.get(id(op)) if isolated and not self.unsure else None
        if entry is not None and entry.clean:
            return
        issues = len(self.issues)
        inner = [] if isolated else [*visible, own]
        for nested in op.regions:
            self.scope(
                nested.operations,
                inner,
                graph=op.name in MODULE_OPS,
                entry_arguments=op.header_arguments,
                region=nested,
            )
        if entry is not None:
            entry.clean = len(self.issues) == issues

    def body(self, function: Operation) -> None:
        """A function's braces (custom form) hold at least one op; the one-line ``{}`` is
        the syntax's to report (it reads as a dictionary)."""
        for region in function.regions:
            if not any(block.label or block.operations for block in region.blocks):
                problem = empty_body_problem(bool(function.header_arguments))
                message = f"{problem[0].upper()}{problem[1:]}; {EMPTY_BODY_ADVICE[problem]}."
                self.issue((region.span[0], region.span[0] + 1), message, codes.E001, None)

    def define(
        self, value: Value, visible: list[dict[str, Value]], own: dict[str, Value], entry: bool
    ) -> None:
        name = value.group_name
        first = own.get(name) or next(
            (found for scope in reversed(visible) if (found := scope.get(name)) is not None),
            None,
        )
        if first is not None and first is not value:
            message = (
                f"Region entry argument `{excerpt(name)}` is already in use; rename one of them."
                if entry
                else f"Redefinition of SSA value `{excerpt(name)}`; rename this one or the first."
            )
            self.issue(value.span, message, codes.E004, first)
            return
        own[name] = value

    def blocks(
        self, region: Region, visible: list[dict[str, Value]], own: dict[str, Value]
    ) -> None:
        """Block arguments and labels of a region: each label once, each successor known."""
        labels: dict[str, tuple[int, int]] = {}
        for block in region.blocks:
            for argument in block.arguments:
                self.define(argument, visible, own, entry=False)
            if block.label is None or block.label_span is None:
                continue
            if block.label in labels:
                self.issues.append(
                    SyntaxIssue(
                        *block.label_span,
                        f"Redefinition of block `{excerpt(block.label)}`; rename one of the two "
                        "labels.",
                        labels[block.label],
                        codes.E008,
                        "first defined here",
                    )
                )
            labels.setdefault(block.label, block.label_span)
        for op in region.operations:
            if op.tokens is None:
                continue  # a one-line statement of a simple shape: it names no block
            for tok in op.tokens:
                if tok.kind == "CARET_ID" and self.text[tok.start : tok.end] not in labels:
                    label = self.text[tok.start : tok.end]
                    self.issues.append(
                        SyntaxIssue(
                            tok.start,
                            tok.end,
                            f"Reference to an undefined block `{excerpt(label)}`; define it in "
                            "this region or fix the name.",
                            code=codes.E008,
                        )
                    )

    def counts(self, op: Operation) -> None:
        """A generic op binds as many results as its function type has after ``->``, and
        lists as many operand types as it has operands."""
        operand_types, result_types = self.type_counts(op)
        if op.results and result_types is not None and result_types != len(op.results):
            self.issues.append(
                SyntaxIssue(
                    op.results[0].span[0],
                    op.results[-1].span[1],
                    f"Operation defines {result_types} results but was provided "
                    f"{len(op.results)} to bind; match the result list to the type.",
                    code=codes.E006,
                )
            )
        if operand_types is not None and operand_types != len(op.operands):
            start, end = op.name_span
            self.issues.append(
                SyntaxIssue(
                    start,
                    end,
                    f"Expected {len(op.operands)} operand types but had {operand_types}; "
                    "give one type per operand.",
                    code=codes.E005,
                )
            )

    # -- uses --------------------------------------------------------------------------------
    def use(self, use: Use, user: Operation, graph: bool) -> None:
        name, span, value = use.name, use.span, use.value
        if value is None:
            if name.split("#", 1)[0] in self.unsure:
                return
            if "#" in name and self._defines_group(user, name.split("#", 1)[0]):
                message = (
                    f"Reference to invalid result number in `{excerpt(name)}`; use a result it has."
                )
                self.issue(span, message, codes.E006, None)
                return
            message = (
                f"Use of undeclared SSA value name `{excerpt(name)}`; define it before this use."
            )
            self.issue(span, message, codes.E003, None)
            return
        if graph or not isinstance(value, OpResult) or value.op is None:
            return
        definer = value.op
        block = definer.parent
        ancestor: Operation | None = user
        while ancestor is not None and ancestor.parent is not block:
            ancestor = ancestor.parent_op
        if ancestor is None or block is None:
            return  # defined in another block: dominance needs the control-flow graph
        if self.position.get(id(ancestor), -1) <= self.position.get(id(definer), -1):
            self.issue(
                span,
                f"Operand #{use.operand_index} does not dominate this use; define "
                f"`{excerpt(name)}` before it.",
                codes.E003,
                value,
                "defined here",
            )

    def _defines_group(self, user: Operation, group: str) -> bool:
        """Is ``group`` (``%0`` of ``%0#5``) the name of a result defined around ``user``?"""
        op: Operation | None = user
        while op is not None:
            block = op.parent
            if block is not None and group in self._groups_of(block):
                return True
            op = op.parent_op
        return False

    def _groups_of(self, block: Block) -> set[str]:
        """The result names ``block``'s ops define, read once (each use of an undefined
        ``%x#1`` read the whole block again)."""
        found = self.groups.get(id(block))
        if found is None:
            found = {result.group_name for op in block.operations for result in op.results}
            self.groups[id(block)] = found
        return found

    # -- aliases -----------------------------------------------------------------------------
    def aliases(self, chunk: Chunk) -> None:
        self.issues += alias_issues(self.text, chunk.start, chunk.end, chunk)


def alias_issues(
    text: str, start: int, end: int, chunk: Chunk, order: int | None = None
) -> list[SyntaxIssue]:
    """The alias uses of ``text[start:end]`` in ``chunk`` that are never defined, or defined
    further down where that is not allowed. ``order``: where in the chunk's text the range
    stands, when it is not there itself (a hole of the streaming reader: its placeholder)."""
    issues: list[SyntaxIssue] = []
    for line_start, line_end in _alias_lines(text, start, end):
        _line_aliases(text, line_start, line_end, chunk, order, issues)
    return issues


def _line_aliases(
    text: str, start: int, end: int, chunk: Chunk, order: int | None, issues: list[SyntaxIssue]
) -> None:
    """Uses of aliases never defined, and of aliases defined further down: only an op's
    location may name a location alias defined later (``chunk.alias_values`` holds the
    others), an alias's definition none."""
    defined = chunk.aliases
    deferred = chunk.alias_values if _DEFINES_ALIAS.match(text, start) is None else None
    for match in _ALIAS_USE.finditer(text, start, end):
        name = match.group("alias")
        if name is None:
            continue
        quoted = excerpt(name)
        start, end = match.span("alias")
        definition = defined.get(name)
        later = definition is not None and definition[0] > (start if order is None else order)
        if later and (deferred is None or name in deferred):
            message = (
                f"Alias `{quoted}` is used before its definition; move `{quoted} = ...` "
                "above its first use. MLIR reads it as an undefined symbol alias id."
            )
            issues.append(SyntaxIssue(start, end, message, code=codes.E007))
            continue
        if definition is not None:
            continue
        after = text[end : end + 16].lstrip()
        if after.startswith("=") and not after.startswith("=="):
            continue  # its definition (a broken one, or one the builder did not record)
        if text[max(start - 4, 0) : start] == "loc(":
            message = (
                f"Operation location alias `{quoted}` was never defined; define it, as "
                f'`{quoted} = loc("file":1:1)`.'
            )
        else:
            message = (
                f"Undefined symbol alias id `{quoted}`; define `{quoted} = ...` in the module."
            )
        issues.append(SyntaxIssue(start, end, message, code=codes.E007))


# A line that defines an alias (`#name = ...`, `!name = ...`).
_DEFINES_ALIAS = re.compile(r"[ \t]*[#!][\w$.\-]+[ \t]*=(?!=)")


def _alias_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The lines of ``text[start:end]`` with an alias-like name, even in a string or comment
    (strings and comments end with their line, so each line is read on its own)."""
    return lines_with(_ALIAS_LIKE, text, start, end)


def type_counts(op: Operation) -> tuple[int | None, int | None]:
    """How many operand and result types a generic op's function type lists (None: unclear);
    they depend on the template's token kinds only."""
    template = op.template
    kinds = template.kinds or tuple(tok.kind for tok in op.toks)
    return _counts_of(kinds, template.colon, template.arrow)


def template_type_counts(template: Template) -> tuple[int | None, int | None]:
    """``type_counts`` of any op of ``template`` (one parsed with its kinds)."""
    return _counts_of(template.kinds, template.colon, template.arrow)


def _counts_of(kinds: tuple[str, ...], colon: int, arrow: int) -> tuple[int | None, int | None]:
    if colon < 0 or arrow < 0 or colon + 1 >= len(kinds) or kinds[colon + 1] != "LPAR":
        return None, None
    operands = _list_count(kinds, colon + 1)
    if arrow + 1 >= len(kinds):
        return operands, None
    results = _list_count(kinds, arrow + 1) if kinds[arrow + 1] == "LPAR" else 1
    return operands, results


def _list_count(kinds: tuple[str, ...], open_: int) -> int | None:
    """Entries of the parenthesised list opening at ``open_`` (None when it is not closed)."""
    depth, count, empty = 0, 1, True
    for kind in kinds[open_:]:
        if kind in ("LPAR", "LSQB", "LANGLE", "LBRACE"):
            depth += 1
            if depth == 1:
                continue
        elif kind in ("RPAR", "RSQB", "RANGLE", "RBRACE"):
            depth -= 1
            if depth == 0:
                return 0 if empty else count
        elif kind == "COMMA" and depth == 1:
            count += 1
        if depth >= 1 and kind != "NL":
            empty = False
    return None
