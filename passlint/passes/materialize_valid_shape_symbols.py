"""MaterializeValidShapeSymbols over pl kernel sources: dry run (findings + source fixes).

For each device kernel (InCore, AIC, AIV, Spmd) the pass finds the ``pl.dynamic`` symbols
its TensorView valid_shapes read that nothing binds (VS001), symbols only inside compound
entries (VS002), scalar params declared after a use (VS005) and undefined names (VS006);
at every call of such a kernel it reads the extents the pass would prepend, reporting
disagreeing (VS003) or missing (VS004) arguments. The VS001 fix edits the kernel and its
call sites in every workspace file.

``analyze_module`` is the public face of the same analysis (for the language server's hover
and navigation): per kernel its valid_shape symbols, bound or not and by what, their slots,
and what every call passes for them or why it cannot be resolved.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from passlint.analysis.findings import Finding, Fix, Location, Range, TextEdit
from passlint.analysis.pl import resolve
from passlint.analysis.pl.extents import Extent, ExtentReader
from passlint.analysis.pl.model import (
    CallSite,
    Dynamic,
    Function,
    Module,
    Param,
    SyntaxProblem,
    TensorView,
)
from passlint.analysis.pl.resolve import (
    RDynamic,
    Resolved,
    Resolver,
    RFunction,
    RParam,
    RView,
    load_module,
)
from passlint.analysis.pl.walk import names_below
from passlint.analysis.rules import RULES
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.passes import materialize_valid_shape_symbols_edits as edits
from passlint.passes.materialize_valid_shape_symbols_model import (
    Binding,
    KernelAnalysis,
    KernelSummary,
    ModuleAnalysis,
    SiteResult,
    Slot,
    Symbol,
    SymbolExtent,
)

__all__ = [
    "Binding",
    "KernelAnalysis",
    "KernelSummary",
    "ModuleAnalysis",
    "SiteResult",
    "Slot",
    "Symbol",
    "SymbolExtent",
    "analyze_module",
    "check_text",
]


def check_text(path: str, text: str, workspace: Workspace | None) -> list[Finding]:
    """Findings of the pass for one pl source (non-pl text gives none)."""
    try:
        loaded = load_module(path, text)
    except RecursionError:
        loaded = SyntaxProblem(_TOO_DEEP, (0, min(len(text), 1)))
    if isinstance(loaded, SyntaxProblem):
        if "pypto" not in text:
            return []
        rng = SourceText(text).range(*loaded.span)
        message = f"Python syntax error: {loaded.message}; the pl source cannot be analysed."
        return [Finding("E002", RULES["E002"].severity, path, rng, message)]
    if loaded is None:
        return []
    try:
        return _Pass(loaded, workspace).run()
    except RecursionError:
        # Expressions nested deeper than the pass can follow: say so rather than nothing.
        rng = SourceText(text).range(0, min(len(text), 1))
        message = f"{_TOO_DEEP}; the pl source cannot be analysed."
        return [Finding("E002", RULES["E002"].severity, path, rng, message)]


_WORD = re.compile(r"\w+")
_TOO_DEEP = "nesting too deep to analyse (more than Python's recursion limit)"


def analyze_module(path: str, text: str, workspace: Workspace | None) -> ModuleAnalysis:
    """The pass's per-kernel analysis of one pl source; the same one its findings use."""
    try:
        loaded = load_module(path, text)
    except RecursionError:
        return ModuleAnalysis(path, None)
    if isinstance(loaded, SyntaxProblem):
        return ModuleAnalysis(path, None, problem=loaded)
    if loaded is None:
        return ModuleAnalysis(path, None)
    run = _Pass(loaded, workspace)
    try:
        kernels = tuple(run.summary(kernel, loaded) for kernel in loaded.kernels)
    except RecursionError:
        kernels = ()
    return ModuleAnalysis(path, loaded, kernels)


