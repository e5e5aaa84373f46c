"""pypto's rebinding rule, for the VS001 fix: which other functions would read a symbol
differently once the kernel has its leading parameter.

A ``X: pl.Scalar[pl.INDEX]`` parameter takes over the ``pl.dynamic`` held by Python name
``X`` (``ast_parser.ASTParser._bind_dynvar_to_scalar_param`` points the DynVar's ``_ir_var``
at the parameter), and the DynVar keeps it: every annotation and body pypto parses after the
kernel reads the kernel's parameter where it read the symbol all functions of the program
shared (``type_resolver._validate_shape_value``, ``expr_evaluator.get_or_create_dynvar``).
The functions parsed before the kernel keep the shared symbol. So when some are parsed before
it and some after, two functions that read one symbol now read two: a call between them,
which bound the symbol to itself (``BindCallTypeVar`` skips that), now binds it to another
value and a second argument to a third (``DeduceCallReturnType``: "conflicting bindings ...
not provably equal"), and the program no longer builds.

Parse order is the order of the program's methods (``decorator.py``, ``_parse_program_body``),
and for a standalone kernel the order in which definitions run (their order in the source).
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from passlint.analysis.pl.memo import Clearable, PlMemo
from passlint.analysis.pl.model import Dynamic, Function, Module, Program
from passlint.analysis.pl.positions import line_at, starts_line
from passlint.analysis.pl.resolve import RDynamic, Resolver
from passlint.analysis.pl.walk import nodes_below

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass(frozen=True)
class Rebinding:
    """The fix's parameter for ``dynamic`` would split its readers: ``before`` (parsed
    before the kernel: they keep the shared symbol) and ``after`` (they read the kernel's
    parameter from then on); a few of each, by name, and how many there are.

    ``renamed``: the kernel's own ``pl.dynamic`` for the symbol instead (``_renamed``), or
    None when there can be none."""

    dynamic: Dynamic
    before: tuple[str, ...]
    after: tuple[str, ...]
    before_count: int
    after_count: int
    renamed: _Renamed

    @property
    def fresh(self) -> str | None:
        return self.renamed[0] if self.renamed is not None else None


# Readers of one symbol in one parse group: their offsets (sorted) and functions.
_Group = tuple[list[int], list[Function]]
# A kernel's own pl.dynamic: its name, (offset, text) of its declaration, the reads to rename.
_Renamed = tuple[str, tuple[int, str], tuple[ast.Name, ...]] | None

SHOWN = 3  # readers named in a message, on each side


class ReadsMemo(Clearable):
    """The names each parsed root (an annotated parameter, a statement of a body) reads, by
    the root's node (a ``PlMemo`` part): the front end reuses the trees of the statements
    an edit left alone, which are then not walked again."""

    _SIZE = 50_000

    def __init__(self) -> None:
        self.names: dict[int, tuple[ast.AST, frozenset[str]]] = {}  # id(node) -> node, names

    def clear(self) -> None:
        self.names.clear()

    def read_by(self, node: ast.AST) -> frozenset[str]:
        found = self.names.get(id(node))
        if found is not None and found[0] is node:
            return found[1]
        if len(self.names) >= self._SIZE:
            self.names.clear()
        names = _names_read((node,))
        self.names[id(node)] = (node, names)
        return names


def _names_read(roots: Iterable[ast.AST]) -> frozenset[str]:
    """The Python names read in ``roots`` (nested definitions are their own)."""
    return frozenset(n.id for n in nodes_below(roots, _DEFS) if type(n) is ast.Name)


class NameReads:
    """The decorated functions of a module whose text reads each Python name (annotations
    and body; nested definitions are their own), by program: syntax only, so one index
    serves every run over the module (each parametrized case's).

    A name is looked up when first asked about: the functions whose text spells it (when
    the text spells every name as CPython reads it), and of those only the parameters and
    statements holding it are walked."""

    def __init__(self, module: Module, memo: PlMemo | None = None) -> None:
        self.module = module
        self._read_by = memo.part(ReadsMemo).read_by if memo is not None else None
        self._functions = [f for f in module.functions if f.decorated]
        self._order = {id(f): index for index, f in enumerate(self._functions)}
        self._starts: tuple[list[int], list[Function]] | None = None  # every function's
        self._roots: dict[int, list[ast.AST]] = {}  # per function, in source order
        self._walked: dict[int, frozenset[str]] = {}  # per root, without a memo
        self._walked_all: dict[str, list[Function]] | None = None  # by name, every function
        self._asked: set[str] = set()
        self._names: dict[tuple[str, int | None], list[Function]] = {}

    def readers(self, name: str, program: Program | None) -> list[Function]:
        """The functions reading ``name``: the methods of ``program``, or (None) all."""
        if name not in self._asked:
            self._asked.add(name)
            for function in self._reading(name):
                self._names.setdefault((name, None), []).append(function)
                if function.owner is not None:
                    self._names.setdefault((name, id(function.owner)), []).append(function)
        return self._names.get((name, id(program) if program is not None else None), [])

    def _reading(self, name: str) -> list[Function]:
        if not self.module.names_as_written:  # (a spelling may not be the name: walk all, once)
            if self._walked_all is None:
                self._walked_all = {}
                for function in self._functions:
                    for read in frozenset().union(*map(self._read_in, _roots(function.node))):
                        self._walked_all.setdefault(read, []).append(function)
            return self._walked_all.get(name, [])
        starts = self.module.positions.source.line_starts
        spelled: dict[int, tuple[Function, list[ast.AST]]] = {}  # by id: roots spelling it
        for at in self.module.spellings.of(name):
            for function in self._around(bisect.bisect_right(starts, at)):
                root = self._root_at(function, at)
                if root is not None:
                    roots = spelled.setdefault(id(function), (function, []))[1]
                    if not roots or roots[-1] is not root:
                        roots.append(root)
        found = [f for f, roots in spelled.values() if any(name in self._read_in(r) for r in roots)]
        found.sort(key=lambda f: self._order[id(f)])
        return found

    def _root_at(self, function: Function, offset: int) -> ast.AST | None:
        """The root of ``function`` (``_roots``, in source order) whose text holds character
        ``offset``."""
        roots = self._roots.get(id(function))
        if roots is None:
            roots = self._roots[id(function)] = _roots(function.node)
        positions = self.module.positions
        index = bisect.bisect_right(roots, offset, key=positions.start) - 1
        if index < 0 or offset >= positions.end(roots[index]):
            return None
        return roots[index]

    def _around(self, line: int) -> list[Function]:
        """The decorated functions whose text holds 1-based ``line``: the innermost function
        holding it (the last to start on or before it, or one around that) and those
        around it."""
        if self._starts is None:
            every = sorted(self.module.functions, key=lambda f: f.node.lineno)
            self._starts = ([f.node.lineno for f in every], every)
        lines, every = self._starts
        index = bisect.bisect_right(lines, line) - 1
        function = every[index] if index >= 0 else None
        found: list[Function] = []
        while function is not None:
            if function.decorated and line <= (function.node.end_lineno or function.node.lineno):
                found.append(function)
            function = function.parent
        return found

    def _read_in(self, root: ast.AST) -> frozenset[str]:
        """The names ``root`` reads (kept by the session's memo, else by this index)."""
        if self._read_by is not None:
            return self._read_by(root)
        found = self._walked.get(id(root))
        if found is None:
            found = self._walked[id(root)] = _names_read((root,))
        return found


class Readers:
    """The DSL functions of a module that read each ``pl.dynamic``, by parse group (one
    program, or the standalone functions), for one run's resolver (``reads``: the module's
    name index, the caller's). ``takes_over(function, dynamic)``: whether the function's
    own VS001 fix gives it the parameter too (then it reads its own parameter, wherever it
    is parsed)."""

    def __init__(
        self,
        module: Module,
        resolver: Resolver,
        takes_over: Callable[[Function, Dynamic], bool],
        reads: NameReads,
    ) -> None:
        self.module = module
        self.resolver = resolver
        self.takes_over = takes_over
        self.reads = reads
        self._groups: dict[tuple[str, int, bool, Dynamic], _Group] = {}

    def split(self, kernel: Function, dynamic: Dynamic) -> Rebinding | None:
        """How a leading parameter for ``dynamic`` in ``kernel`` splits the other readers of
        its Python name; None when it does not (all of them on one side)."""
        at = self.module.positions.start(kernel.node)
        # A standalone kernel can be called by any function defined after it, and by the
        # standalone functions defined before it (a program's methods run after its class).
        after_offsets, after = self._group(kernel.owner, dynamic, False)
        before_offsets, before = self._group(kernel.owner, dynamic, kernel.owner is None)
        first_after = bisect.bisect_right(after_offsets, at)
        last_before = bisect.bisect_left(before_offsets, at)
        if not last_before or first_after == len(after_offsets):
            return None
        return Rebinding(
            dynamic,
            tuple(f.name for f in before[max(0, last_before - SHOWN) : last_before]),
            tuple(f.name for f in after[first_after : first_after + SHOWN]),
            last_before,
            len(after_offsets) - first_after,
            self._renamed(kernel, dynamic),
        )

    def _group(self, program: Program | None, dynamic: Dynamic, standalone: bool) -> _Group:
        """The readers of ``dynamic`` in parse order with a kernel of ``program``: the
        program's methods, or (a standalone kernel) the module's functions (``standalone``:
        only those outside programs). The kernels its own VS001 fix gives the parameter,
        and functions with a parameter of its name, read their own parameter instead."""
        key = (dynamic.name, id(program), standalone, dynamic)
        found = self._groups.get(key)
        if found is not None:
            return found
        readers: list[tuple[int, Function]] = []
        for function in self.reads.readers(dynamic.name, program):
            if standalone and function.owner is not None:
                continue
            if function.param(dynamic.name) is not None or self.takes_over(function, dynamic):
                continue
            meaning = self.resolver.resolve_in_definition(dynamic.name, self.module, function)
            if isinstance(meaning, RDynamic) and meaning.dynamic == dynamic:
                readers.append((self.module.positions.start(function.node), function))
        readers.sort(key=lambda r: r[0])
        found = ([r[0] for r in readers], [r[1] for r in readers])
        self._groups[key] = found
        return found

    def _renamed(self, kernel: Function, dynamic: Dynamic) -> _Renamed:
        """The kernel's own ``pl.dynamic`` for the symbol: a free name, the declaration to
        add after ``dynamic``'s (Python evaluates the annotations, so the name must exist;
        its DynVar, read by the kernel alone, is what its parameter takes over), and the
        kernel's reads of ``dynamic`` to read it instead. None when the kernel assigns the
        name, the name is taken, or ``dynamic`` is not a plain ``NAME = pl.dynamic(...)``
        statement of this module."""
        names = [n for n in nodes_below(_roots(kernel.node), _DEFS) if type(n) is ast.Name]
        reads = [n for n in names if n.id == dynamic.name]
        if any(not isinstance(n.ctx, ast.Load) for n in reads):
            return None  # the kernel assigns the name: its reads are not all the symbol
        fresh = f"{dynamic.name}_{kernel.name}"
        taken = {n.id for n in names} | {p.name for p in kernel.params}
        if fresh in taken or self.resolver.resolve_in_definition(fresh, self.module, kernel):
            return None
        declaration = self._declaration(dynamic, fresh)
        if declaration is None:
            return None
        reads.sort(key=lambda n: (n.lineno, n.col_offset))
        return fresh, declaration, tuple(reads)

    def _declaration(self, dynamic: Dynamic, fresh: str) -> tuple[int, str] | None:
        """Where and what to insert to declare ``fresh`` as ``dynamic`` is declared: on the
        line after its statement, with its indentation."""
        if dynamic.path != self.module.path:
            return None
        text, source = self.module.text, self.module.positions.source
        start, end = dynamic.span
        try:
            [statement] = ast.parse(text[start:end]).body
        except (SyntaxError, ValueError):
            return None
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == dynamic.name
            and isinstance(statement.value, ast.Call)
        ):
            return None
        value = ast.get_source_segment(text[start:end], statement.value)
        first, last = line_at(source, start), line_at(source, end)
        if value is None or not starts_line(text, first, start):
            return None
        indent = text[first.start : start]
        return last.end, f"{last.newline}{indent}{fresh} = {value}"


def _roots(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """What pypto parses of a function, in source order: its parameters (with their
    annotations), return type, body."""
    args = node.args
    returns: list[ast.AST] = [node.returns] if node.returns is not None else []
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *returns, *node.body]
