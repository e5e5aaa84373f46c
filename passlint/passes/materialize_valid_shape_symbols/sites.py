"""Call-site resolution: every call of a kernel in the workspace, and what each passes for
its unbound symbols (``MaterializeValidShapeSymbolsMutator::PrependValidShapeArgs``).

Calls are looked for where pypto can make them: ``self.k(...)`` and ``pl.submit(self.k, ...)``
/ ``pl.spmd_submit(self.k, ...)`` inside the kernel's program; ``k(...)`` (under any alias,
also ``alias.k(...)``) in DSL functions whose definitions see ``k``: in the kernel's module
and, for a module-level kernel, in the workspace files that import it. A call passes, per
symbol, the effective valid_shape entry of its argument at each slot. Uses of the kernel as a value
(``run(kernel)``) are calls nobody can find: they are reported so a fix is not offered as
complete.
"""

from __future__ import annotations

import ast
import re

from passlint.analysis.pl.excerpt import excerpt as q
from passlint.analysis.pl.extents import ArgExtents, Extent, ExtentReader
from passlint.analysis.pl.frontend import pl_name
from passlint.analysis.pl.index import workspace_index
from passlint.analysis.pl.model import CallSite, Function, ImportRef, Module, Param
from passlint.analysis.pl.resolve import Resolver, RFunction
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.model import (
    Conflict,
    KernelAnalysis,
    Omitted,
    SiteResult,
    Slot,
    SymbolExtent,
    UnreadFile,
    ValueUse,
)