class _Pass:
    def __init__(self, module: Module, workspace: Workspace | None) -> None:
        self.module = module
        self.workspace = workspace
        self.resolver = Resolver(module, workspace)
        self.reader = ExtentReader(self.resolver)
        self._analyses: dict[int, KernelAnalysis] = {}
        self._callees: dict[int, RFunction | None] = {}
        self._call_index: dict[int, dict[str, list[CallSite]]] = {}
        self._sites: dict[int, list[SiteResult]] = {}
        self._foreign_callees: set[int] = set()
        self._env: int | None = None
        self._homes: dict[int, tuple[int, str, str | None]] = {}
        self._lines: list[str] | None = None

    def range(self, module: Module, node: ast.AST) -> Range:
        return module.positions.range(node)

    def run(self) -> list[Finding]:
        findings: list[Finding] = []
        own_sites: dict[int, list[tuple[Finding, ...]]] = {}
        for kernel in self.module.kernels:
            unit = self._unit(kernel)
            findings.extend(unit.findings)
            if unit.sites is not None:
                own_sites[id(kernel)] = list(reversed(unit.sites))
        for function in self.module.functions:
            for site in function.calls:
                callee = self.callee(site, self.module)
                if callee is None or not callee.function.is_device_kernel:
                    continue
                if callee.module is self.module:
                    queue = own_sites.get(id(callee.function))
                    if queue is None:  # no unbound symbols: no call site findings
                        continue
                    if queue:
                        findings.extend(queue.pop())
                        continue
                analysis = self.analysis(callee.function, callee.module)
                if analysis.symbols:
                    findings.extend(self.site_result(site, self.module, analysis).findings)
        findings.sort(key=lambda f: (f.range.start, f.range.end, f.code, f.message))
        return findings

    def _unit(self, kernel: Function) -> _KernelUnit:
        """The findings of a kernel of this module and those at its calls in this module,
        reused from an earlier run whose inputs were the same (``_unit_key``)."""
        key = self._unit_key(kernel)
        found = _units.get(key) if key is not None else None
        if found is not None:
            return found
        before = self.resolver.foreign
        module = self.module
        analysis = self.analysis(kernel, module)
        findings = list(analysis.findings)
        for dynamic, param, entry, view_module, via in analysis.compound_only:
            findings.append(self._compound_only(analysis, dynamic, param, entry, view_module, via))
        sites: tuple[tuple[Finding, ...], ...] | None = None
        if analysis.symbols:
            findings.extend(self._unbound(analysis))
            results = self._sites_of(kernel, module)
            sites = tuple(tuple(r.findings) for r in results if r.module is module)
        unit = _KernelUnit(tuple(findings), sites)
        if key is not None and self.resolver.foreign == before:
            if len(_units) >= _UNIT_CACHE_SIZE:
                _units.clear()
            _units[key] = unit
        return unit

    def _unit_key(self, kernel: Function) -> tuple[object, ...] | None:
        """What a kernel's findings depend on within its module: the text and first line of
        the kernel's top-level statement (or class member) and of those holding any call by
        its name, and the module's own definitions (``_environment``). None when the
        module's text is not plain enough to cut it so (lone carriage returns)."""
        if self._env is None:
            if "\r" in self.module.text:
                return None
            self._env = _environment(self.module, self.workspace is not None)
        callers = self._calls_named(self.module).get(kernel.name, ())
        homes: dict[int, tuple[int, str, str | None]] = {}
        for site in callers:
            outer = _outermost(site.caller)
            if id(outer) not in homes:
                homes[id(outer)] = self._home(outer)
        node = kernel.node
        return (
            self._env,
            self._home(_outermost(kernel)),
            node.lineno,
            node.col_offset,
            kernel.name,
            tuple(homes.values()),
        )

    def _home(self, outer: Function) -> tuple[int, str, str | None]:
        found = self._homes.get(id(outer))
        if found is None:
            if self._lines is None:
                self._lines = self.module.text.split("\n")
            node = outer.node
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            end = node.end_lineno or node.lineno
            found = (start, "\n".join(self._lines[start - 1 : end]), outer.program)
            self._homes[id(outer)] = found
        return found

    def summary(self, kernel: Function, module: Module) -> KernelSummary:
        analysis = self.analysis(kernel, module)
        sites = self._sites_of(kernel, module)
        return KernelSummary(
            kernel,
            module,
            tuple(analysis.all_symbols),
            tuple(analysis.symbols),
            tuple(sites),
        )

    def callee(self, site: CallSite, module: Module) -> RFunction | None:
        key = id(site)
        if key not in self._callees:
            before = self.resolver.foreign
            self._callees[key] = self.resolver.callee(site, module)
            if self.resolver.foreign != before:
                self._foreign_callees.add(key)
        elif key in self._foreign_callees:
            self.resolver.foreign += 1  # what depends on this answer depends on other files
        return self._callees[key]

    # -- kernels ---------------------------------------------------------------------------

    def analysis(self, kernel: Function, module: Module) -> KernelAnalysis:
        found = self._analyses.get(id(kernel))
        if found is None:
            found = self._analyze(kernel, module)
            self._analyses[id(kernel)] = found
        return found

    def _analyze(self, kernel: Function, module: Module) -> KernelAnalysis:
        result = KernelAnalysis(kernel, module)
        late = self._late_params(result)

        def resolve(name: str, index: int) -> Resolved | None:
            for param in kernel.params:
                if param.name == name and param.index < index:
                    return RParam(param)
            if name in late:
                return RParam(late[name])
            return self.resolver.resolve(name, module, kernel.parent)

        bound: dict[Dynamic, Binding] = {}
        for param in kernel.params:
            if param.tensor is None or param.tensor.shape is None:
                continue
            for dim, entry in enumerate(param.tensor.shape):
                for name in names_below(entry):
                    resolved = resolve(name.id, param.index)
                    if isinstance(resolved, RDynamic):
                        bound.setdefault(resolved.dynamic, Binding("shape", param, dim))

        symbols: dict[tuple[str, Dynamic | Param], Symbol] = {}
        for param in kernel.params:
            view, view_module, via = self._view(param, module, kernel)
            if view is None or view.valid_shape is None:
                continue
            own = view_module is module and via is None
            for dim, entry in enumerate(view.valid_shape):
                for name in names_below(entry):
                    if own:
                        resolved = resolve(name.id, param.index)
                    else:
                        found = self.resolver.resolve(name.id, view_module, None)
                        resolved = self._rebound(found, kernel, param, resolve)
                    if resolved is None:
                        node: ast.AST = name if own else (param.tensor.view_ref or name)  # type: ignore[union-attr]
                        result.findings.append(self._undefined(kernel, param, name.id, node))
                        continue
                    slot = Slot(param, dim, entry, view_module, via)
                    if isinstance(resolved, RParam):
                        symbol = symbols.get(("param", resolved.param))
                        if symbol is None:
                            shadowed = self.resolver.resolve(name.id, module, kernel.parent)
                            dynamic = shadowed.dynamic if isinstance(shadowed, RDynamic) else None
                            symbol = Symbol(name.id, dynamic, Binding("parameter", resolved.param))
                            symbols[("param", resolved.param)] = symbol
                        symbol.occurrences.append((view_module, name))
                        continue
                    if not isinstance(resolved, RDynamic):
                        continue
                    dynamic = resolved.dynamic
                    symbol = symbols.get(("dynamic", dynamic))
                    if symbol is None:
                        symbol = Symbol(dynamic.name, dynamic, bound.get(dynamic))
                        symbols[("dynamic", dynamic)] = symbol
                    symbol.occurrences.append((view_module, name))
                    if symbol.bound:
                        continue
                    if entry is name:
                        symbol.slots.append(slot)
                    else:
                        symbol.compound.append(slot)
        result.all_symbols = list(symbols.values())
        unbound = [s for s in result.all_symbols if not s.bound and s.slots]
        result.symbols = sorted(unbound, key=lambda s: (s.slots[0].param.index, s.slots[0].dim))
        for symbol in result.all_symbols:
            if not symbol.bound and not symbol.slots and symbol.dynamic is not None:
                first = symbol.compound[0]
                result.compound_only.append(
                    (symbol.dynamic, first.param, first.entry, first.view_module, first.via)
                )
        return result

    def _rebound(
        self,
        resolved: Resolved | None,
        kernel: Function,
        param: Param,
        resolve: Callable[[str, int], Resolved | None],
    ) -> Resolved | None:
        """A symbol inside a view variable is bound by an earlier parameter holding the
        same ``pl.dynamic`` under its Python name (the parser re-points the shared DynVar)."""
        if not isinstance(resolved, RDynamic):
            return resolved
        name = resolved.dynamic.name
        earlier = [p for p in kernel.params if p.index < param.index]
        for other in earlier:
            if other.name == name and resolve(name, other.index) == resolved:
                return RParam(other)
        return resolved

    def _view(
        self, param: Param, module: Module, kernel: Function
    ) -> tuple[TensorView | None, Module, str | None]:
        tensor = param.tensor
        if tensor is None:
            return None, module, None
        if tensor.view is not None:
            return tensor.view, module, None
        ref = tensor.view_ref
        if isinstance(ref, ast.Name):
            resolved = self.resolver.resolve(ref.id, module, kernel.parent)
            if isinstance(resolved, RView):
                return resolved.view, resolved.module, ref.id
        return None, module, None

    def _late_params(self, result: KernelAnalysis) -> dict[str, Param]:
        """VS005: params named like a name an earlier param's annotation reads."""
        kernel = result.kernel
        text = result.module.text
        readers: dict[str, Param] = {}
        late: dict[str, Param] = {}
        for position, param in enumerate(kernel.params):
            reader = readers.get(param.name)
            if reader is not None and param.name not in late:
                late[param.name] = param
                result.findings.append(self._late(result, param, reader))
            later = {p.name for p in kernel.params[position + 1 :]}
            words = _WORD.findall(text, param.span[0] + len(param.name), param.span[1])
            if later.isdisjoint(words):
                continue  # no later parameter's name in the annotation's text
            for name in sorted(param.reads):
                readers.setdefault(name, param)
        return late

    # -- findings of a kernel ----------------------------------------------------------------

    def _late(self, result: KernelAnalysis, param: Param, reader: Param) -> Finding:
        kernel, module = result.kernel, result.module
        resolved = self.resolver.resolve(param.name, module, kernel.parent)
        what = f"'{param.name}'"
        if isinstance(resolved, RDynamic):
            what = f"the dynamic symbol {_symbol_words(resolved.dynamic)}"
        message = (
            f"Parameter '{param.name}' of kernel '{kernel.name}' comes after parameter "
            f"'{reader.name}', whose annotation already reads {what}; pypto's parser rejects "
            f"a parameter that shadows a name an earlier annotation uses. Move '{param.name}' "
            f"in front of '{reader.name}'."
        )
        pos = module.positions
        fix = Fix(
            f"Move parameter '{param.name}' in front of '{reader.name}'",
            tuple(edits.move_param(kernel, module, pos, param, reader)),
        )
        return Finding(
            "VS005",
            RULES["VS005"].severity,
            module.path,
            pos.source.range(*param.span),
            message,
            fix=fix,
        )

    def _undefined(self, kernel: Function, param: Param, name: str, node: ast.AST) -> Finding:
        message = (
            f"The valid_shape of parameter '{param.name}' of kernel '{kernel.name}' names "
            f"'{name}', which is neither a `pl.dynamic` symbol, an int constant nor a "
            f'parameter; define it (e.g. `{name} = pl.dynamic("{name}")`) or use an int.'
        )
        return Finding(
            "VS006",
            RULES["VS006"].severity,
            self.module.path,
            self.range(self.module, node),
            message,
        )

    def _compound_only(
        self,
        result: KernelAnalysis,
        dynamic: Dynamic,
        param: Param,
        entry: ast.expr,
        view_module: Module,
        via: str | None,
    ) -> Finding:
        kernel, module = result.kernel, result.module
        entry_text = ast.unparse(entry)
        message = (
            f"Kernel '{kernel.name}' uses valid_shape symbol {_symbol_words(dynamic)} only "
            f"inside the compound entry '{entry_text}' of parameter '{param.name}', so "
            "MaterializeValidShapeSymbols cannot read its value from a call site. Declare the "
            "symbol on its own in some parameter's valid_shape, bind it by a physical "
            f"dimension, or pass the extent as a `{edits.scalar_annotation(module)}` parameter."
        )
        node, related = self._entry_place(param, entry, view_module, via, module)
        related += self._symbol_related(dynamic, self._sites_of(kernel, module))
        return Finding(
            "VS002",
            RULES["VS002"].severity,
            module.path,
            self.range(module, node),
            message,
            related=tuple(related),
        )

    def _entry_place(
        self, param: Param, entry: ast.expr, view_module: Module, via: str | None, module: Module
    ) -> tuple[ast.AST, list[Location]]:
        if view_module is module and via is None:
            return entry, []
        assert param.tensor is not None and param.tensor.view_ref is not None
        note = f"the valid_shape entry in the TensorView '{via}'"
        return param.tensor.view_ref, [
            Location(view_module.path, self.range(view_module, entry), note)
        ]

    def _symbol_related(self, dynamic: Dynamic, sites: list[SiteResult]) -> list[Location]:
        related = [
            Location(
                dynamic.path,
                self._module_range(dynamic.path, dynamic.span),
                f"symbol '{dynamic.symbol}' is declared here",
            )
        ]
        for site in sites:
            call = _callee_text(site.site.node.func)
            if site.texts is None:
                note = f"called here ({call}); no statically known extent"
            else:
                note = f"called here ({call}); the fix passes {', '.join(site.texts)}"
            related.append(
                Location(site.module.path, self.range(site.module, site.site.node), note)
            )
        return related

    def _module_range(self, path: str, span: tuple[int, int]) -> Range:
        module = self.resolver.module_at(path) or self.module
        return module.positions.source.range(*span)

    def _unbound(self, analysis: KernelAnalysis) -> list[Finding]:
        kernel, module = analysis.kernel, analysis.module
        sites = self._sites_of(kernel, module)
        blocked = [s for s in sites if s.texts is None]
        fix = None
        names = [symbol.declared.name for symbol in analysis.symbols]
        if not blocked:
            pos = module.positions
            changes: list[TextEdit] = [edits.leading_params(kernel, module, pos, names)]
            for site in sites:
                assert site.texts is not None
                changes.append(
                    edits.call_extents(site.site, site.module, site.module.positions, site.texts)
                )
            plural = "s" if len(names) > 1 else ""
            calls = f"{len(sites)} call site{'s' if len(sites) != 1 else ''}"
            fix = Fix(
                f"Add leading parameter{plural} {', '.join(names)} to '{kernel.name}' and pass "
                f"the extent{plural} at {calls}",
                tuple(changes),
            )
        annotation = edits.scalar_annotation(module)
        findings = []
        for symbol in analysis.symbols:
            slot = symbol.slots[0]
            message = (
                f"Kernel '{kernel.name}' reads valid_shape symbol {_symbol_words(symbol.declared)} "
                f"at parameter '{slot.param.name}' (dim {slot.dim}), but no physical dimension "
                "and no scalar parameter binds it, so MaterializeValidShapeSymbols will add it "
                f"as a leading parameter. Declare `{symbol.declared.name}: {annotation}` as the "
                f"kernel's first parameter and pass the extent at every call site."
            )
            if blocked:
                listed = ", ".join(self._where(s) for s in blocked)
                message += (
                    " No fix is offered until these calls supply one statically known extent: "
                    f"{listed}."
                )
            node, related = self._entry_place(
                slot.param, slot.entry, slot.view_module, slot.via, module
            )
            related += self._symbol_related(symbol.declared, sites)
            findings.append(
                Finding(
                    "VS001",
                    RULES["VS001"].severity,
                    module.path,
                    self.range(module, node),
                    message,
                    related=tuple(related),
                    fix=fix,
                )
            )
        return findings

    def _where(self, site: SiteResult) -> str:
        start = self.range(site.module, site.site.node).start
        call = _callee_text(site.site.node.func)
        name = Path(site.module.path).name
        return f"{name}:{start.line + 1}:{start.column + 1} ({call}(...))"

    # -- call sites ------------------------------------------------------------------------

    def _sites_of(self, kernel: Function, module: Module) -> list[SiteResult]:
        """Every call of ``kernel`` in this module and (standalone kernels) the workspace."""
        cached = self._sites.get(id(kernel))
        if cached is None:
            cached = self._find_sites(kernel, module)
            self._sites[id(kernel)] = cached
        return cached

    def _find_sites(self, kernel: Function, module: Module) -> list[SiteResult]:
        analysis = self.analysis(kernel, module)
        found: list[tuple[CallSite, Module]] = []
        for site in self._calls_named(module).get(kernel.name, ()):
            callee = self.callee(site, module)
            if callee is not None and callee.function is kernel:
                found.append((site, module))
        if kernel.program is None and kernel.parent is None and self.workspace is not None:
            found.extend(self._foreign_sites(kernel, module))
        return [self.site_result(site, m, analysis) for site, m in found]

    def _foreign_sites(self, kernel: Function, module: Module) -> list[tuple[CallSite, Module]]:
        assert self.workspace is not None
        self.resolver.foreign += 1  # the workspace's files
        found: list[tuple[CallSite, Module]] = []
        for path in self.workspace.python_files():
            if self.resolver.same_file(path, module.path):
                continue
            text = self.workspace.read(path)
            if text is None or kernel.name not in text or "pypto" not in text:
                continue
            other = self.resolver.module_at(path)
            if other is None:
                continue
            for site in self._calls_named(other).get(kernel.name, ()):
                callee = self.callee(site, other)
                if callee is not None and callee.function is kernel:
                    found.append((site, other))
        return found

    def _calls_named(self, module: Module) -> dict[str, list[CallSite]]:
        """The call sites of a module grouped by the called name (built once per module)."""
        found = self._call_index.get(id(module))
        if found is None:
            found = {}
            for function in module.functions:
                for site in function.calls:
                    found.setdefault(site.target_name, []).append(site)
            self._call_index[id(module)] = found
        return found

    def site_result(self, site: CallSite, module: Module, analysis: KernelAnalysis) -> SiteResult:
        """What ``site`` passes for each unbound symbol of ``analysis``'s kernel, with its
        VS003/VS004 findings."""
        result = SiteResult(site, module, [])
        texts: list[str] = []
        resolved = not site.starred
        for symbol in analysis.symbols:
            value: Extent | None = None
            value_slot: Slot | None = None
            problem: str | None = None
            if site.starred:
                problem = "the call passes *args or **kwargs"
            for slot in symbol.slots:
                arg = _argument(site, slot.param)
                if arg is None:
                    if not site.starred:
                        result.findings.append(self._omitted(site, module, analysis, symbol, slot))
                        problem = f"argument '{slot.param.name}' is not supplied"
                    resolved = False
                    break
                extents = self.reader.of_argument(arg, site.caller, module)
                effective = extents.effective if extents is not None else None
                candidate = (
                    effective[slot.dim]
                    if effective is not None and slot.dim < len(effective)
                    else None
                )
                if candidate is None:
                    resolved = False
                    problem = problem or (
                        f"no statically known extent for '{slot.param.name}' dim {slot.dim}"
                    )
                    continue
                if value is None:
                    value, value_slot = candidate, slot
                elif value.key != candidate.key:
                    assert value_slot is not None
                    result.findings.append(
                        self._conflict(
                            site, module, analysis, symbol, (value, value_slot), (candidate, slot)
                        )
                    )
                    problem = (
                        f"'{value.text}' for '{value_slot.param.name}' dim {value_slot.dim} "
                        f"disagrees with '{candidate.text}' for '{slot.param.name}' dim {slot.dim}"
                    )
                    resolved = False
                    break
            if value is None:
                resolved = False
            else:
                texts.append(value.text)
            result.extents.append(
                SymbolExtent(symbol, value.text if value is not None else None, problem)
            )
        result.texts = texts if resolved else None
        return result

    def _call_words(self, site: CallSite, kernel: Function) -> str:
        if site.form == "call":
            return f"The call to kernel '{kernel.name}'"
        return f"pl.{site.form} of kernel '{kernel.name}'"

    def _omitted(
        self, site: CallSite, module: Module, analysis: KernelAnalysis, symbol: Symbol, slot: Slot
    ) -> Finding:
        annotation = edits.scalar_annotation(analysis.module)
        message = (
            f"{self._call_words(site, analysis.kernel)} does not supply argument "
            f"'{slot.param.name}' (parameter {slot.param.index}), whose valid_shape holds "
            f"symbol {_symbol_words(symbol.declared)} (dim {slot.dim}), so "
            "MaterializeValidShapeSymbols has no extent to pass. Pass the argument explicitly "
            "(a runtime-allocated pl.Out has no caller-side valid_shape), or bind the symbol by "
            f"a physical dimension or a leading `{symbol.declared.name}: {annotation}` parameter."
        )
        return Finding(
            "VS004", RULES["VS004"].severity, module.path, self.range(module, site.node), message
        )

    def _conflict(
        self,
        site: CallSite,
        module: Module,
        analysis: KernelAnalysis,
        symbol: Symbol,
        first: tuple[Extent, Slot],
        second: tuple[Extent, Slot],
    ) -> Finding:
        (a, a_slot), (b, b_slot) = first, second
        message = (
            f"{self._call_words(site, analysis.kernel)} supplies different extents for "
            f"valid_shape symbol {_symbol_words(symbol.declared)}: '{a.text}' (argument for "
            f"'{a_slot.param.name}', dim {a_slot.dim}) and '{b.text}' (argument for "
            f"'{b_slot.param.name}', dim {b_slot.dim}). Pass arguments whose valid_shape "
            "agrees at those positions."
        )
        return Finding(
            "VS003", RULES["VS003"].severity, module.path, self.range(module, site.node), message
        )


