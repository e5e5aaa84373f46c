"""Python ``ast`` -> the pl model (programs, kernels, params, symbols, call sites).

The text is parsed, never imported, compiled to bytecode or executed.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from passlint.analysis.findings import Position
from passlint.analysis.pl.excerpt import excerpt
from passlint.analysis.pl.model import (
    Assignment,
    Bound,
    CallBinding,
    CallSite,
    Direction,
    Dynamic,
    Function,
    ImportRef,
    Module,
    ModuleRef,
    OutlinedScope,
    Param,
    Program,
    Scope,
    SyntaxProblem,
    TensorAnnotation,
    TensorView,
    Where,
)
from passlint.analysis.pl.positions import Positions
from passlint.analysis.pl.python_text import bom_length, decoding_problem, parser_text
from passlint.analysis.pl.walk import blocks, flat_statements, names_below, nodes_below
from passlint.analysis.source import SourceText

PL = "pypto.language"
PLD = "pypto.language.distributed"
TENSOR_TYPES = frozenset({"Tensor", "DistributedTensor"})

_Def = ast.FunctionDef | ast.AsyncFunctionDef
_SCOPE_BARRIERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_SUBMITS = frozenset({"submit", "spmd_submit"})
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def parse_text(path: str, text: str) -> ast.Module | SyntaxProblem:
    """Parse ``text`` as CPython parses a file of it (``python_text``) with ``ast``, or
    describe why it does not parse (character offsets in ``text``)."""
    problem = decoding_problem(text)
    if problem is not None:
        return SyntaxProblem(*problem)
    try:
        with warnings.catch_warnings():
            # The compiler's warnings about the user's code (``"\d"``, ``1_a``, ``x is 1``)
            # are not passlint's to print on stderr.
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return ast.parse(parser_text(text), filename=path, type_comments=False)
    except SyntaxError as error:
        return _syntax_problem(text, error)
    except (ValueError, RecursionError, MemoryError) as error:
        return SyntaxProblem(f"cannot parse the file: {error}", (0, min(len(text), 1)))


def _syntax_problem(text: str, error: SyntaxError) -> SyntaxProblem:
    """The problem of ``error`` (1-based lines, 1-based character columns of the text the
    parser read) in ``text``."""
    source = SourceText(text)
    bom = bom_length(text)

    def offset(lineno: int, column: int) -> int:
        line = max(lineno - 1, 0)
        return source.offset(Position(line, max(column - 1, 0) + (bom if line == 0 else 0)))

    start = offset(error.lineno or 1, error.offset or 1)
    end = start
    if error.end_lineno is not None and error.end_offset is not None and error.end_offset > 0:
        end = offset(error.end_lineno, error.end_offset)
    message = error.msg or "invalid syntax"
    if not error.offset and message.startswith("Exceeds the limit"):
        # CPython names the line of a too long decimal literal, not its column
        start, end = _long_decimal(text, start) or (start, end)
    if end <= start:
        end = min(start + 1, len(text))
        if end == start and start > 0:  # at the very end: underline the last character
            start -= 1
    return SyntaxProblem(excerpt(message, 300), (start, end))


def _long_decimal(text: str, line_start: int) -> tuple[int, int] | None:
    """The span of the first decimal int literal from ``line_start`` on that has more
    digits than ``int`` may turn into (``sys.get_int_max_str_digits``)."""
    limit = sys.get_int_max_str_digits()
    pattern = rf"(?<![\w.])[0-9](?:_?[0-9]){{{limit},}}(?![\w.])"
    found = re.compile(pattern).search(text, line_start) if limit else None
    return found.span() if found is not None else None


def collect_aliases(tree: ast.Module, memo: ModelMemo | None = None) -> tuple[dict[str, str], bool]:
    """Local names of pypto imports -> dotted paths, and whether pypto.language is imported."""
    aliases: dict[str, str] = {}
    is_pl = False
    for node in _imports_in(tree.body, memo):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name != "pypto" and not alias.name.startswith("pypto."):
                    continue
                if alias.name == PL or alias.name.startswith(PL + "."):
                    is_pl = True
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    aliases["pypto"] = "pypto"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            module = node.module
            if module != "pypto" and not module.startswith("pypto."):
                continue
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if full == PL or full.startswith(PL + ".") or module.startswith(PL):
                    is_pl = True
                if alias.name != "*":
                    aliases[alias.asname or alias.name] = full
    return aliases, is_pl


def canonical(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """``pl.tensor.view`` -> ``pypto.language.tensor.view`` (None for non-pypto names)."""
    if type(node) is ast.Attribute and type(node.value) is ast.Name:  # the usual ``pl.X``
        base = aliases.get(node.value.id)
        return None if base is None else f"{base}.{node.attr}"
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    parts.append(aliases[node.id])
    return ".".join(reversed(parts))


_PL_PREFIXES = (PLD + ".", PL + ".")


def pl_name(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """The name below ``pypto.language`` / ``pypto.language.distributed`` (``tensor.view``)."""
    full = canonical(node, aliases)
    if full is None:
        return None
    for prefix in _PL_PREFIXES:
        if full.startswith(prefix):
            return full[len(prefix) :]
    return None


def build_module(
    path: str, text: str, tree: ast.Module, memo: ModelMemo | None = None
) -> Module | None:
    """The model of a parsed text, or None when it does not import pypto.language;
    ``memo`` reuses the models of functions whose nodes it has seen (``ModelMemo``)."""
    aliases, is_pl = collect_aliases(tree, memo)
    if not is_pl:
        return None
    return _Builder(path, text, tree, aliases, memo).build()


_FunctionKey = tuple[int, str, str | None, bool, tuple[tuple[str, str], ...]]
_FUNCTION_CACHE_SIZE = 20_000
_IMPORT_CACHE_SIZE = 20_000


@dataclass
class _Built:
    """A function's model with the functions and programs defined inside it."""

    node: _Def
    base: int  # the offset of the node's first line when it was built
    root: Function
    functions: list[Function]
    programs: list[Program]