class SiteIndex:
    """What one module's syntax says about calls, built when first asked and shared by
    every run over the module (the runs of its parametrized cases): its call sites by the
    called name, also within each program and each outermost function; its escaping
    values; which names it mentions only by calling them."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self._named: dict[str, list[CallSite]] | None = None
        self._by_program: dict[tuple[int, str], list[CallSite]] | None = None
        self._within: dict[tuple[int, str], list[CallSite]] | None = None
        self._escapes: dict[str, list[_Escape]] | None = None
        self._mentions: _Mentions | None = None

    def named(self) -> dict[str, list[CallSite]]:
        """The call sites grouped by the called name, in module order."""
        if self._named is None:
            self._named = {}
            for function in self.module.functions:
                for site in function.calls:
                    self._named.setdefault(site.target_name, []).append(site)
        return self._named

    def calling(self, kernel: Function) -> list[CallSite]:
        """The call sites by ``kernel``'s name that may launch it: for a program's method,
        those in the program's methods (``self.k``: a method is no name any definition
        sees); for another kernel defined inside a function, those in that outermost
        function (a bare ``k`` is looked up in the enclosing definitions, ``alias.k``
        reaches module-level functions only); else all."""
        if kernel.owner is not None:
            return self._grouped()[0].get((id(kernel.owner), kernel.name), [])
        if kernel.parent is not None:
            return self._grouped()[1].get((id(kernel.outermost()), kernel.name), [])
        return self.named().get(kernel.name, [])

    def _grouped(
        self,
    ) -> tuple[dict[tuple[int, str], list[CallSite]], dict[tuple[int, str], list[CallSite]]]:
        """The call sites by (program of the caller, name) and by (outermost function of
        the caller, name)."""
        if self._by_program is None or self._within is None:
            self._by_program, self._within = {}, {}
            for name, sites in self.named().items():
                for site in sites:
                    if site.caller.owner is not None:
                        key = (id(site.caller.owner), name)
                        self._by_program.setdefault(key, []).append(site)
                    key = (id(site.caller.outermost()), name)
                    self._within.setdefault(key, []).append(site)
        return self._by_program, self._within

    def escapes(self) -> dict[str, list[_Escape]]:
        if self._escapes is None:
            self._escapes = _escapes(self.module)
        return self._escapes

    def only_called(self, name: str) -> bool:
        if self._mentions is None:
            self._mentions = _Mentions(self.module)
        return self._mentions.only_called(name)


class CallSites:
    """Finds and reads the call sites of kernels, starting from one module (``index``: its
    ``SiteIndex``, when the caller shares one between runs)."""

    def __init__(
        self,
        module: Module,
        resolver: Resolver,
        workspace: Workspace | None,
        index: SiteIndex | None = None,
    ) -> None:
        self.module = module
        self.resolver = resolver
        self.workspace = workspace
        self.reader = ExtentReader(resolver)
        self._callees: dict[int, tuple[RFunction | None, bool]] = {}  # (``remembered``)
        self._indexes = {id(module): index if index is not None else SiteIndex(module)}
        self._importing: dict[int, list[tuple[Module, set[str]]]] = {}  # per kernel
        self._grouped: dict[tuple[int, str, int], tuple[dict[int, list[CallSite]], bool]] = {}

    def callee(self, site: CallSite, module: Module) -> RFunction | None:
        """The function ``site`` launches (memoised per site)."""
        return self.resolver.remembered(
            self._callees, id(site), lambda: self.resolver.callee(site, module)
        )

    def index(self, module: Module) -> SiteIndex:
        found = self._indexes.get(id(module))
        if found is None:
            found = self._indexes[id(module)] = SiteIndex(module)
        return found

    def calling(self, kernel: Function) -> list[CallSite]:
        """The call sites of this module by ``kernel``'s name that may launch it."""
        return self._indexes[id(self.module)].calling(kernel)

    # -- the calls of one kernel -------------------------------------------------------------

    def of_kernel(self, analysis: KernelAnalysis) -> list[SiteResult]:
        """Every call of the kernel: in its module, and (module-level kernels, which other
        files can import) in the workspace."""
        kernel, module = analysis.kernel, analysis.module
        found = [(site, module) for site in self._calls_to(kernel, module, {kernel.name})]
        if _importable(kernel) and self.workspace is not None:
            for other, names in self._importers(kernel, module):
                found.extend((site, other) for site in self._calls_to(kernel, other, names))
        return [self.result(site, where, analysis) for site, where in found]

    def own_calls(self, kernel: Function) -> list[CallSite]:
        """The calls of a kernel of this module in this module, in source order (the order
        of ``of_kernel``'s first results)."""
        return self._calls_to(kernel, self.module, {kernel.name})

    def value_uses(self, kernel: Function, module: Module) -> list[ValueUse]:
        """Uses of ``kernel`` as a value (an argument, an assigned or returned value, an
        element of a literal) in its module and the workspace files that import it."""
        uses = self._value_uses(kernel, module, {kernel.name})
        if _importable(kernel) and self.workspace is not None:
            for other, names in self._importers(kernel, module):
                uses.extend(self._value_uses(kernel, other, names))
        return uses

    def unread(self, kernel: Function) -> list[UnreadFile]:
        """The workspace files that may call ``kernel`` (a module-level kernel, which other
        files can import) and could not be read."""
        if not _importable(kernel) or self.workspace is None:
            return []
        self.resolver.foreign += 1  # the workspace's files
        return [UnreadFile(p, r) for p, r in sorted(self.workspace.refused().items())]

    def _value_uses(self, kernel: Function, module: Module, names: set[str]) -> list[ValueUse]:
        if all(self.index(module).only_called(name) for name in names):
            return []
        escapes = self.index(module).escapes()
        return _value_uses(kernel, module, names, self.resolver, escapes)

    def _calls_to(self, kernel: Function, module: Module, names: set[str]) -> list[CallSite]:
        sites: list[CallSite] = []
        for name in sorted(names):
            sites += self._calls_by_callee(kernel, module, name).get(id(kernel), ())
        sites.sort(key=lambda s: s.span)
        return sites

    def _calls_by_callee(
        self, kernel: Function, module: Module, name: str
    ) -> dict[int, list[CallSite]]:
        """The calls by ``name`` in ``module`` that may launch ``kernel``, grouped by the
        function they launch (once per module and name, and per program or outermost
        function for a kernel of this module that ``SiteIndex.calling`` narrows: many
        kernels may share a name)."""
        nested = (
            module is self.module
            and name == kernel.name
            and (kernel.owner is not None or kernel.parent is not None)
        )
        key = (id(module), name, id(kernel.owner or kernel.outermost()) if nested else 0)

        def group() -> dict[int, list[CallSite]]:
            groups: dict[int, list[CallSite]] = {}
            index = self.index(module)
            candidates = index.calling(kernel) if nested else index.named().get(name, ())
            for site in candidates:
                callee = self.callee(site, module)
                if callee is not None:
                    groups.setdefault(id(callee.function), []).append(site)
            return groups

        return self.resolver.remembered(self._grouped, key, group)

    def _importers(self, kernel: Function, module: Module) -> list[tuple[Module, set[str]]]:
        """The workspace modules that may reach ``kernel`` by import, with the local names
        they may call it by."""
        assert self.workspace is not None
        self.resolver.foreign += 1  # the workspace's files
        found = self._importing.get(id(kernel))
        if found is None:
            found = self._importing[id(kernel)] = self._find_importers(kernel, module)
        return found

    def _find_importers(self, kernel: Function, module: Module) -> list[tuple[Module, set[str]]]:
        assert self.workspace is not None
        out: list[tuple[Module, set[str]]] = []
        for path in workspace_index(self.workspace).importers(kernel.name, module.path):
            if self.resolver.same_file(path, module.path):
                continue
            other = self.resolver.module_at(path)
            if other is None:
                continue
            names = {kernel.name}
            for scope in [other.scope, *(f.scope for f in other.functions)]:
                for local, found in scope.names.items():
                    if any(_imports_name(b.value, kernel.name) for b in found):
                        names.add(local)
            out.append((other, names))
        return out

    # -- what one call passes ----------------------------------------------------------------

    def result(self, site: CallSite, module: Module, analysis: KernelAnalysis) -> SiteResult:
        """What ``site`` passes for each unbound symbol of ``analysis``'s kernel."""
        result = SiteResult(site, module, [])
        texts: list[str] = []
        resolved = not site.starred
        # What each argument holds, read once: every symbol of a view reads the same one.
        read: dict[int, ArgExtents | None] = {}
        for symbol in analysis.symbols:
            value: tuple[Extent, Slot] | None = None
            problem: str | None = "the call passes *args" if site.starred else None
            for slot in symbol.slots:
                arg = _argument(site, slot.param)
                if arg is None:
                    if not site.starred:
                        result.omitted.append(Omitted(symbol, slot))
                        problem = f"it does not pass argument '{q(slot.param.name)}'"
                    resolved = False
                    break
                if id(arg) not in read:
                    read[id(arg)] = self.reader.of_argument(arg, site.caller, module)
                extents = read[id(arg)]
                effective = extents.effective if extents is not None else None
                candidate = (
                    effective[slot.dim]
                    if effective is not None and slot.dim < len(effective)
                    else None
                )
                if candidate is None:
                    resolved = False
                    problem = problem or (
                        f"the valid_shape of its argument for '{q(slot.param.name)}' (dim "
                        f"{slot.dim}) is not known statically"
                    )
                    continue
                if value is None:
                    value = (candidate, slot)
                    continue
                first, first_slot = value
                if first.key != candidate.key:
                    result.conflicts.append(
                        Conflict(symbol, (first.text, first_slot), (candidate.text, slot))
                    )
                    problem = (
                        f"its arguments give '{q(symbol.symbol)}' two extents, "
                        f"'{q(first.text)}' and '{q(candidate.text)}'"
                    )
                    resolved = False
                    break
            if value is None:
                resolved = False
            else:
                texts.append(value[0].text)
            text = value[0].text if value is not None else None
            result.extents.append(SymbolExtent(symbol, text, problem))
        result.texts = texts if resolved else None
        return result


