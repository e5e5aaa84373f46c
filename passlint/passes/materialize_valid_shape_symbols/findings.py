"""Findings and fixes of MaterializeValidShapeSymbols, from the binding analysis and the
call-site results: for each rule (VS001-VS008, declared in ``rules``) the function that
raises it with its message and fix title, messages in the style of the rule catalog (the
first sentence says what is wrong and what to do, in at most 100 characters).

A VS001 fix is complete or it is not preferred: it is preferred only when every call of the
kernel is found and gets its extents; otherwise it still adds the parameter and passes the
extents it can, and its title names the calls left to edit by hand.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

from passlint.analysis.findings import Finding, Fix, Location, Range, TextEdit
from passlint.analysis.pl.excerpt import excerpt as q
from passlint.analysis.pl.expressions import unparse
from passlint.analysis.pl.model import CallSite, Dynamic, Module
from passlint.analysis.pl.positions import line_at
from passlint.analysis.rules import Rule
from passlint.passes.materialize_valid_shape_symbols import edits
from passlint.passes.materialize_valid_shape_symbols.model import (
    Conflict,
    KernelAnalysis,
    LateParam,
    Omitted,
    OutlinedKernel,
    SiteResult,
    Slot,
    Symbol,
    UndefinedName,
    UnknownShapeName,
    UnreadFile,
    ValueUse,
)
from passlint.passes.materialize_valid_shape_symbols.pipeline import Depends, Strided, dropped
from passlint.passes.materialize_valid_shape_symbols.rebinding import Rebinding
from passlint.passes.materialize_valid_shape_symbols.rules import (
    CALL_OMITS_VALID_SHAPE_ARGUMENT,
    COMPOUND_ONLY_VALID_SHAPE_SYMBOL,
    CONFLICTING_VALID_SHAPE_EXTENTS,
    OUTLINED_SCOPE_GAINS_VALID_SHAPE_PARAMETER,
    SCALAR_PARAM_AFTER_USE,
    UNBOUND_VALID_SHAPE_SYMBOL,
    UNDEFINED_VALID_SHAPE_NAME,
    UNKNOWN_SHAPE_VARIABLE,
)

FIRST_SENTENCE = 100  # characters, docs/messages.md point 1


def kernel_findings(
    analysis: KernelAnalysis,
    sites: list[SiteResult] | None,
    uses: list[ValueUse],
    unread: list[UnreadFile],
    rebindings: list[Rebinding] | None = None,
    views: Mapping[str, Strided | Depends] | None = None,
) -> list[Finding]:
    """The findings on a kernel itself (VS001, VS002, VS005, VS006, VS008); ``sites`` are its calls
    (None: not looked for, as it has nothing to pass); ``uses`` and ``unread`` hide calls
    the fix cannot reach; ``rebindings``: symbols whose parameter would change what other
    functions read (``rebinding``); ``views``: the parameters whose views ``pl.compile``'s
    pipeline replaces by strides first (``pipeline``)."""
    found = [late(analysis, item) for item in analysis.late]
    found += [undefined(analysis, item) for item in analysis.undefined]
    found += [unknown_shape(analysis, item) for item in analysis.unknown_shapes]
    found += [compound_only(analysis, symbol) for symbol in analysis.compound_only]
    if analysis.symbols:
        found += unbound(analysis, sites or [], uses, unread, rebindings or [], views or {})
    return found


def site_findings(result: SiteResult, analysis: KernelAnalysis) -> list[Finding]:
    """The findings at one call of a kernel (VS003, VS004)."""
    found = [omitted(result, analysis, item) for item in result.omitted]
    found += [conflict(result, analysis, item) for item in result.conflicts]
    return found


# -- VS001 ------------------------------------------------------------------------------------


def unbound(
    analysis: KernelAnalysis,
    sites: list[SiteResult],
    uses: list[ValueUse],
    unread: list[UnreadFile],
    rebindings: list[Rebinding],
    views: Mapping[str, Strided | Depends],
) -> list[Finding]:
    """One finding for the kernel's unbound symbols, on the first one's entry: the pass adds
    them all in one rewrite, which is the fix. (A finding for each symbol, each with the whole
    fix and every call's extents, made the output grow with the square of their number.)"""
    module, symbols = analysis.module, analysis.symbols
    blocked = [s for s in sites if s.texts is None]
    unfixable = analysis.clashes or analysis.fixed_views
    fix = None
    if not unfixable:
        fix = _unbound_fix(analysis, sites, blocked, uses, unread, rebindings)
    annotation = edits.scalar_annotation(module)
    message = _unbound_message(analysis, annotation) + _parser_made(analysis)
    message += _compiled_words(analysis, views)
    message += _unfixable(analysis, annotation)
    if rebindings and not unfixable:
        message += _rebinding_words(analysis, rebindings)
    left = _left_by_hand(blocked, uses, unread)
    if left and not unfixable:
        message += f" The fix cannot complete these calls: {'; '.join(left)}."
    node, related = _entry_place(symbols[0].slots[0], module)
    related += [_other_entry(symbol.slots[0]) for symbol in symbols[1:]]
    related += [place for symbol in symbols for place in _declared(symbol.declared, module)]
    related += _site_places(sites)
    return [_finding(UNBOUND_VALID_SHAPE_SYMBOL, module, node, message, related, fix)]


def _parser_made(analysis: KernelAnalysis) -> str:
    """Why there is a symbol where nothing declares one (``Resolver.annotation_symbol``)."""
    made = [s for s in analysis.symbols if s.declared.origin == "parser"]
    if not made:
        return ""
    names = _listed([f"'{q(s.name)}'" for s in made])
    one = len(made) == 1
    if analysis.module.postponed:
        why = (
            "with postponed annotations (`from __future__ import annotations`) it reads the "
            f"names bound when the program's decorator runs, and {'it is' if one else 'they are'}"
            " not bound then"
        )
    else:
        why = f"it never reads a class body's names, where Python found {'it' if one else 'them'}"
    return f" pypto's DSL parser makes {names} a symbol of that name itself: {why}."


def _unbound_message(analysis: KernelAnalysis, annotation: str) -> str:
    kernel, symbols = analysis.kernel, analysis.symbols
    if len(symbols) == 1:
        symbol, slot = symbols[0], symbols[0].slots[0]
        words = _symbol_words(symbol.declared)
        first = _sentence(
            f"Kernel '{q(kernel.name)}' cannot bind {words}; add it as a leading parameter.",
            f"Nothing binds valid_shape symbol {words}; add it as a leading parameter.",
            f"Nothing binds '{q(symbol.symbol)}'; add it as a leading parameter of the kernel.",
        )
        return (
            f"{first} No physical dimension or scalar parameter binds it (parameter "
            f"'{q(slot.param.name)}', dim {slot.dim}), so MaterializeValidShapeSymbols adds "
            f"`{q(symbol.declared.name)}: {q(annotation)}` in front and passes the extent at "
            "every call."
        )
    count = f"{len(symbols)} valid_shape symbols"
    first = _sentence(
        f"Kernel '{q(kernel.name)}' cannot bind "
        f"{_listed([_symbol_words(s.declared) for s in symbols])}; add them as leading parameters.",
        f"Kernel '{q(kernel.name)}' cannot bind {count}; add them as leading parameters.",
        f"Nothing binds {count}; add them as leading parameters of the kernel.",
    )
    where = _listed(
        [
            f"'{q(s.symbol)}': parameter '{q(s.slots[0].param.name)}', dim {s.slots[0].dim}"
            for s in symbols
        ],
        "; ",
        "; ",
    )
    params = _listed([f"`{q(s.declared.name)}: {q(annotation)}`" for s in symbols])
    return (
        f"{first} No physical dimension or scalar parameter binds them ({where}), so "
        f"MaterializeValidShapeSymbols adds {params} in front and passes the extents at every "
        "call."
    )


LISTED = 8  # the items a message names one by one; the others it counts


def _listed(items: list[str], separator: str = ", ", last: str = " and ") -> str:
    """``a, b and c``; beyond ``LISTED`` items, the first ones and how many more."""
    if len(items) > LISTED:
        return f"{separator.join(items[: LISTED - 1])}{last}{len(items) - LISTED + 1} more"
    if len(items) == 1:
        return items[0]
    return f"{separator.join(items[:-1])}{last}{items[-1]}"


def _unbound_fix(
    analysis: KernelAnalysis,
    sites: list[SiteResult],
    blocked: list[SiteResult],
    uses: list[ValueUse],
    unread: list[UnreadFile],
    rebindings: list[Rebinding],
) -> Fix:
    """Leading parameters named by the symbols' Python names (so that each takes over its
    ``pl.dynamic``), and the extents at every call. A symbol whose taking over would change
    what other functions read (``rebindings``) gets a parameter of a fresh name instead,
    read in its place in the kernel; where there is none, the fix is not preferred."""
    kernel, module = analysis.kernel, analysis.module
    pos = module.positions
    fresh = {r.dynamic: r for r in rebindings if r.fresh is not None}
    names = [
        fresh[s.declared].fresh or s.declared.name if s.declared in fresh else s.declared.name
        for s in analysis.symbols
    ]
    changes: list[TextEdit] = [edits.leading_params(kernel, module, pos, names)]
    for rebinding in fresh.values():
        assert rebinding.renamed is not None
        name, declaration, reads = rebinding.renamed
        changes.append(edits.declaration(module, pos, *declaration))
        changes += edits.renamed(module, pos, reads, name)
    for site in sites:
        if site.texts is not None:
            changes.append(
                edits.call_extents(site.site, site.module, site.module.positions, site.texts)
            )
    plural = "s" if len(names) > 1 else ""
    done = len(sites) - len(blocked)
    calls = f"{done} call site{'s' if done != 1 else ''}"
    renames = "".join(
        f" (its own `{q(r.fresh)} = pl.dynamic(...)` for '{q(r.dynamic.name)}')"
        for r in fresh.values()
        if r.fresh
    )
    title = (
        f"Add leading parameter{plural} {', '.join(q(n) for n in names)} to "
        f"'{q(kernel.name)}'{renames} and pass the extent{plural} at {calls}"
    )
    stuck = [r for r in rebindings if r.fresh is None]
    if not blocked and not uses and not unread and not stuck:
        return Fix(title, tuple(changes))
    left = []
    if blocked or uses or unread:
        by_hand = [_where(s.site, s.module) for s in blocked]
        by_hand += [_place(u.module, u.node, u.node.id) for u in uses]
        by_hand += [f"the calls in {Path(u.path).name}" for u in unread]
        left.append(f"edit by hand: {', '.join(by_hand)}")
    left += [
        f"not preferred: parameter '{q(r.dynamic.name)}' would change what "
        f"{_functions(r.after, r.after_count)} read"
        for r in stuck
    ]
    return Fix(f"{title}; {'; '.join(left)}", tuple(changes), preferred=False)


def _compiled_words(analysis: KernelAnalysis, views: Mapping[str, Strided | Depends]) -> str:
    """What ``pl.compile`` changes: the finding is the pass run on the program as parsed (as
    pypto's tests run it); its default pipeline may first replace the views that hold some
    of the symbols by strides (``pipeline``), and then the pass does not add them."""
    lost = dropped(analysis.symbols, views)
    if not lost:
        return ""
    params = list(dict.fromkeys(slot.param.name for s in lost for slot in (*s.slots, *s.compound)))
    fates = [views[name] for name in params]
    parents = _listed(list(dict.fromkeys(f"`{q(f.parent)}`" for f in fates)))
    conditions = list(dict.fromkeys(f.condition for f in fates if isinstance(f, Depends)))
    when = f", if {q(' and '.join(conditions))}," if conditions else ""
    names = _listed([f"'{q(n)}'" for n in params])
    words = _listed([_symbol_words(s.declared) for s in lost])
    one = len(params) == 1
    return (
        f" Under `pl.compile`{when} OptimizeOrchTensors runs first and replaces the "
        f"view{'' if one else 's'} of parameter{'' if one else 's'} {names} by the strides of "
        f"{parents} (the calls pass slices of a tensor of static shape), so there the pass "
        f"does not add {words}, and the fix leaves {'it' if len(lost) == 1 else 'them'} unread."
    )


def _functions(names: tuple[str, ...], count: int) -> str:
    """``'a', 'b' and 3 more``."""
    shown = [f"'{q(n)}'" for n in names]
    if count > len(names):
        shown.append(f"{count - len(names)} more")
    return _listed(shown)


def _rebinding_words(analysis: KernelAnalysis, rebindings: list[Rebinding]) -> str:
    """Why a parameter named as the symbol would break the program, and what the fix does."""
    kernel = q(analysis.kernel.name)
    words = []
    for r in rebindings:
        name = q(r.dynamic.name)
        symbol = _words(r.dynamic.symbol, r.dynamic.name)
        what = (
            f" A parameter named '{name}' would take over `pl.dynamic` {symbol} for every "
            f"function pypto's parser reads after '{kernel}' "
            f"({_functions(r.after, r.after_count)}), while those before it "
            f"({_functions(r.before, r.before_count)}) keep the symbol they share with them: "
            "calls between them would bind one symbol to two values, which the parser rejects "
            "(conflicting bindings, not provably equal)."
        )
        if r.fresh is not None:
            what += (
                f" So the fix declares `{q(r.fresh)}` as the same symbol after '{name}', reads "
                f"it for '{name}' in '{kernel}' and names the parameter '{q(r.fresh)}'."
            )
        else:
            what += (
                " The fix is not preferred: the kernel cannot get a `pl.dynamic` of its own "
                f"for it (it assigns '{name}', '{q(r.dynamic.name)}_{kernel}' is taken, or "
                f"'{name}' is not declared here as `{name} = pl.dynamic(...)`)."
            )
        words.append(what)
    return "".join(words)


def _unfixable(analysis: KernelAnalysis, annotation: str) -> str:
    """Why no fix is offered for the kernel, if none is."""
    if analysis.fixed_views:
        symbol = analysis.fixed_views[0]
        via = next(slot.via for slot in symbol.slots if slot.via)
        return (
            f" No fix is offered: '{q(symbol.declared.name)}' is read through the TensorView "
            f"variable '{q(via)}', whose symbols were fixed when Python built it, so no parameter "
            "can take it over; write that TensorView inline to bind it by a parameter."
        )
    if analysis.clashes:
        name = analysis.clashes[0].declared.name
        return (
            f" No fix is offered: a `{q(name)}: {q(annotation)}` parameter would repeat the name "
            "of another parameter of the kernel."
        )
    return ""


def _left_by_hand(
    blocked: list[SiteResult], uses: list[ValueUse], unread: list[UnreadFile]
) -> list[str]:
    left = [f"{_where(s.site, s.module)}: {s.problem}" for s in blocked]
    left += [
        f"{_place(u.module, u.node, u.node.id)}: the kernel is used as a value there, so the "
        "calls made through it cannot be found"
        for u in uses
    ]
    left += [
        f"{Path(u.path).name}: {u.reason}, so it was not read and its calls, if any, are unseen"
        for u in unread
    ]
    return left


# -- VS002 ------------------------------------------------------------------------------------


def compound_only(analysis: KernelAnalysis, symbol: Symbol) -> Finding:
    kernel, module = analysis.kernel, analysis.module
    slot = symbol.compound[0]
    entry_text = unparse(slot.entry)
    words, name, entry = _symbol_words(symbol.declared), q(kernel.name), q(entry_text)
    first = _sentence(
        f"Kernel '{name}' reads {words} only in '{entry}'; add a bare entry for it.",
        f"Valid_shape symbol {words} appears only in compound entries; add a bare entry for it.",
        f"Symbol '{q(symbol.symbol)}' appears only in compound valid_shape entries; add a bare "
        "one.",
    )
    message = (
        f"{first} MaterializeValidShapeSymbols rejects kernel '{name}': parameter "
        f"'{q(slot.param.name)}' uses {words} only inside '{entry}', so its value cannot be read "
        "from a call site. Declare it on its own in some parameter's valid_shape, bind it by a "
        f"physical dimension, or pass it as a `{q(edits.scalar_annotation(module))}` parameter."
    )
    node, related = _entry_place(slot, module)
    related += _declared(symbol.declared, module)
    return _finding(COMPOUND_ONLY_VALID_SHAPE_SYMBOL, module, node, message, related)


# -- VS003 / VS004 ----------------------------------------------------------------------------


def omitted(result: SiteResult, analysis: KernelAnalysis, item: Omitted) -> Finding:
    site, module = result.site, result.module
    slot, symbol = item.slot, item.symbol
    words = _symbol_words(symbol.declared)
    call = _call_words(site, analysis.kernel.name)
    first = _sentence(
        f"{call} omits argument '{q(slot.param.name)}', which holds {words}; pass it.",
        f"This call omits argument '{q(slot.param.name)}', which holds {words}; pass it.",
        f"This call omits the argument holding '{q(symbol.symbol)}'; pass it.",
    )
    annotation = edits.scalar_annotation(analysis.module)
    message = (
        f"{first} MaterializeValidShapeSymbols reads the extent of {words} from that argument "
        f"(parameter {slot.param.index}, dim {slot.dim}) and rejects a call that does not "
        "supply it; a runtime-allocated pl.Out has no caller-side valid_shape. Or bind the "
        f"symbol by a physical dimension or a leading `{q(symbol.declared.name)}: {q(annotation)}` "
        "parameter."
    )
    return _finding(CALL_OMITS_VALID_SHAPE_ARGUMENT, module, site.node, message)


def conflict(result: SiteResult, analysis: KernelAnalysis, item: Conflict) -> Finding:
    site, module = result.site, result.module
    (a, a_slot), (b, b_slot) = item.first, item.second
    words = _symbol_words(item.symbol.declared)
    call = _call_words(site, analysis.kernel.name)
    first = _sentence(
        f"{call} passes two extents for {words}; make its arguments agree.",
        f"This call passes two extents for {words}; make its arguments agree.",
        f"This call passes two extents for '{q(item.symbol.symbol)}'; make its arguments agree.",
    )
    message = (
        f"{first} The argument for '{q(a_slot.param.name)}' (dim {a_slot.dim}) gives '{q(a)}' and "
        f"the one for '{q(b_slot.param.name)}' (dim {b_slot.dim}) gives '{q(b)}': pypto's DSL "
        "parser rejects the call when the program is defined (conflicting bindings that are "
        "not provably equal), and MaterializeValidShapeSymbols, which passes one value per "
        "symbol, would too."
    )
    return _finding(CONFLICTING_VALID_SHAPE_EXTENTS, module, site.node, message)


# -- VS005 / VS006 ----------------------------------------------------------------------------


def late(analysis: KernelAnalysis, item: LateParam) -> Finding:
    kernel, module = analysis.kernel, analysis.module
    param, reader = item.param, item.reader
    late_name, reader_name = q(param.name), q(reader.name)
    if item.via is None:
        first = _sentence(
            f"Parameter '{late_name}' comes after '{reader_name}', which reads it; move it in "
            "front.",
            f"Parameter '{late_name}' comes after a parameter that reads it; move it in front.",
            "A scalar parameter comes after a parameter that reads it; move it in front.",
        )
    else:
        first = _sentence(
            f"Parameter '{late_name}' shadows a symbol of view '{q(item.via)}'; write that "
            "view inline.",
            "A scalar parameter shadows a symbol of a view variable; write that view inline.",
        )
    what = _symbol_words(item.dynamic) if item.dynamic is not None else f"'{q(param.name)}'"
    message = (
        f"{first} pypto's DSL parser rejects kernel '{q(kernel.name)}' when it is defined: the "
        f"annotation of '{q(reader.name)}' already read the `pl.dynamic` symbol {what}, which a "
        "scalar parameter of that name can take over only before every annotation that "
        "reads it."
    )
    pos = module.positions
    fix = None
    if item.via is None:
        fix = Fix(
            f"Move parameter '{q(param.name)}' in front of '{q(reader.name)}'",
            tuple(edits.move_param(kernel, module, pos, param, reader)),
        )
    else:
        message += (
            f" No fix is offered: '{q(reader.name)}' reads it through the TensorView variable "
            f"'{q(item.via)}', which no parameter can take over, wherever it stands."
        )
    rng = pos.source.range(*param.span)
    return Finding(
        SCALAR_PARAM_AFTER_USE.code,
        SCALAR_PARAM_AFTER_USE.severity,
        module.path,
        rng,
        message,
        fix=fix,
    )


def undefined(analysis: KernelAnalysis, item: UndefinedName) -> Finding:
    kernel, module, name = analysis.kernel, analysis.module, q(item.name)
    first = _sentence(
        f"The valid_shape of '{q(item.param.name)}' reads undefined '{name}'; define it.",
        f"A valid_shape entry reads undefined '{name}'; define it.",
        "A valid_shape entry reads an undefined name; define it.",
    )
    if kernel.param(item.name) is None:
        why = (
            f"'{name}' is no `pl.dynamic` symbol, int constant or parameter (e.g. `{name} = "
            f'pl.dynamic("{name}")`).'
        )
    else:  # (pypto's parser would read the parameter, but Python evaluates the entry first)
        why = (
            "it evaluates the annotation there, where no parameter is a name yet (define "
            f'`{name} = pl.dynamic("{name}")` above it, or add `from __future__ import '
            f"annotations` so that pypto's parser reads parameter '{name}')."
        )
    message = f"{first} Python raises NameError when kernel '{q(kernel.name)}' is defined: {why}"
    return _finding(UNDEFINED_VALID_SHAPE_NAME, module, item.node, message)


# -- VS008 ------------------------------------------------------------------------------------


def unknown_shape(analysis: KernelAnalysis, item: UnknownShapeName) -> Finding:
    kernel, module, name = analysis.kernel, analysis.module, q(item.node.id)
    first = _sentence(
        f"The shape of '{q(item.param.name)}' reads undefined '{name}'; define it above the "
        "program.",
        f"A shape reads undefined '{name}'; define it above the program.",
        "A shape reads an undefined name; define it above the program.",
    )
    if item.raised_by == "python":
        why = (
            f"Python raises NameError when kernel '{q(kernel.name)}' is defined: '{name}' is no "
            "`pl.dynamic` symbol or int constant where its annotations are evaluated."
        )
    else:
        if item.class_body:
            where = "it never reads a class body's names, where Python found it"
        else:
            where = (
                "with postponed annotations (`from __future__ import annotations`) it reads "
                "the names bound when the program's decorator runs, and it is not bound then"
            )
        why = (
            f"pypto's DSL parser rejects kernel '{q(kernel.name)}' when it is defined "
            f'("Unknown shape variable: {name}"): a physical dimension is an int, a '
            f"`pl.dynamic` symbol of the program's frame or an earlier parameter, and {where}."
        )
    message = f'{first} {why} For example `{name} = pl.dynamic("{name}")` above the program.'
    return _finding(UNKNOWN_SHAPE_VARIABLE, module, item.node, message)


# -- VS007 ------------------------------------------------------------------------------------


def outlined(module: Module, kernel: OutlinedKernel) -> Finding:
    """The valid_shape symbols the pass adds to a kernel outlined from ``pl.at``."""
    names = ", ".join(_words(s.symbol, s.name) for s in kernel.symbols)
    plural = "s" if len(kernel.symbols) > 1 else ""
    strings = ", ".join(f"'{q(s.symbol)}'" for s in kernel.symbols)
    adds = "may add" if all(s.unless is not None for s in kernel.symbols) else "adds"
    first = _sentence(
        f"The pass {adds} {names} to outlined kernel '{q(kernel.name)}'; nothing to change.",
        f"The pass {adds} {strings} to outlined kernel '{q(kernel.name)}'; nothing to change.",
        f"The pass {adds} leading parameter{plural} to this outlined kernel; nothing to change.",
    )
    fed = "; ".join(
        f"{_words(s.symbol, s.name)} from the valid_shape of '{q(s.tensor)}', fed `{q(s.extent)}`"
        + _unless(s.tensor, s.unless)
        for s in kernel.symbols
    )
    message = (
        f"{first} pypto's default pipeline outlines this `pl.at(level=pl.Level.CORE_GROUP)` "
        f"scope into InCore kernel '{q(kernel.name)}', whose parameters are the tensors it uses, "
        f"and MaterializeValidShapeSymbols adds what nothing there binds: {fed}."
    )
    node, positions = kernel.scope.node, module.positions
    start = positions.start(node)
    end = min(positions.end(node), line_at(positions.source, start).end)  # its first line
    rng = positions.source.range(start, end)
    return Finding(
        OUTLINED_SCOPE_GAINS_VALID_SHAPE_PARAMETER.code,
        OUTLINED_SCOPE_GAINS_VALID_SHAPE_PARAMETER.severity,
        module.path,
        rng,
        message,
    )


def _unless(tensor: str, unless: Depends | None) -> str:
    """When the pipeline's OptimizeOrchTensors may replace the view first (``pipeline``)."""
    if unless is None:
        return ""
    return (
        f", unless {q(unless.condition)}: then OptimizeOrchTensors first gives the parameter "
        f"of '{q(tensor)}' (a slice of `{q(unless.parent)}`) the strides of `{q(unless.parent)}` "
        "instead of its view, and nothing is added"
    )


# -- shared -----------------------------------------------------------------------------------


def _finding(
    rule: Rule,
    module: Module,
    node: ast.AST,
    message: str,
    related: list[Location] | None = None,
    fix: Fix | None = None,
) -> Finding:
    rng = module.positions.range(node)
    return Finding(rule.code, rule.severity, module.path, rng, message, tuple(related or ()), fix)


def _sentence(*options: str) -> str:
    """The first option whose length is within the first-sentence limit (else the last)."""
    return next((o for o in options if len(o) <= FIRST_SENTENCE), options[-1])


def _call_words(site: CallSite, kernel: str) -> str:
    if site.form == "call":
        return f"The call to kernel '{q(kernel)}'"
    return f"`pl.{site.form}` of kernel '{q(kernel)}'"


def _entry_place(slot: Slot, module: Module) -> tuple[ast.AST, list[Location]]:
    """Where to point for a valid_shape entry: the entry, or (a view held in a variable)
    the variable, with the entry as a related place."""
    param = slot.param
    if slot.view_module is module and slot.via is None:
        return slot.entry, []
    assert param.tensor is not None and param.tensor.view_ref is not None
    assert slot.via is not None  # (an inline view is in the kernel's own module)
    note = f"the valid_shape entry in the TensorView '{q(slot.via)}'"
    rng = slot.view_module.positions.range(slot.entry)
    return param.tensor.view_ref, [Location(slot.view_module.path, rng, note)]


def _other_entry(slot: Slot) -> Location:
    """The entry of a further unbound symbol of the kernel."""
    where = f"parameter '{q(slot.param.name)}', dim {slot.dim}"
    if slot.via is not None:
        where += f", in the TensorView '{q(slot.via)}'"
    rng = slot.view_module.positions.range(slot.entry)
    return Location(slot.view_module.path, rng, f"unbound too ({where})")


def _declared(dynamic: Dynamic, module: Module) -> list[Location]:
    """Where the symbol is declared, when that is in the kernel's module."""
    if dynamic.path != module.path:
        return []
    declared = module.positions.source.range(*dynamic.span)
    if dynamic.origin == "parser":
        note = f"pypto's parser makes symbol '{q(dynamic.symbol)}' here"
    else:
        note = f"symbol '{q(dynamic.symbol)}' is declared here"
    return [Location(dynamic.path, declared, note)]


def _site_places(sites: list[SiteResult]) -> list[Location]:
    """Each call of the kernel, with what the fix passes there or why it passes nothing."""
    related = []
    for site in sites:
        call = callee_text(site.site.node.func)
        if site.texts is None:
            note = f"called here ({q(call)}); {site.problem}"
        else:
            note = f"called here ({q(call)}); the fix passes {', '.join(q(t) for t in site.texts)}"
        related.append(Location(site.module.path, _range(site.module, site.site.node), note))
    return related


def _range(module: Module, node: ast.AST) -> Range:
    return module.positions.range(node)


def _where(site: CallSite, module: Module) -> str:
    return _place(module, site.node, f"{callee_text(site.node.func)}(...)")


def _place(module: Module, node: ast.AST, what: str) -> str:
    start = module.positions.range(node).start
    return f"{Path(module.path).name}:{start.line + 1}:{start.column + 1} ({q(what)})"


def callee_text(callee: ast.expr) -> str:
    """``ast.unparse`` of a call's callee, without it for the usual ``self.k`` / ``k``."""
    parts: list[str] = []
    node = callee
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is not ast.Name:
        return unparse(callee)
    parts.append(node.id)
    return ".".join(reversed(parts))


def _symbol_words(dynamic: Dynamic) -> str:
    return _words(dynamic.symbol, dynamic.name)


def _words(symbol: str, name: str) -> str:
    if name == symbol:
        return f"'{q(symbol)}'"
    return f"'{q(symbol)}' (Python name '{q(name)}')"


__all__ = [
    "callee_text",
    "compound_only",
    "conflict",
    "kernel_findings",
    "late",
    "omitted",
    "outlined",
    "site_findings",
    "unbound",
    "undefined",
    "unknown_shape",
]