class ModelMemo:
    """What ``build_module`` keeps between texts (part of a ``PlMemo``).

    ``functions``: the model of each function that no function encloses (top-level defs,
    methods of top-level classes, defs in top-level ``if``/``with`` blocks), with everything
    nested in it, built once per parsed node. Nodes come from the piece memo (pieces.py),
    which hands out the same node exactly while the piece's text and first line are
    unchanged; the node is kept in the entry and compared by identity (never by a reused
    id). Character offsets in the model are stored for the text the entry was built in and
    shifted when text above the piece grew or shrank (same lines, same text).

    ``imports``: the imports inside each function, by node (kept and compared alike)."""

    def __init__(self) -> None:
        self.functions: dict[_FunctionKey, _Built] = {}
        self.imports: dict[int, tuple[_Def, tuple[ast.Import | ast.ImportFrom, ...]]] = {}

    def clear(self) -> None:
        self.functions.clear()
        self.imports.clear()


def _where(stmt: ast.stmt) -> Where:
    return stmt.lineno, stmt.col_offset


class _Builder:
    def __init__(
        self,
        path: str,
        text: str,
        tree: ast.Module,
        aliases: dict[str, str],
        memo: ModelMemo | None,
    ) -> None:
        self.path = path
        self.memo = memo
        self.text = text
        self.tree = tree
        self.aliases = aliases
        self.pos = Positions(SourceText(text))
        self.functions: list[Function] = []
        self.programs: list[Program] = []
        self._alias_key = tuple(sorted(aliases.items()))

    def build(self) -> Module:
        module = Module(self.path, self.text, self.tree, self.aliases, Scope())
        module.built_positions = self.pos
        module.postponed = _postpones_annotations(self.tree)
        for stmt in flat_statements(self.tree.body):
            self._scope_statement(module.scope, stmt)
            self._definition(module.scope, stmt, None)
        module.functions = self.functions
        module.programs = self.programs
        return module

    def _definition(self, scope: Scope, stmt: ast.stmt, parent: Function | None) -> None:
        """A def or class statement in a module or function body (``parent``)."""
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            function = self._cached_function(stmt, parent, None, in_class=False)
            scope.bind(stmt.name, Bound(_where(stmt), "function", function))
        elif isinstance(stmt, ast.ClassDef):
            scope.bind(stmt.name, Bound(_where(stmt), "other"))
            self._class(stmt, parent)

    def _class(self, node: ast.ClassDef, parent: Function | None) -> None:
        """A class: a ``@pl.program`` (its ``@pl.function`` members are its methods), or any
        other class, whose methods may define kernels and programs in their bodies. A class
        body does not enclose its methods: their names resolve from ``parent`` outwards."""
        program = Program(node.name, node, parent=parent) if self._is_program(node) else None
        if program is not None:
            self.programs.append(program)
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                # pypto's program parser takes the class's own @pl.function members only;
                # a @pl.function of any other class is left unparsed (a plain method).
                is_method = program is not None and _has_function_decorator(item)
                function = self._cached_function(item, parent, program if is_method else None, True)
                if program is not None and is_method:
                    program.methods[item.name] = function
            elif isinstance(item, ast.ClassDef):
                self._class(item, parent)
            else:
                for stmt in flat_statements(_blocks_of(item)):
                    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                        self._cached_function(stmt, parent, None, True)
                    elif isinstance(stmt, ast.ClassDef):
                        self._class(stmt, parent)

    # -- scopes ----------------------------------------------------------------------------

    def _scope_statement(self, scope: Scope, stmt: ast.stmt) -> None:
        where = _where(stmt)
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self._bind_target(scope, target, stmt.value, stmt)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._bind_target(scope, stmt.target, stmt.value, stmt)
        elif isinstance(stmt, ast.AugAssign):
            self._bind_target(scope, stmt.target, None, stmt)
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                local = alias.asname or alias.name.split(".")[0]
                if alias.name == "pypto" or alias.name.startswith("pypto."):
                    scope.bind(local, Bound(where, "other"))
                else:
                    module = ModuleRef(alias.name if alias.asname else local, 0)
                    scope.bind(local, Bound(where, "module", module))
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name == "*":
                    scope.star_import = True
                    continue
                local = alias.asname or alias.name
                if (stmt.module or "").startswith("pypto") and stmt.level == 0:
                    scope.bind(local, Bound(where, "other"))
                    continue
                ref = ImportRef(stmt.module or "", alias.name, stmt.level, self.pos.span(stmt))
                scope.bind(local, Bound(where, "import", ref))
        for bound in _loop_targets(stmt):
            for name in _names_in_target(bound):
                scope.bind(name, Bound(where, "other"))

    def _bind_target(
        self, scope: Scope, target: ast.expr, value: ast.expr | None, stmt: ast.stmt
    ) -> None:
        where = _where(stmt)
        if isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List):
            items, values = target.elts, value.elts
            if len(items) == len(values) and not any(
                isinstance(node, ast.Starred) for node in (*items, *values)
            ):  # ``A, B = pl.dynamic("A"), pl.dynamic("B")``: item by item
                for item, item_value in zip(items, values, strict=True):
                    self._bind_target(scope, item, item_value, stmt)
                return
        if isinstance(target, ast.Tuple | ast.List) and self._helper_call(value):
            assert isinstance(value, ast.Call)
            for index, item in enumerate(target.elts):
                if isinstance(item, ast.Name):  # ``A, B = dims("A", "B")``
                    binding = CallBinding(value, index, self.pos.span(stmt))
                    scope.bind(item.id, Bound(where, "call", binding))
                else:
                    for name in _names_in_target(item):
                        scope.bind(name, Bound(where, "other"))
            return
        if not isinstance(target, ast.Name):
            for name in _names_in_target(target):
                scope.bind(name, Bound(where, "other"))
            return
        name = target.id
        if value is None:
            scope.bind(name, Bound(where, "other"))
            return
        integer = _int_value(value)
        if integer is not None:
            scope.bind(name, Bound(where, "int", integer))
            return
        if isinstance(value, ast.Call):
            called = pl_name(value.func, self.aliases)
            if called == "dynamic":
                symbol = dynamic_symbol(value)
                if symbol is not None:
                    dynamic = Dynamic(self.path, name, symbol, self.pos.span(stmt))
                    scope.bind(name, Bound(where, "dynamic", dynamic))
                    return
            elif called == "TensorView":
                scope.bind(name, Bound(where, "view", value))
                return
            elif self._helper_call(value):
                scope.bind(
                    name, Bound(where, "call", CallBinding(value, None, self.pos.span(stmt)))
                )
                return
        elif isinstance(value, ast.Subscript) and self._helper_call(value.value):
            item = value.slice  # ``X = dims("X")[0]``
            if isinstance(item, ast.Constant) and type(item.value) is int and item.value >= 0:
                assert isinstance(value.value, ast.Call)
                binding = CallBinding(value.value, item.value, self.pos.span(stmt))
                scope.bind(name, Bound(where, "call", binding))
                return
        scope.bind(name, Bound(where, "other"))

    def _helper_call(self, value: ast.expr | None) -> bool:
        """Is ``value`` a call that may reach a workspace helper (``f(...)``, ``mod.f(...)``,
        nothing of pypto's own)?"""
        if not isinstance(value, ast.Call):
            return False
        callee = value.func
        if isinstance(callee, ast.Attribute):
            callee = callee.value
        return isinstance(callee, ast.Name) and canonical(value.func, self.aliases) is None

    # -- functions -------------------------------------------------------------------------

    def _is_program(self, node: ast.ClassDef) -> bool:
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if pl_name(target, self.aliases) == "program":
                return True
        return False

    def _cached_function(
        self, node: _Def, parent: Function | None, owner: Program | None, in_class: bool
    ) -> Function:
        """``_function``, reusing the model of a node no function encloses (``ModelMemo``)."""
        if parent is not None or self.memo is None:
            return self._function(node, parent, owner, in_class)
        functions = self.memo.functions
        program = owner.name if owner is not None else None
        key = (id(node), self.path, program, in_class, self._alias_key)
        starts = self.pos.source.line_starts
        base = starts[min(node.lineno, len(starts)) - 1]
        found = functions.get(key)
        if found is not None and found.node is node:
            if found.base != base:
                found = _relocated(found, base)
                functions[key] = found
            self.functions.extend(found.functions)
            self.programs.extend(found.programs)
            found.root.owner = owner
            return found.root
        first_function, first_program = len(self.functions), len(self.programs)
        root = self._function(node, None, owner, in_class)
        if len(functions) >= _FUNCTION_CACHE_SIZE:
            functions.clear()
        functions[key] = _Built(
            node, base, root, self.functions[first_function:], self.programs[first_program:]
        )
        return root

    def _function(
        self, node: _Def, parent: Function | None, owner: Program | None, in_class: bool
    ) -> Function:
        func_type, decorated, is_jit = self._decorators(node, owner is not None)
        if in_class and owner is None:
            decorated = False  # pypto returns a @pl.function of a plain class unparsed
        program = owner.name if owner is not None else None
        function = Function(node.name, node, func_type, is_jit, program, parent)
        function.decorated = decorated
        function.owner = owner
        function.defined_at = _where(owner.node) if owner is not None else _where(node)
        self.functions.append(function)
        self._params(function, in_class)
        self._body(function)
        return function

    def _decorators(self, node: _Def, method: bool) -> tuple[str, bool, bool]:
        func_type, decorated, is_jit = "Opaque", False, False
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = pl_name(target, self.aliases) or ""
            if name == "jit" or name.startswith("jit."):
                is_jit = True
            elif name in ("function", "inline") or (method and _is_function_word(target)):
                decorated = True
                if isinstance(decorator, ast.Call):
                    func_type = self._function_type(decorator)
        return func_type, decorated, is_jit

    def _function_type(self, decorator: ast.Call) -> str:
        for keyword in decorator.keywords:
            if keyword.arg == "type":
                value = keyword.value
                name = pl_name(value, self.aliases) or ""
                if name.startswith("FunctionType."):
                    return name[len("FunctionType.") :]
                if isinstance(value, ast.Attribute) and _attribute_base(value) == "FunctionType":
                    return value.attr
                return "Unknown"
        return "Opaque"

    def _params(self, function: Function, in_class: bool) -> None:
        args = function.node.args
        ordered = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        if in_class and ordered and ordered[0].annotation is None:
            function.has_self = True
            ordered = ordered[1:]
        for index, arg in enumerate(ordered):
            function.params.append(self._param(arg, index))

    def _param(self, arg: ast.arg, index: int) -> Param:
        """A parameter as pypto's type resolver reads its annotation: the wrappers and
        types by their last name (``pl.Out``, ``Out``, ``pld.DistributedTensor``)."""
        annotation = arg.annotation
        span = self.pos.span(arg)
        if annotation is None:
            return Param(arg.arg, index, arg, span, "other", "in", None, None)
        direction: Direction = "in"
        inner = annotation
        if isinstance(inner, ast.Subscript):
            wrapper = _type_word(inner.value)
            if wrapper in ("Out", "InOut"):
                direction = "out" if wrapper == "Out" else "inout"
                inner = inner.slice
        tensor = self.tensor_annotation(inner)
        if tensor is not None:
            return Param(arg.arg, index, arg, span, "tensor", direction, tensor, None)
        if isinstance(inner, ast.Subscript) and _type_word(inner.value) == "Scalar":
            dtype = inner.slice
            return Param(arg.arg, index, arg, span, "scalar", direction, None, dtype)
        return Param(arg.arg, index, arg, span, "other", direction, None, None)

    def tensor_annotation(self, node: ast.expr) -> TensorAnnotation | None:
        if not isinstance(node, ast.Subscript) or _type_word(node.value) not in TENSOR_TYPES:
            return None
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        shape = _entries(items[0]) if items else None
        dtype = items[1] if len(items) > 1 else None
        view: TensorView | None = None
        view_ref: ast.expr | None = None
        if len(items) > 2:  # the view / layout slot
            item = items[2]
            if isinstance(item, ast.Call) and _type_word(item.func) == "TensorView":
                view, view_ref = tensor_view(item), item
            elif isinstance(item, ast.Name) and pl_name(item, self.aliases) is None:
                view_ref = item  # a variable holding a view (or a layout)
        return TensorAnnotation(node, shape, dtype, view, view_ref)

    # -- bodies ----------------------------------------------------------------------------

    def _body(self, function: Function) -> None:
        """Nested definitions, call sites and outlined ``pl.at`` scopes (in DSL bodies), and
        (read only through those: by the callee and extent lookups at a call, by a nested
        definition's name lookups) the body's scope and assignments."""
        stmts = list(flat_statements(function.node.body))
        spans = [self.pos.span(stmt) for stmt in stmts]
        calls: list[ast.Call] = []  # those that may be call sites (not in nested defs)
        nested = False
        dsl = function.decorated
        for stmt, span in zip(stmts, spans, strict=True):
            if isinstance(stmt, _DEFINITIONS):
                nested = True
            elif dsl and not self._only_pypto_calls(span):
                calls.extend(node for node in _shallow_nodes(stmt) if type(node) is ast.Call)
            if dsl and isinstance(stmt, ast.With):
                self._outlined(function, stmt)
        if calls or nested or function.outlined:
            for stmt, span in zip(stmts, spans, strict=True):
                self._scope_statement(function.scope, stmt)
                self._assignments(function, stmt, span)
                self._definition(function.scope, stmt, function)
        calls.sort(key=lambda c: (c.lineno, c.col_offset))
        for call in calls:
            site = self._call_site(function, call)
            if site is not None:
                function.calls.append(site)

    def _outlined(self, function: Function, stmt: ast.With) -> None:
        """``with pl.at(level=..., name_hint=...):`` (the level positional or by keyword)."""
        for item in stmt.items:
            call = item.context_expr
            if not isinstance(call, ast.Call) or pl_name(call.func, self.aliases) != "at":
                continue
            level_node = call.args[0] if call.args else None
            name_hint: str | None = None
            for keyword in call.keywords:
                if keyword.arg == "level":
                    level_node = keyword.value
                elif keyword.arg == "name_hint" and isinstance(keyword.value, ast.Constant):
                    value = keyword.value.value
                    name_hint = value if isinstance(value, str) and value else None
            level = level_node.attr if isinstance(level_node, ast.Attribute) else None
            function.outlined.append(OutlinedScope(stmt, level, name_hint, function))

    def _only_pypto_calls(self, span: tuple[int, int]) -> bool:
        """Does every ``(`` in the statement's text open a call of a pypto name other than
        submit (``pl.load(``)? Such calls are never call sites, so the statement need not be
        walked. Any other ``(`` (a call of something else, a tuple, a ``(`` in a string or
        with spaces before it) answers no, and the statement is walked. (The dotted names
        before a ``(`` are matched alike and their first part looked up: a pattern of every
        alias would cost their number at every character.)"""
        start, end = span
        parens = self.text.count("(", start, end)
        if parens == 0:
            return True
        matched = 0
        for match in _DOTTED_CALL.finditer(self.text, start, end):
            head, _, _ = match.group(1).partition(".")
            if head not in self.aliases or match.group(1).rpartition(".")[2] in _SUBMITS:
                return False
            matched += 1
        return matched == parens

    def _assignments(self, function: Function, stmt: ast.stmt, span: tuple[int, int]) -> None:
        start, end = span
        records = function.assignments
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    records.append(Assignment(target.id, stmt.value, start, end))
                else:
                    records.extend(
                        Assignment(n, None, start, end) for n in _names_in_target(target)
                    )
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            if stmt.value is not None:
                tensor = self.tensor_annotation(stmt.annotation)
                records.append(Assignment(stmt.target.id, stmt.value, start, end, tensor))
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            records.append(Assignment(stmt.target.id, None, start, end))
        for bound in _loop_targets(stmt):
            bound_end = self.pos.end(bound)
            records.extend(Assignment(n, None, start, bound_end) for n in _names_in_target(bound))
        if self.text.find(":=", start, end) < 0:
            return  # no assignment expression in the statement's text: no need to walk it
        for node in _walrus_in(stmt):
            if isinstance(node.target, ast.Name):
                records.append(Assignment(node.target.id, None, start, self.pos.end(node)))

    def _call_site(self, caller: Function, call: ast.Call) -> CallSite | None:
        called = pl_name(call.func, self.aliases)
        args = list(call.args)
        form: str = "call"
        if called in ("submit", "spmd_submit"):
            if not args or isinstance(args[0], ast.Starred):
                return None
            form = called
            target: ast.expr = args.pop(0)
        elif called is not None or canonical(call.func, self.aliases) is not None:
            return None
        else:
            target = call.func
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            kind = "self" if target.value.id == "self" else "module"
            alias: str | None = None if kind == "self" else target.value.id
            name = target.attr
        elif isinstance(target, ast.Name):
            kind, alias, name = "name", None, target.id
        else:
            return None
        unwrapped = tuple(self._unwrap(arg) for arg in args)
        keywords = {k.arg: self._unwrap(k.value) for k in call.keywords if k.arg is not None}
        starred = any(isinstance(a, ast.Starred) for a in args) or any(
            k.arg is None for k in call.keywords
        )
        firsts = [self.pos.start(a) for a in args] + [self.pos.start(k) for k in call.keywords]
        insert_at = min(firsts) if firsts else -1
        return CallSite(
            call,
            self.pos.span(call),
            form,  # type: ignore[arg-type]
            kind,  # type: ignore[arg-type]
            name,
            alias,
            unwrapped,
            keywords,
            starred,
            insert_at,
            caller,
        )

    def _unwrap(self, node: ast.expr) -> ast.expr:
        while (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and pl_name(node.func, self.aliases) == "no_dep"
        ):
            node = node.args[0]
        return node


