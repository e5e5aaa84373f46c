"""Name and module resolution for pl sources, as pypto's parser sees the names.

Order: the enclosing functions' locals, then the module's globals, then names imported from
other workspace modules (``from kernels import k``), then builtins. Local variable
annotations inside bodies are never consulted. A name bound to a call of a workspace helper
holds what the helper returns (``provenance``); a valid_shape name nothing defines when the
program is built is a symbol pypto's parser makes, unless Python raised NameError first
(``annotation_symbol``). Other modules are parsed (never imported), and kept by path and
text in the caller's ``PlMemo`` when it gives one.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from passlint.analysis.pl.frontend import build_module, parse_text, tensor_view
from passlint.analysis.pl.memo import MODULE_CHARACTERS, MODULE_COUNT, PlMemo
from passlint.analysis.pl.model import (
    Bound,
    CallBinding,
    CallSite,
    Dynamic,
    Function,
    ImportRef,
    Module,
    ModuleRef,
    Param,
    SyntaxProblem,
    TensorView,
    Where,
)
from passlint.analysis.pl.pieces import parse_pieces
from passlint.analysis.pl.provenance import UNKNOWN, Held, Made, Provenance, ProvenanceMemo, Value
from passlint.analysis.pl.walk import names_below
from passlint.analysis.workspace import Workspace

K = TypeVar("K")
T = TypeVar("T")

_BUILTINS = frozenset(dir(builtins))
_MAX_DEPTH = 8
_VERSIONS_PER_PATH = 3


@dataclass(frozen=True)
class RParam:
    """A parameter of the kernel whose annotations are being read."""

    param: Param


@dataclass(frozen=True)
class RDynamic:
    dynamic: Dynamic


@dataclass(frozen=True)
class RInt:
    value: int


@dataclass(frozen=True)
class RView:
    """A ``pl.TensorView`` held in a variable; ``module`` declares it."""

    view: TensorView
    module: Module
    name: str


@dataclass(frozen=True)
class RFunction:
    function: Function
    module: Module


@dataclass(frozen=True)
class ROther:
    """Defined, but not something the pass can use (or not knowable statically)."""


Resolved = RParam | RDynamic | RInt | RView | RFunction | ROther


def load_module(path: str, text: str, memo: PlMemo | None = None) -> Module | SyntaxProblem | None:
    """Parse and model ``text``; None if it is not a pl source. ``memo`` keeps the module
    by path and text, and the pieces and functions it was built from (``PlMemo``)."""
    if memo is None:
        tree = parse_text(path, text)
        return tree if isinstance(tree, SyntaxProblem) else build_module(path, text, tree)
    cache = memo.modules
    key = (path, text)
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    tree = parse_pieces(path, text, memo.pieces)
    if isinstance(tree, SyntaxProblem):
        return tree
    module = build_module(path, text, tree, memo.models)
    versions = [k for k in cache if k[0] == path]
    for stale in versions[: max(0, len(versions) - _VERSIONS_PER_PATH + 1)]:
        del cache[stale]  # an edited document keeps its latest versions only
    cache[key] = module
    memo.keep_modules(MODULE_COUNT, MODULE_CHARACTERS)
    return module


class Resolver:
    """Resolves names and callees starting from one module, loading others on demand.

    ``bindings`` gives parameters of enclosing functions a meaning (keyed by the
    function's id and the parameter's name): what one ``pytest.mark.parametrize`` case
    passes (``parametrize``); any other parameter means nothing the pass can use. Other
    modules are loaded through ``memo`` (``load_module``)."""

    def __init__(
        self,
        module: Module,
        workspace: Workspace | None,
        bindings: Mapping[tuple[int, str], Resolved] | None = None,
        memo: PlMemo | None = None,
    ) -> None:
        self.module = module
        self.workspace = workspace
        self.memo = memo
        self.bindings: Mapping[tuple[int, str], Resolved] = bindings or {}
        self._by_path: dict[str, Module | None] = {_key(module.path): module}
        self._keys: dict[str, str] = {}
        self._own = self._key(module.path)
        # Counts what was read beyond ``module`` (other files, imports): a result computed
        # while this did not change depends on ``module`` and nothing else.
        self.foreign = 0
        self._frames: dict[tuple[str, int, int, Where], Resolved | None] = {}
        self.provenance = Provenance(self, ProvenanceMemo())
        self.provenance.allow(len(module.text))
        self._class_names: dict[int, dict[str, Where]] = {}
        self._reads: dict[int, frozenset[str]] = {}

    def remembered(self, table: dict[K, tuple[T, bool]], key: K, compute: Callable[[], T]) -> T:
        """``compute()``, kept in ``table`` (one run's) under ``key``: asking again counts
        as reading the other files the first computation read (``foreign``), so what is
        computed from the answer is kept by the caches as it would be without the table."""
        found = table.get(key)
        if found is None:
            before = self.foreign
            value = compute()
            found = table[key] = value, self.foreign != before
        elif found[1]:
            self.foreign += 1
        return found[0]

    # -- modules ---------------------------------------------------------------------------

    def module_at(self, path: str) -> Module | None:
        key = self._key(path)
        if key != self._own:
            self.foreign += 1
        if key in self._by_path:
            return self._by_path[key]
        module: Module | None = None
        text = self.workspace.read(path) if self.workspace is not None else None
        if text is not None:
            loaded = load_module(path, text, self.memo)
            module = loaded if isinstance(loaded, Module) else None
            self.provenance.allow(len(text))
        self._by_path[key] = module
        return module

    def import_module(self, importer: Module, name: str, level: int) -> Module | None:
        self.foreign += 1
        if self.workspace is None:
            return None
        path = self.workspace.find_module(name, importer.path, level)
        return self.module_at(path) if path is not None else None

    def same_file(self, a: str, b: str) -> bool:
        return self._key(a) == self._key(b)

    def _key(self, path: str) -> str:
        """``_key``, once per path and resolver (resolving a path touches the disk)."""
        key = self._keys.get(path)
        if key is None:
            key = self._keys[path] = _key(path)
        return key

    # -- names -----------------------------------------------------------------------------

    def resolve(
        self,
        name: str,
        module: Module,
        enclosing: Function | None,
        point: Where | None = None,
        depth: int = 0,
    ) -> Resolved | None:
        """What ``name`` means in ``module`` at ``point`` of ``enclosing``'s body (None: its
        end; ``enclosing`` None: the module's top level), as Python resolves it when the
        code there runs: the bindings made before ``point`` in ``enclosing``, then in each
        enclosing function before the definition that leads to ``point``, then the module's
        globals (their last bindings when a function runs, since it runs after the module
        was imported). None: undefined."""
        function = enclosing
        inside = enclosing is not None
        while function is not None:
            bound = function.scope.lookup(name, point)
            if bound is not None:
                return self._meaning(name, bound, module, function, depth)
            if function.param(name) is not None:
                return self.bindings.get((id(function), name), ROther())
            if function.has_self and _self_name(function) == name:
                return ROther()
            point = function.defined_at
            function = function.parent
        bound = module.scope.lookup(name, None if inside else point)
        if bound is not None:
            return self._meaning(name, bound, module, None, depth)
        if name in _BUILTINS or module.scope.star_import:
            return ROther()
        return None

    def resolve_in_definition(
        self, name: str, module: Module, function: Function
    ) -> Resolved | None:
        """What ``name`` means where ``function`` is defined: the names pypto's parser reads
        its annotations with (for a program's method, the names the program's frame sees).
        Remembered per frame (a program's methods share one) unless other files were read."""
        key = (name, id(module), id(function.parent), function.defined_at)
        if key in self._frames:
            return self._frames[key]
        before = self.foreign
        frame = function.parent
        if module.postponed and frame is not None and not self._captured(name, frame):
            found = self.resolve(name, module, None, None)  # the frame's globals
        else:
            found = self.resolve(name, module, frame, function.defined_at)
        if self.foreign == before:
            self._frames[key] = found
        return found

    def view_in_definition(self, name: str, module: Module, function: Function) -> RView | None:
        """The ``pl.TensorView`` variable ``name`` is where ``function`` is defined, if it is
        one (``resolve_in_definition``)."""
        held = self.resolve_in_definition(name, module, function)
        return held if isinstance(held, RView) else None

    def _captured(self, name: str, frame: Function) -> bool:
        """With postponed annotations, does the frame whose globals and locals pypto's
        parser copies (``decorator.py``: ``closure_vars``) hold ``name`` of its own function
        or of one around it? Its parameters and bindings do; a name of an enclosing function
        only when the frame's code reads it (a free variable: annotations, strings then, do
        not count). A name the frame binds itself is its local, never a free variable."""
        if frame.param(name) is not None or name in frame.scope.names:
            return True
        outer = frame.parent
        while outer is not None and name not in outer.scope.names and outer.param(name) is None:
            outer = outer.parent
        if outer is None:
            return True  # no enclosing function binds it: the globals (or nothing) answer
        read = self._reads.get(id(frame.node))
        if read is None:
            read = self._reads[id(frame.node)] = _names_read_in_code(frame.node)
        return name in read

    def annotation_symbol(
        self, name: ast.Name, module: Module, kernel: Function
    ) -> RDynamic | None:
        """The symbol pypto's parser makes for a valid_shape name of ``kernel``'s own
        annotations that nothing defines where the program is built (``type_resolver.py``,
        ``_parse_tileview_expr``: neither a parameter nor in ``closure_vars``, it becomes a
        ``Var`` of that name). None where Python raised NameError first: the annotations are
        evaluated when the ``def`` runs (no ``from __future__ import annotations``) and the
        name is not in the class body around it either (``closure_vars`` holds the frame's
        globals and locals, never a class body's names, which Python does see)."""
        if not module.postponed and not self.in_class_body(name.id, kernel):
            return None
        first = _first_reading(name.id, kernel) or name
        span = module.positions.span(first)
        return RDynamic(Dynamic(module.path, name.id, name.id, span, "parser"))

    def python_finds(self, name: str, module: Module, kernel: Function) -> bool:
        """Does Python find ``name`` where it evaluates ``kernel``'s annotations when its
        ``def`` runs (no postponed annotations): bound in the frame around the kernel, or in
        the body of its program class before it? Otherwise it raises NameError there."""
        if self.resolve_in_definition(name, module, kernel) is not None:
            return True
        return self.in_class_body(name, kernel)

    def in_class_body(self, name: str, kernel: Function) -> bool:
        """Is ``name`` bound in the body of the program class of ``kernel`` before it?"""
        owner = kernel.owner
        if owner is None:
            return False
        names = self._class_names.get(id(owner.node))
        if names is None:
            names = {}
            for stmt in owner.node.body:
                targets = _bound_names(stmt)
                for target in targets:
                    names.setdefault(target, (stmt.lineno, stmt.col_offset))
            self._class_names[id(owner.node)] = names
        where = names.get(name)
        return where is not None and where < (kernel.node.lineno, kernel.node.col_offset)

    # -- what provenance asks --------------------------------------------------------------

    def function_of(
        self, name: str, module: Module, function: Function | None, point: Where | None
    ) -> tuple[Function, Module] | None:
        """The workspace function ``name`` holds at ``point`` of ``function`` (or of the
        module's top level)."""
        found = self.resolve(name, module, function, point)
        return (found.function, found.module) if isinstance(found, RFunction) else None

    def module_ref_of(
        self, name: str, module: Module, function: Function | None
    ) -> ModuleRef | None:
        """The module ``import MODULE as name`` binds, seen from ``function``'s body."""
        while function is not None:
            bound = function.scope.lookup(name)
            if bound is not None:
                return bound.value if isinstance(bound.value, ModuleRef) else None
            function = function.parent
        bound = module.scope.lookup(name)
        return bound.value if bound is not None and isinstance(bound.value, ModuleRef) else None

    def value_of(
        self, name: str, module: Module, function: Function | None, point: Where | None, depth: int
    ) -> Value:
        """A name a helper's return value reads, as a symbol it hands on (or unknown)."""
        found = self.resolve(name, module, function, point, depth + 1)
        return Held(found.dynamic) if isinstance(found, RDynamic) else UNKNOWN

    def _meaning(
        self, name: str, bound: Bound, module: Module, function: Function | None, depth: int
    ) -> Resolved:
        kind, value = bound.kind, bound.value
        if kind == "call" and depth < _MAX_DEPTH:
            assert isinstance(value, CallBinding)
            # What the helper returns depends on its body, which may lie outside what the
            # caller's result is cached under (``cache.py``): counted as read elsewhere.
            self.foreign += 1
            held = self.provenance.bound_value(value, module, function, bound.where, depth)
            if isinstance(held, Made):
                return RDynamic(Dynamic(module.path, name, held.symbol, value.span, "helper"))
            if isinstance(held, Held):
                return RDynamic(held.dynamic)
            return ROther()
        if kind == "dynamic":
            assert isinstance(value, Dynamic)
            return RDynamic(value)
        if kind == "int":
            assert isinstance(value, int)
            return RInt(value)
        if kind == "view":
            assert isinstance(value, ast.Call)
            return RView(tensor_view(value), module, name)
        if kind == "function":
            assert isinstance(value, Function)
            return RFunction(value, module)
        if kind == "import" and depth < _MAX_DEPTH:
            assert isinstance(value, ImportRef)
            target = self.import_module(module, value.module, value.level)
            if target is not None:
                found = self.resolve(value.name, target, None, None, depth + 1)
                if found is not None:
                    return found
        return ROther()

    # -- callees ---------------------------------------------------------------------------

    def callee(self, site: CallSite, module: Module) -> RFunction | None:
        """The function a call site launches, when it is statically known: ``self.k`` is
        the method of the caller's program; a bare ``k`` resolves in the names the caller's
        definition sees (pypto's parser looks a called name up there, never in the body)."""
        caller = site.caller
        if site.target_kind == "self":
            owner = caller.owner
            if owner is None:
                return None
            found = owner.methods.get(site.target_name)
            return RFunction(found, module) if found is not None else None
        if site.target_kind == "name":
            resolved = self.resolve_in_definition(site.target_name, module, caller)
            return resolved if isinstance(resolved, RFunction) else None
        alias = site.module_alias or ""
        resolved_alias = self._module_ref(alias, module, caller)
        if resolved_alias is None:
            return None
        target = self.import_module(module, resolved_alias.module, resolved_alias.level)
        if target is None:
            return None
        bound = target.scope.lookup(site.target_name)
        if bound is None or bound.kind != "function":
            return None
        assert isinstance(bound.value, Function)
        return RFunction(bound.value, target)

    def _module_ref(self, alias: str, module: Module, caller: Function) -> ModuleRef | None:
        function: Function | None = caller.parent
        point: Where | None = caller.defined_at
        while function is not None:
            bound = function.scope.lookup(alias, point)
            if bound is not None:
                return bound.value if isinstance(bound.value, ModuleRef) else None
            point, function = function.defined_at, function.parent
        bound = module.scope.lookup(alias)
        return bound.value if bound is not None and isinstance(bound.value, ModuleRef) else None


def _first_reading(name: str, kernel: Function) -> ast.Name | None:
    """The first ``Name`` node reading ``name`` in the kernel's parameter annotations."""
    for param in kernel.params:
        annotation = param.node.annotation
        if annotation is None or name not in param.reads:
            continue
        for node in names_below(annotation):
            if node.id == name:
                return node
    return None


def _names_read_in_code(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The names a function's code reads (its body and nested code; no annotations)."""
    found: set[str] = set()
    stack: list[ast.AST] = [*node.body]
    while stack:
        item = stack.pop()
        if type(item) is ast.Name:
            found.add(item.id)
            continue
        for field, value in ast.iter_fields(item):
            if field in ("annotation", "returns", "ctx"):
                continue  # (``annotation``: of an argument or an annotated assignment)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
    return frozenset(found)


def _bound_names(stmt: ast.stmt) -> list[str]:
    """The names a class-body statement binds (assignments, imports, defs)."""
    if isinstance(stmt, ast.Assign):
        return [n.id for target in stmt.targets for n in names_below(target)]
    if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        return [n.id for n in names_below(stmt.target)] if stmt.value is not None else []
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [stmt.name]
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return [alias.asname or alias.name.split(".")[0] for alias in stmt.names]
    return []


def _self_name(function: Function) -> str:
    args = function.node.args
    first = [*args.posonlyargs, *args.args]
    return first[0].arg if first else ""


def _key(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):
        return path