def _importable(kernel: Function) -> bool:
    """A module-level standalone kernel: the one kind other files can import."""
    return kernel.owner is None and kernel.parent is None


def _imports_name(value: object, name: str) -> bool:
    return isinstance(value, ImportRef) and value.name == name


def _argument(site: CallSite, param: Param) -> ast.expr | None:
    """The argument for ``param``: positional, else by keyword as Python binds it (pypto's
    parser itself rejects a kernel argument given by keyword; that is not this pass's to
    report, and reading it keeps the extent right once the call is written positionally)."""
    if param.index < len(site.args):
        return site.args[param.index]
    return site.keywords.get(param.name)


_ESCAPES = (ast.Call, ast.Assign, ast.AnnAssign, ast.Return, ast.List, ast.Tuple, ast.Dict)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)

# A Name read as a value where a kernel may be called later, with the innermost function
# whose body holds it (None: the module's top level).
_Escape = tuple[ast.Name, Function | None]


class _Mentions:
    """Whether every mention of a name in a module's text (not after a ``.``) is a call
    (``name(`` on one line), a definition (``def name``) or in an import on one line. Then
    no Name node of it is read as a value: a Name followed on its line by ``(`` is the
    function of a call (the mentions: ``Module.spellings``)."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self._answers: dict[str, bool] = {}
        self._imports: dict[int, int] = {}  # line start -> where its import's names end

    def only_called(self, name: str) -> bool:
        if not self.module.names_as_written:
            return False  # a mention may be spelled otherwise (NFKC): not to be told here
        found = self._answers.get(name)
        if found is None:
            spelled = self.module.spellings.of(name)
            found = self._answers[name] = all(self._called_at(at, name) for at in spelled)
        return found

    def _called_at(self, at: int, name: str) -> bool:
        text = self.module.text
        end = at + len(name)
        if _CALLED.match(text, end) is not None or _DEF_BEFORE.search(text, max(0, at - 64), at):
            return True
        line = at - self.module.positions.source.position(at).column
        names_end = self._imports.get(line)
        if names_end is None:
            statement = _IMPORT_NAMES.match(text, line)
            names_end = self._imports[line] = statement.end() if statement else -1
        return end <= names_end


_CALLED = re.compile(r"[ \t]*\(")
_DEF_BEFORE = re.compile(r"\bdef[ \t]+\Z")
# An import statement on one line up to the end of the names it imports.
_IMPORT_NAMES = re.compile(r"[ \t]*(?:from[ \t]+[\w. \t]+[ \t])?import[ \t][\w. \t,]*")


def _value_uses(
    kernel: Function,
    module: Module,
    names: set[str],
    resolver: Resolver,
    escapes: dict[str, list[_Escape]],
) -> list[ValueUse]:
    """``names`` read as a value where it may be called later, resolving to ``kernel``
    (``escapes``: the module's names read so, from ``_escapes``)."""
    uses: list[ValueUse] = []
    for name in names:
        for node, owner in escapes.get(name, ()):
            point = (node.lineno, node.col_offset)
            resolved = resolver.resolve(node.id, module, owner, point)
            if isinstance(resolved, RFunction) and resolved.function is kernel:
                uses.append(ValueUse(node, module))
    uses.sort(key=lambda u: (u.node.lineno, u.node.col_offset))
    return uses


def _escapes(module: Module) -> dict[str, list[_Escape]]:
    """Every Name of ``module`` read as a value that escapes (an argument, an assigned or
    returned value, an element of a literal) and is not a call's target or a submitted
    kernel, by name, with its owner: the innermost modelled function whose body holds it
    (decorators, defaults and annotations of a def belong to the function around it)."""
    functions = {id(f.node): f for f in module.functions}
    launches: set[int] = set()  # call targets and submitted kernels: call sites, not values
    holders: list[tuple[ast.AST, Function | None]] = []
    owners: dict[int, Function | None] = {}
    stack: list[tuple[ast.AST, Function | None]] = [(s, None) for s in module.tree.body]
    while stack:
        node, owner = stack.pop()
        if type(node) is ast.Name:
            owners[id(node)] = owner
            continue
        if isinstance(node, _ESCAPES):
            holders.append((node, owner))
            if isinstance(node, ast.Call):
                launches.add(id(node.func))
                if node.args and _is_submit(node, module):
                    launches.add(id(node.args[0]))
        inner = functions.get(id(node), owner) if isinstance(node, _DEFS) else owner
        for field, value in ast.iter_fields(node):
            below = inner if field == "body" else owner
            if type(value) is list:
                stack.extend((item, below) for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST) and field != "ctx":
                stack.append((value, below))
    found: dict[str, list[_Escape]] = {}
    for holder, _ in holders:
        for node in _held(holder):
            if type(node) is not ast.Name or id(node) in launches:
                continue
            if isinstance(node.ctx, ast.Load):
                found.setdefault(node.id, []).append((node, owners.get(id(node))))
    return found


def _held(holder: ast.AST) -> list[ast.AST]:
    """The expressions a value escapes through in ``holder``."""
    if isinstance(holder, ast.Call):
        return [*holder.args, *(k.value for k in holder.keywords)]
    if isinstance(holder, ast.Assign | ast.AnnAssign | ast.Return):
        return [holder.value] if holder.value is not None else []
    if isinstance(holder, ast.List | ast.Tuple):
        return list(holder.elts)
    if isinstance(holder, ast.Dict):
        return [v for v in holder.values if v is not None]
    return []


def _is_submit(call: ast.Call, module: Module) -> bool:
    return pl_name(call.func, module.aliases) in ("submit", "spmd_submit")