def _type_word(node: ast.expr) -> str | None:
    """The name pypto's type resolver reads a type or wrapper by: ``pl.Tensor`` and
    ``Tensor`` are both ``Tensor`` (the parser matches the last name, not the module)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _is_function_word(node: ast.expr) -> bool:
    return _type_word(node) == "function"


def _has_function_decorator(node: _Def) -> bool:
    """pypto's test for a ``@pl.program`` member it parses: a decorator named ``function``
    (``@pl.function``, ``@function``, either called or not)."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _is_function_word(target):
            return True
    return False


def _attribute_base(node: ast.Attribute) -> str | None:
    """``X`` of ``X.attr`` or of ``pl.X.attr``."""
    value = node.value
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Attribute):
        return value.attr
    return None


def _blocks_of(stmt: ast.stmt) -> list[ast.stmt]:
    """The statements of every block of a compound statement, in order."""
    return [inner for block in blocks(stmt) for inner in block]


_DOTTED_CALL = re.compile(r"(?<![\w.])(\w+(?:\.\w+)*)\(")  # group 1: the name before ``(``


def _relocated(built: _Built, base: int) -> _Built:
    """Copies of a function, the functions and the programs defined in it (creation order,
    parents first), with every character offset moved to a first line at ``base``."""
    delta = base - built.base
    moved: dict[int, Function] = {}
    programs: dict[int, Program] = {}
    for old_program in built.programs:
        parent = moved.get(id(old_program.parent)) if old_program.parent is not None else None
        programs[id(old_program)] = Program(old_program.name, old_program.node, {}, parent)
    out: list[Function] = []
    for old in built.functions:
        parent = moved.get(id(old.parent)) if old.parent is not None else None
        new = Function(old.name, old.node, old.func_type, old.is_jit, old.program, parent)
        new.decorated = old.decorated
        new.has_self = old.has_self
        new.defined_at = old.defined_at
        new.owner = programs.get(id(old.owner), old.owner) if old.owner is not None else None
        new.params = [p.moved(delta) for p in old.params]
        new.assignments = [
            Assignment(a.name, a.value, a.start + delta, a.end + delta, a.annotation)
            for a in old.assignments
        ]
        new.calls = [c.moved(delta, new) for c in old.calls]
        new.outlined = [OutlinedScope(o.node, o.level, o.name_hint, new) for o in old.outlined]
        new.scope = old.scope.moved(delta)
        moved[id(old)] = new
        out.append(new)
    for new in out:
        for found in new.scope.names.values():
            for index, bound in enumerate(found):
                if bound.kind == "function" and id(bound.value) in moved:
                    found[index] = Bound(bound.where, bound.kind, moved[id(bound.value)])
    for old_program in built.programs:
        program = programs[id(old_program)]
        program.methods = {k: moved.get(id(f), f) for k, f in old_program.methods.items()}
    return _Built(built.node, base, out[0], out, list(programs.values()))


