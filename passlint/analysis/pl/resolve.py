"""Name and module resolution for pl sources, as Python resolves annotation names.

Order: the enclosing functions' locals, then the module's globals, then names imported from
other workspace modules (``from kernels import k``), then builtins. Local variable
annotations inside bodies are never consulted. Other modules are parsed (never imported)
through a small cache keyed by path and text.
"""

from __future__ import annotations

import builtins
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from passlint.analysis.pl.frontend import build_module, clear_model_cache, tensor_view
from passlint.analysis.pl.model import (
    CallSite,
    Dynamic,
    Function,
    Module,
    Param,
    Scope,
    SyntaxProblem,
    TensorView,
)
from passlint.analysis.pl.pieces import parse_pieces
from passlint.analysis.workspace import Workspace

_BUILTINS = frozenset(dir(builtins))
_MAX_DEPTH = 8
_CACHE_SIZE = 256
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

_cache: OrderedDict[tuple[str, str], Module | None] = OrderedDict()


def load_module(path: str, text: str) -> Module | SyntaxProblem | None:
    """Parse and model ``text`` (cached by path and text); None if it is not a pl source."""
    key = (path, text)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    tree = parse_pieces(path, text)
    if isinstance(tree, SyntaxProblem):
        return tree
    module = build_module(path, text, tree)
    versions = [k for k in _cache if k[0] == path]
    for stale in versions[: max(0, len(versions) - _VERSIONS_PER_PATH + 1)]:
        del _cache[stale]  # an edited document keeps its latest versions only
    _cache[key] = module
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return module


_clear_also: list[Callable[[], None]] = [clear_model_cache]


def on_clear(clear: Callable[[], None]) -> None:
    """Have ``clear_cache`` also run ``clear`` (caches of analyses built on these modules)."""
    if clear not in _clear_also:
        _clear_also.append(clear)


def clear_cache() -> None:
    """Forget every parsed module and what was built from them (tests compare cached and
    from-scratch analyses)."""
    _cache.clear()
    for clear in _clear_also:
        clear()


class Resolver:
    """Resolves names and callees starting from one module, loading others on demand."""

    def __init__(self, module: Module, workspace: Workspace | None) -> None:
        self.module = module
        self.workspace = workspace
        self._by_path: dict[str, Module | None] = {_key(module.path): module}
        self._keys: dict[str, str] = {}
        self._own = self._key(module.path)
        # Counts what was read beyond ``module`` (other files, imports): a result computed
        # while this did not change depends on ``module`` and nothing else.
        self.foreign = 0

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
            loaded = load_module(path, text)
            module = loaded if isinstance(loaded, Module) else None
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
        self, name: str, module: Module, enclosing: Function | None, depth: int = 0
    ) -> Resolved | None:
        """What ``name`` means in ``module`` inside ``enclosing`` (None: undefined)."""
        function = enclosing
        while function is not None:
            found = self._in_scope(name, function.scope, module, depth)
            if found is not None:
                return found
            if function.param(name) is not None or (
                function.has_self and _self_name(function) == name
            ):
                return ROther()
            function = function.parent
        found = self._in_scope(name, module.scope, module, depth)
        if found is not None:
            return found
        if name in _BUILTINS or module.scope.star_import:
            return ROther()
        return None

    def _in_scope(self, name: str, scope: Scope, module: Module, depth: int) -> Resolved | None:
        if name in scope.dynamics:
            return RDynamic(scope.dynamics[name])
        if name in scope.ints:
            return RInt(scope.ints[name])
        if name in scope.views:
            return RView(tensor_view(scope.views[name]), module, name)
        if name in scope.functions:
            return RFunction(scope.functions[name], module)
        if name in scope.imports:
            ref = scope.imports[name]
            if depth < _MAX_DEPTH:
                target = self.import_module(module, ref.module, ref.level)
                if target is not None:
                    found = self.resolve(ref.name, target, None, depth + 1)
                    if found is not None:
                        return found
                if ref.level > 0 or ref.module:
                    sub = self.import_module(module, f"{ref.module}.{ref.name}", ref.level)
                    if sub is not None:
                        return ROther()
            return ROther()
        if name in scope.defined or name in scope.modules:
            return ROther()
        return None

    # -- callees ---------------------------------------------------------------------------

    def callee(self, site: CallSite, module: Module) -> RFunction | None:
        """The function a call site launches, when it is statically known."""
        caller = site.caller
        if site.target_kind == "self":
            method = caller
            while method.parent is not None:
                method = method.parent
            if method.program is None:
                return None
            for program in module.programs:
                if program.name == method.program:
                    found = program.methods.get(site.target_name)
                    return RFunction(found, module) if found is not None else None
            return None
        if site.target_kind == "name":
            resolved = self.resolve(site.target_name, module, caller)
            return resolved if isinstance(resolved, RFunction) else None
        alias = site.module_alias or ""
        function: Function | None = caller
        ref = None
        while function is not None and ref is None:
            ref = function.scope.modules.get(alias)
            function = function.parent
        ref = ref or module.scope.modules.get(alias)
        if ref is None:
            return None
        target = self.import_module(module, ref.module, ref.level)
        if target is None:
            return None
        found = target.scope.functions.get(site.target_name)
        return RFunction(found, target) if found is not None else None


def _self_name(function: Function) -> str:
    args = function.node.args
    first = [*args.posonlyargs, *args.args]
    return first[0].arg if first else ""


def _key(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):
        return path
