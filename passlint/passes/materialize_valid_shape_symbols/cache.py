"""Reuse of a kernel's findings across analyses of edited texts (the server re-analyses a
module on every edit; most of its kernels did not change).

A kernel's findings depend on its own outermost statement (the top-level function or class
member holding it), on those holding a call by its name, and on the module's other
definitions (``environment``); a unit computed without reading any other file is stored
under that key (in the caller's ``PlMemo``: a ``UnitMemo``) and reused while the key is
the same. Nothing here knows what the findings say: the pass hands in what to compute.
"""

from __future__ import annotations

import ast
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from passlint.analysis.findings import Finding
from passlint.analysis.pl.memo import Clearable
from passlint.analysis.pl.model import CallSite, Function, Module
from passlint.analysis.pl.walk import nodes_below
from passlint.analysis.source import has_lone_cr

_UNIT_CACHE_SIZE = 20_000
T = TypeVar("T")


@dataclass(frozen=True)
class KernelUnit:
    """A kernel's own findings, and per call of it in its module (in module order) the
    findings at that call; ``sites`` is None when it has no unbound symbol (no such
    findings)."""

    findings: tuple[Finding, ...]
    sites: tuple[tuple[Finding, ...], ...] | None


class UnitMemo(Clearable):
    """The kernels' units by key (``units``), the names of their unbound symbols by the same
    key (``unbound``: what the rebinding rule asks of every other reader of a symbol), and the
    numbers standing for the keys' larger parts (``numbers``; ``_number``), kept in a
    ``PlMemo`` (``PlMemo.part``)."""

    def __init__(self) -> None:
        self.units: dict[tuple[object, ...], KernelUnit] = {}
        self.unbound: dict[tuple[object, ...], frozenset[str]] = {}
        self.numbers: dict[tuple[object, ...], int] = {}
        self.names: dict[str, tuple[str, ...]] = {}  # a statement's text -> the names it reads
        self.counter = itertools.count(1)  # never reset: a number is never handed out twice

    def clear(self) -> None:
        self.units.clear()
        self.unbound.clear()
        self.numbers.clear()
        self.names.clear()


class UnitKeys:
    """The keys in ``memo`` of one module's kernels."""

    def __init__(self, module: Module, with_workspace: bool, memo: UnitMemo) -> None:
        self.module = module
        self.with_workspace = with_workspace
        self.memo = memo
        self._env: int | None = None
        self._homes: dict[int, tuple[int, str, str | None]] = {}
        self._lines: list[str] | None = None
        self._programs: dict[int, int] = {}

    def key(self, kernel: Function, callers: list[CallSite]) -> tuple[object, ...] | None:
        """What ``kernel``'s findings depend on within its module; None when the module's
        text is not plain enough to cut so (lone carriage returns)."""
        if self._env is None:
            if has_lone_cr(self.module.text):
                return None
            self._env = _environment(self.memo, self.module, self.with_workspace)
        homes: dict[int, tuple[int, str, str | None]] = {}
        for site in callers:
            outer = site.caller.outermost()
            if id(outer) not in homes:
                homes[id(outer)] = self._home(outer)
        node = kernel.node
        return (
            self._env,
            self._home(kernel.outermost()),
            node.lineno,
            node.col_offset,
            kernel.name,
            tuple(homes.values()),
            self._program(kernel),
        )

    def _program(self, kernel: Function) -> int | None:
        """A number for what the kernel's program reads, member by member in order: whether
        the VS001 fix may name its parameter as its symbol depends on which other members
        read that symbol, before or after it (``rebinding``). Names only, so an edit that
        changes no name (a blank, a comment, a number) keeps the other kernels' findings."""
        if kernel.owner is None:
            return None
        found = self._programs.get(id(kernel.owner))
        if found is None:
            members = tuple(
                (index, self._names_of(member))
                for index, member in enumerate(kernel.owner.node.body)
            )
            found = self._programs[id(kernel.owner)] = _number(self.memo, ("program", members))
        return found

    def _names_of(self, member: ast.stmt) -> tuple[str, ...]:
        """The names ``member`` reads, sorted; looked up by its text (the members an edit
        did not touch are not walked again)."""
        text = _statement_text(self._text_lines(), member)[1]
        names = self.memo.names
        found = names.get(text)
        if found is None:
            if len(names) >= _UNIT_CACHE_SIZE:
                names.clear()
            found = names[text] = tuple(sorted(_names_read(member)))
        return found

    def _text_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.module.text.split("\n")
        return self._lines

    def _home(self, outer: Function) -> tuple[int, str, str | None]:
        found = self._homes.get(id(outer))
        if found is None:
            start, text = _statement_text(self._text_lines(), outer.node)
            found = self._homes[id(outer)] = (start, text, outer.program)
        return found


def cached(
    table: dict[tuple[object, ...], T],
    key: tuple[object, ...] | None,
    compute: Callable[[], T],
    reads_others: Callable[[], bool],
) -> T:
    """The value under ``key`` in ``table`` (one of a ``UnitMemo``'s), else ``compute()``'s,
    stored when ``reads_others()`` (asked after computing) says it read no other file."""
    found = table.get(key) if key is not None else None
    if found is not None:
        return found
    value = compute()
    if key is not None and not reads_others():
        if len(table) >= _UNIT_CACHE_SIZE:
            table.clear()
        table[key] = value
    return value


def _statement_text(lines: list[str], node: ast.stmt) -> tuple[int, str]:
    """The first line of a statement (its first decorator's) and its text."""
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    return start, "\n".join(lines[start - 1 : node.end_lineno or node.lineno])


def _environment(memo: UnitMemo, module: Module, with_workspace: bool) -> int:
    """A number standing for everything of ``module`` a kernel may read besides its own
    statement and its callers': path, pypto aliases, every top-level statement other than
    a def (text and line), each def's name, each class's header and members (a def by
    name, anything else by text and line)."""
    lines = module.text.split("\n")

    def text(node: ast.stmt) -> tuple[int, str]:
        return _statement_text(lines, node)

    def defs(body: list[ast.stmt]) -> list[object]:
        # A def by name; where the name is defined twice, which one wins (the later) also
        # depends on where each is, so then by line too.
        names = [s.name for s in body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
        twice = {name for name, count in Counter(names).items() if count > 1}
        out: list[object] = []
        for item in body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                where = item.lineno if item.name in twice else None
                out.append(("def", item.name, where))
            elif isinstance(item, ast.ClassDef):
                start = text(item)[0]
                first = text(item.body[0])[0] if item.body else item.lineno + 1
                header = "\n".join(lines[start - 1 : max(first - 1, item.lineno)])
                out.append(("class", start, header, tuple(defs(item.body))))
            else:
                out.append(text(item))
        return out

    parts: list[object] = [module.path, with_workspace, tuple(sorted(module.aliases.items()))]
    parts.extend(defs(module.tree.body))
    return _number(memo, tuple(parts))


def _names_read(node: ast.AST) -> set[str]:
    """Every name and attribute name written in ``node``."""
    found: set[str] = set()
    for child in nodes_below((node,)):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.Attribute):
            found.add(child.attr)
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(child.name)
    return found


def _number(memo: UnitMemo, key: tuple[object, ...]) -> int:
    """A number standing for ``key``, the same while it is the same."""
    numbers = memo.numbers
    found = numbers.get(key)
    if found is None:
        if len(numbers) >= _UNIT_CACHE_SIZE:
            numbers.clear()
        found = next(memo.counter)  # never handed out twice
        numbers[key] = found
    return found