def tensor_view(node: ast.Call) -> TensorView:
    """The parts of a ``pl.TensorView(...)`` call (keywords only)."""
    valid: tuple[ast.expr, ...] | None = None
    stride: tuple[ast.expr, ...] | None = None
    layout: ast.expr | None = None
    for keyword in node.keywords:
        if keyword.arg == "valid_shape":
            valid = _entries(keyword.value)
        elif keyword.arg == "stride":
            stride = _entries(keyword.value)
        elif keyword.arg == "layout":
            layout = keyword.value
    return TensorView(node, valid, stride, layout)


def _entries(node: ast.expr) -> tuple[ast.expr, ...] | None:
    if isinstance(node, ast.List | ast.Tuple):
        return tuple(node.elts)
    return None


def _int_value(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_value(node.operand)
        return None if inner is None else -inner
    return None


def _postpones_annotations(tree: ast.Module) -> bool:
    """``from __future__ import annotations`` among the module's leading statements."""
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            if any(alias.name == "annotations" for alias in stmt.names):
                return True
        elif not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            return False  # a future import comes first (after the docstring) or not at all
    return False


def dynamic_symbol(call: ast.Call) -> str | None:
    """The symbol's name a ``pl.dynamic("N")`` (or ``name="N"``) call gives, if literal."""
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    for keyword in call.keywords:
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
            value = keyword.value.value
            return value if isinstance(value, str) else None
    return None


def _names_in_target(target: ast.AST) -> Iterator[str]:
    for node in names_below(target):
        yield node.id


def _loop_targets(stmt: ast.stmt) -> list[ast.AST]:
    if isinstance(stmt, ast.For | ast.AsyncFor):
        return [stmt.target]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    return []


def _walrus_in(stmt: ast.stmt) -> Iterator[ast.NamedExpr]:
    for node in _shallow_nodes(stmt):
        if isinstance(node, ast.NamedExpr):
            yield node


def _imports_in(
    body: list[ast.stmt], memo: ModelMemo | None
) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of a block, also inside function and class bodies, in order
    (with a memo, a function's are found once per node: see ``_function_imports``)."""
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            yield stmt
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if memo is None:
                yield from _imports_in(stmt.body, None)
            else:
                yield from _function_imports(stmt, memo)
        elif not isinstance(stmt, ast.Expr | ast.Assign | ast.Return):
            for block in blocks(stmt):
                yield from _imports_in(block, memo)


def _function_imports(node: _Def, memo: ModelMemo) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The imports inside a function, found once per node (``ModelMemo.imports``)."""
    imports_of = memo.imports
    found = imports_of.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    imports = tuple(_imports_in(node.body, memo))
    if len(imports_of) >= _IMPORT_CACHE_SIZE:
        imports_of.clear()
    imports_of[id(node)] = (node, imports)
    return imports


def _shallow_nodes(stmt: ast.stmt) -> list[ast.AST]:
    """The expression nodes of one statement itself (not of its nested blocks or defs)."""
    roots: list[ast.AST] = []
    for name, value in ast.iter_fields(stmt):
        if name in ("body", "orelse", "finalbody", "handlers", "cases"):
            continue
        if isinstance(value, ast.AST):
            roots.append(value)
        elif isinstance(value, list):
            roots.extend(v for v in value if isinstance(v, ast.AST))
    return nodes_below(roots, _SCOPE_BARRIERS)