@dataclass(frozen=True)
class _KernelUnit:
    """A kernel's own findings, and per call of it in its module (in module order) the
    findings at that call; ``sites`` is None when it has no unbound symbol (no such
    findings)."""

    findings: tuple[Finding, ...]
    sites: tuple[tuple[Finding, ...], ...] | None


_UNIT_CACHE_SIZE = 20_000
_units: dict[tuple[object, ...], _KernelUnit] = {}
_environments: dict[tuple[object, ...], int] = {}
_environment_numbers = itertools.count(1)


def clear_cache() -> None:
    _units.clear()
    _environments.clear()


resolve.on_clear(clear_cache)


def _outermost(function: Function) -> Function:
    while function.parent is not None:
        function = function.parent
    return function


def _environment(module: Module, with_workspace: bool) -> int:
    """A number standing for everything of ``module`` a kernel may read besides its own
    statement and its callers': path, pypto aliases, every top-level statement other than
    a def (text and line), each def's name, each class's header and members (a def by
    name, anything else by text and line)."""
    lines = module.text.split("\n")

    def text(node: ast.stmt) -> tuple[int, str]:
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        return start, "\n".join(lines[start - 1 : node.end_lineno or node.lineno])

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
    key = tuple(parts)
    found = _environments.get(key)
    if found is None:
        if len(_environments) >= _UNIT_CACHE_SIZE:
            _environments.clear()
        found = next(_environment_numbers)  # never handed out twice
        _environments[key] = found
    return found


def _argument(site: CallSite, param: Param) -> ast.expr | None:
    if param.index < len(site.args):
        return site.args[param.index]
    return site.keywords.get(param.name)


def _callee_text(callee: ast.expr) -> str:
    """``ast.unparse`` of a call's callee, without it for the usual ``self.k`` / ``k``."""
    parts: list[str] = []
    node = callee
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
        return ast.unparse(callee)
    parts.append(node.id)
    return ".".join(reversed(parts))


def _symbol_words(dynamic: Dynamic) -> str:
    if dynamic.name == dynamic.symbol:
        return f"'{dynamic.symbol}'"
    return f"'{dynamic.symbol}' (Python name '{dynamic.name}')"
