"""One dry run of MaterializeValidShapeSymbols over one pl module: front end -> binding
analysis (``binding``) -> call-site resolution (``sites``) -> findings and fixes
(``findings``), each step reading only the ones before it; the reuse of unchanged kernels'
findings lives in ``cache``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from passlint.analysis.findings import Finding
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import Dynamic, Function, Module
from passlint.analysis.pl.resolve import Resolved, Resolver
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols import findings as report
from passlint.passes.materialize_valid_shape_symbols.binding import analyze_kernel
from passlint.passes.materialize_valid_shape_symbols.cache import (
    KernelUnit,
    UnitKeys,
    UnitMemo,
    cached,
)
from passlint.passes.materialize_valid_shape_symbols.model import (
    KernelAnalysis,
    KernelSummary,
    OutlinedKernel,
    SiteResult,
    UnreadFile,
    ValueUse,
)
from passlint.passes.materialize_valid_shape_symbols.outlined import outlined_kernels
from passlint.passes.materialize_valid_shape_symbols.pipeline import (
    Depends,
    Pipeline,
    Strided,
    dropped,
)
from passlint.passes.materialize_valid_shape_symbols.rebinding import (
    NameReads,
    Readers,
    Rebinding,
)
from passlint.passes.materialize_valid_shape_symbols.sites import CallSites, SiteIndex


class Kept:
    """The functions whose kernels, calls and ``pl.at`` scopes one run reports on, in module
    order (a run of a parametrized case visits these alone, never the whole module)."""

    def __init__(self, functions: Iterable[Function]) -> None:
        self.functions = list(functions)
        self._ids = {id(function) for function in self.functions}

    def __contains__(self, function: Function) -> bool:
        return id(function) in self._ids


class Run:
    """The analyses of one module's kernels (and of the kernels its calls reach);
    ``bindings`` give enclosing functions' parameters the values of one parametrized case
    (``Resolver``; such a run reuses no stored findings); ``reads`` and ``index``, the
    module's name and call indexes, are shared by the runs of one module's cases; ``memo``
    keeps the other modules read and the kernels' findings for the next run (``cache``)."""

    def __init__(
        self,
        module: Module,
        workspace: Workspace | None,
        bindings: Mapping[tuple[int, str], Resolved] | None = None,
        reads: NameReads | None = None,
        memo: PlMemo | None = None,
        index: SiteIndex | None = None,
    ) -> None:
        self.module = module
        self.workspace = workspace
        self.resolver = Resolver(module, workspace, bindings, memo)
        self._bound = bool(bindings)
        self.sites = CallSites(module, self.resolver, workspace, index)
        self.pipeline = Pipeline(self.resolver, self.sites.reader)
        self._sites: dict[int, list[SiteResult]] = {}
        self._analyses: dict[int, tuple[KernelAnalysis, bool]] = {}  # and: read other files
        self._unbound: dict[int, frozenset[str]] = {}  # id(kernel) -> its unbound symbols' names
        self._unit_keys: dict[int, tuple[object, ...] | None] = {}  # id(kernel) -> ``_key``
        units = memo.part(UnitMemo) if memo is not None else None
        self._keys = UnitKeys(module, workspace is not None, units) if units is not None else None
        self.readers = Readers(
            module,
            self.resolver,
            self._takes_over,
            reads if reads is not None else NameReads(module, memo),
        )

    def analysis(self, kernel: Function, module: Module) -> KernelAnalysis:
        """The kernel's analysis (once per run; asking again counts as reading the other
        files the first computation read: ``Resolver.remembered``)."""
        return self.resolver.remembered(
            self._analyses, id(kernel), lambda: analyze_kernel(kernel, module, self.resolver)
        )

    def sites_of(self, analysis: KernelAnalysis) -> list[SiteResult]:
        found = self._sites.get(id(analysis.kernel))
        if found is None:
            found = self.sites.of_kernel(analysis)
            self._sites[id(analysis.kernel)] = found
        return found

    def value_uses(self, analysis: KernelAnalysis) -> list[ValueUse]:
        """Uses as a value of a standalone kernel with unbound symbols (a program's method
        can only be called, as ``self.k``)."""
        if not analysis.symbols or analysis.kernel.owner is not None:
            return []
        return self.sites.value_uses(analysis.kernel, analysis.module)

    def unread(self, analysis: KernelAnalysis) -> list[UnreadFile]:
        """The workspace files that may call a kernel with unbound symbols and were not
        read (so no fix can be known to reach every call)."""
        if not analysis.symbols:
            return []
        return self.sites.unread(analysis.kernel)

    def summary(self, kernel: Function) -> KernelSummary:
        analysis = self.analysis(kernel, self.module)
        sites = self.sites_of(analysis)
        views = self.compiled_views(analysis, sites)
        lost = dropped(analysis.symbols, views)
        gone = {id(symbol) for symbol in lost}
        depends = any(
            isinstance(views[slot.param.name], Depends)
            for symbol in lost
            for slot in (*symbol.slots, *symbol.compound)
        )
        return KernelSummary(
            kernel,
            self.module,
            tuple(analysis.all_symbols),
            tuple(analysis.symbols),
            None if depends else tuple(s for s in analysis.symbols if id(s) not in gone),
            tuple(sites),
            tuple(self.value_uses(analysis)),
        )

    def compiled_views(
        self, analysis: KernelAnalysis, sites: list[SiteResult]
    ) -> dict[str, Strided | Depends]:
        """The kernel's parameters holding unbound symbols whose views ``pl.compile``'s
        pipeline replaces by strides before the pass (``pipeline``), fed at ``sites``."""
        calls = [(result.site, result.module) for result in sites]
        views: dict[str, Strided | Depends] = {}
        params = {slot.param.index for s in analysis.symbols for slot in (*s.slots, *s.compound)}
        for index in sorted(params):
            fate = self.pipeline.direct_input(analysis.kernel, index, calls)
            if fate is not None:
                views[analysis.kernel.params[index].name] = fate
        return views

    def rebindings(self, analysis: KernelAnalysis) -> list[Rebinding]:
        """The unbound symbols whose leading parameter would split the other readers of
        their ``pl.dynamic`` (``rebinding``)."""
        if analysis.module is not self.module:
            return []
        found = (self.readers.split(analysis.kernel, s.declared) for s in analysis.symbols)
        return [r for r in found if r is not None]

    def _takes_over(self, function: Function, dynamic: Dynamic) -> bool:
        """Does ``function``'s own VS001 fix give it the parameter for ``dynamic``? (Asked
        of a function whose name for ``dynamic`` means it: so when it has an unbound symbol
        of that name, that symbol is ``dynamic``.)"""
        if not function.is_device_kernel:
            return False
        unbound = self._unbound.get(id(function))
        if unbound is None:
            unbound = self._unbound[id(function)] = self._unbound_names(function)
        return dynamic.name in unbound

    def _unbound_names(self, kernel: Function) -> frozenset[str]:
        """The names of a kernel's unbound symbols, kept in the memo as its unit is
        (``cache``): an edit of one kernel does not analyse every other reader again."""
        before = self.resolver.foreign

        def compute() -> frozenset[str]:
            return frozenset(s.name for s in self.analysis(kernel, self.module).symbols)

        if self._keys is None:
            return compute()
        table, key = self._keys.memo.unbound, self._key(kernel)
        return cached(table, key, compute, lambda: self.resolver.foreign != before)

    def outlined(self, kept: Kept | None = None) -> list[OutlinedKernel]:
        """The kernels outlined from ``pl.at`` scopes of non-kernel functions (all, or those
        ``kept`` holds) that gain parameters."""
        found: list[OutlinedKernel] = []
        for function in self.module.functions if kept is None else kept.functions:
            if not function.is_device_kernel and function.outlined:
                reader = self.sites.reader
                found += outlined_kernels(function, self.module, self.resolver, reader)
        return found

    # -- findings ----------------------------------------------------------------------------

    def findings(self, kept: Kept | None = None) -> list[Finding]:
        """The module's findings; with ``kept``, those of the kernels, calls and ``pl.at``
        scopes in the functions it holds."""
        found: list[Finding] = []
        module = self.module
        functions = module.functions if kept is None else kept.functions
        for kernel in functions:
            if not kernel.is_device_kernel:
                continue
            unit = self._unit(kernel)
            found.extend(unit.findings)
            if unit.sites is not None:  # its calls in this module, in the unit's order
                for site, results in zip(self.sites.own_calls(kernel), unit.sites, strict=True):
                    if kept is None or site.caller in kept:
                        found.extend(results)
        for function in functions:
            for site in function.calls:
                callee = self.sites.callee(site, module)
                if callee is None or not callee.function.is_device_kernel:
                    continue
                if callee.module is module and (kept is None or callee.function in kept):
                    continue  # reported with the kernel above
                analysis = self.analysis(callee.function, callee.module)
                if analysis.symbols:
                    result = self.sites.result(site, module, analysis)
                    found.extend(report.site_findings(result, analysis))
        found += [report.outlined(module, kernel) for kernel in self.outlined(kept)]
        found.sort(key=lambda f: (f.range.start, f.range.end, f.code, f.message))
        return found

    def _unit(self, kernel: Function) -> KernelUnit:
        """The findings of a kernel of this module and those at its calls in this module,
        reused from an earlier run whose inputs were the same (``cache``)."""
        before = self.resolver.foreign

        def compute() -> KernelUnit:
            module = self.module
            analysis = self.analysis(kernel, module)
            sites: list[SiteResult] | None = None
            if analysis.symbols or analysis.compound_only:
                sites = self.sites_of(analysis)
            findings = report.kernel_findings(
                analysis,
                sites,
                self.value_uses(analysis),
                self.unread(analysis),
                self.rebindings(analysis),
                self.compiled_views(analysis, sites or []),
            )
            own: tuple[tuple[Finding, ...], ...] | None = None
            if analysis.symbols:
                own = tuple(
                    tuple(report.site_findings(r, analysis))
                    for r in sites or []
                    if r.module is module
                )
            return KernelUnit(tuple(findings), own)

        if self._keys is None:
            return compute()
        table, key = self._keys.memo.units, self._key(kernel)
        return cached(table, key, compute, lambda: self.resolver.foreign != before)

    def _key(self, kernel: Function) -> tuple[object, ...] | None:
        """What a kernel's findings depend on in this module (``cache.UnitKeys``); None when
        they are not kept: a standalone kernel's uses as a value may be anywhere in the
        module, and a case's run binds parameters."""
        if self._keys is None or kernel.owner is None or self._bound:
            return None
        if id(kernel) not in self._unit_keys:  # (asked for its unit and its unbound names)
            self._unit_keys[id(kernel)] = self._keys.key(kernel, self.sites.calling(kernel))
        return self._unit_keys[id(kernel)]
