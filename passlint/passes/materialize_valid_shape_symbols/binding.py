"""Binding analysis of one device kernel: which valid_shape symbols its parameters bind and
which the pass must add (``materialize_valid_shape_symbols_pass.cpp``, ``BuildPlan``), read
the way pypto's parser reads the annotations (``type_resolver.py``, ``ast_parser.py``).

* A physical shape entry reads its names from the definition's frame first, then from the
  earlier parameters (``_resolve_shape_dim``); a valid_shape entry is an int the frame
  holds first (``_try_resolve_int``), else an earlier parameter, else what the frame holds
  (``_parse_tileview_expr``).
* Bound: every name in any tensor parameter's physical shape, and every non-tensor parameter.
* A valid_shape entry naming an earlier parameter (of any dtype) is that parameter: bound;
  but without postponed annotations Python evaluates the entry first, where it is defined,
  and a name only a parameter binds raises NameError there (VS006; a physical shape's: VS008).
  A ``X: pl.Scalar[pl.INDEX]`` parameter also takes over the ``pl.dynamic`` held by the
  Python name ``X`` (``_bind_dynvar_to_scalar_param``), so later annotations read it; after
  a parameter whose annotation read ``X``, the parser rejects it (VS005).
* A valid_shape name of the kernel's own annotations that nothing defines where the program
  is built is a symbol the parser makes (``_parse_tileview_expr``), unless Python raised
  NameError evaluating the annotation first (VS006; ``Resolver.annotation_symbol``).
* A TensorView held in a variable was built when Python ran its assignment: its symbols are
  fixed then, and no parameter takes them over (only a physical dimension binds them).
* Unbound symbols are ordered by their first bare slot; a symbol only inside compound entries
  is rejected by the pass (VS002). Each ``pl.dynamic`` binding is a symbol of its own; a
  physical dimension binds every symbol of its string (pypto caches dimension ``Var``s by
  string).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections import Counter

from passlint.analysis.pl.model import Dynamic, Function, Module, Param, TensorView
from passlint.analysis.pl.resolve import RDynamic, Resolved, Resolver, RInt, RParam, RView
from passlint.analysis.pl.walk import names_below
from passlint.passes.materialize_valid_shape_symbols.model import (
    Binding,
    KernelAnalysis,
    LateParam,
    Slot,
    Symbol,
    UndefinedName,
    UnknownShapeName,
)

_WORD = re.compile(r"\w+")
_INDEX_DTYPES = frozenset({"INDEX"})


def analyze_kernel(kernel: Function, module: Module, resolver: Resolver) -> KernelAnalysis:
    """The symbols, slots and parameter problems of one device kernel."""
    result = KernelAnalysis(kernel, module)
    late = _late_params(result, resolver)

    def in_frame(name: str) -> Resolved | None:
        return resolver.resolve_in_definition(name, module, kernel)

    def earlier_first(name: str, index: int) -> Resolved | None:
        """A valid_shape name: an int the frame holds (``_try_resolve_int`` evaluates the
        entry first), the earlier parameters, then the frame's other values."""
        framed = in_frame(name)
        if isinstance(framed, RInt):
            return framed
        param = kernel.param(name)
        if param is not None and param.index < index:
            return RParam(param)
        if name in late:
            return RParam(late[name])
        return framed

    def python_raises(name: str) -> bool:
        """Does Python raise NameError on ``name`` when the kernel's ``def`` runs? Without
        postponed annotations it evaluates them there, before pypto's parser reads any
        parameter: a name nothing binds in the frame or the class body around is unknown."""
        return not module.postponed and not resolver.python_finds(name, module, kernel)

    bound: dict[str, Binding] = {}
    unknown: dict[str, UnknownShapeName] = {}
    for param in kernel.params:
        if param.tensor is None or param.tensor.shape is None:
            continue
        for dim, entry in enumerate(param.tensor.shape):
            for name in names_below(entry):
                resolved = in_frame(name.id)  # the frame first, then earlier parameters
                earlier = kernel.param(name.id)
                usable = earlier is not None and earlier.index < param.index
                if resolved is None and (not usable or python_raises(name.id)):
                    if name.id not in unknown:  # pypto stops at the first: one per name
                        unknown[name.id] = _unknown(param, name, module, kernel, resolver)
                    continue
                if isinstance(resolved, RDynamic):
                    bound.setdefault(resolved.dynamic.symbol, Binding("shape", param, dim))
    result.unknown_shapes = list(unknown.values())

    symbols: dict[tuple[str, object], Symbol] = {}
    for param in kernel.params:
        view, view_module, via = _view(param, module, kernel, resolver)
        if view is None or view.valid_shape is None:
            continue
        own = view_module is module and via is None
        for dim, entry in enumerate(view.valid_shape):
            for name in names_below(entry):
                if own:
                    resolved = earlier_first(name.id, param.index)
                    if isinstance(resolved, RParam) and python_raises(name.id):
                        resolved = None  # (an earlier parameter is no name where Python looks)
                else:
                    resolved = resolver.resolve(name.id, view_module, None)
                    if isinstance(resolved, RDynamic) and resolved.dynamic.name in late:
                        resolved = RParam(late[resolved.dynamic.name])  # VS005 says it
                if resolved is None and own:
                    resolved = resolver.annotation_symbol(name, module, kernel)
                if resolved is None:
                    tensor = param.tensor
                    node: ast.AST = name if own or tensor is None else (tensor.view_ref or name)
                    result.undefined.append(UndefinedName(param, name.id, node))
                    continue
                slot = Slot(param, dim, entry, view_module, via)
                if isinstance(resolved, RParam):
                    symbol = symbols.get(("param", resolved.param.name))
                    if symbol is None:
                        shadowed = in_frame(name.id)
                        dynamic = shadowed.dynamic if isinstance(shadowed, RDynamic) else None
                        symbol = Symbol(name.id, dynamic, Binding("parameter", resolved.param))
                        symbols[("param", resolved.param.name)] = symbol
                    symbol.occurrences.append((view_module, name))
                    continue
                if not isinstance(resolved, RDynamic):
                    continue
                dynamic = resolved.dynamic
                symbol = symbols.get(("dynamic", dynamic))
                if symbol is None:
                    symbol = Symbol(dynamic.name, dynamic, bound.get(dynamic.symbol))
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
    result.compound_only = [
        s for s in result.all_symbols if not s.bound and not s.slots and s.dynamic is not None
    ]
    names = Counter([p.name for p in kernel.params] + [s.declared.name for s in result.symbols])
    result.clashes = [s for s in result.symbols if names[s.declared.name] > 1]
    result.fixed_views = [s for s in result.symbols if any(slot.via for slot in s.slots)]
    return result


def _unknown(
    param: Param, name: ast.Name, module: Module, kernel: Function, resolver: Resolver
) -> UnknownShapeName:
    """VS008: who rejects a physical shape name nothing defines (``type_resolver.py``,
    ``_resolve_shape_dim``: "Unknown shape variable"). Without postponed annotations Python
    evaluates the annotation first and raises NameError, unless the class body holds the
    name (Python sees it there, the parser does not)."""
    if module.postponed:
        return UnknownShapeName(param, name, "parser")
    if resolver.in_class_body(name.id, kernel):
        return UnknownShapeName(param, name, "parser", class_body=True)
    return UnknownShapeName(param, name, "python")


def _is_index_scalar(param: Param) -> bool:
    dtype = param.dtype
    if param.kind != "scalar" or dtype is None:
        return False
    word = dtype.attr if isinstance(dtype, ast.Attribute) else getattr(dtype, "id", None)
    return word in _INDEX_DTYPES


def _view(
    param: Param, module: Module, kernel: Function, resolver: Resolver
) -> tuple[TensorView | None, Module, str | None]:
    tensor = param.tensor
    if tensor is None:
        return None, module, None
    if tensor.view is not None:
        return tensor.view, module, None
    ref = tensor.view_ref
    if isinstance(ref, ast.Name):
        resolved = resolver.resolve_in_definition(ref.id, module, kernel)
        if isinstance(resolved, RView):
            return resolved.view, resolved.module, ref.id
    return None, module, None


def _late_params(result: KernelAnalysis, resolver: Resolver) -> dict[str, Param]:
    """VS005: ``pl.INDEX`` scalar parameters named like a ``pl.dynamic`` that an earlier
    parameter's annotation already reads, inline or through a TensorView variable (pypto's
    parser rejects them)."""
    kernel, module = result.kernel, result.module
    text = module.text
    readers: dict[str, tuple[Param, str | None]] = {}
    late: dict[str, Param] = {}
    last = {p.name: position for position, p in enumerate(kernel.params)}  # by name
    for position, param in enumerate(kernel.params):
        reader = readers.get(param.name)
        if reader is not None and param.name not in late and _is_index_scalar(param):
            shadowed = resolver.resolve_in_definition(param.name, module, kernel)
            if isinstance(shadowed, RDynamic):
                late[param.name] = param
                result.late.append(LateParam(param, reader[0], _dynamic(shadowed), reader[1]))
        view, _, via = _view(param, module, kernel, resolver)
        if via is not None and view is not None:
            entries = [*(view.valid_shape or ()), *(view.stride or ())]
            for entry in entries:
                for read in names_below(entry):
                    if last.get(read.id, -1) > position:  # a later parameter's name
                        readers.setdefault(read.id, (param, via))
        words = _WORD.findall(text, param.span[0] + len(param.name), param.span[1])
        if not module.names_as_written:
            words = [unicodedata.normalize("NFKC", word) for word in words]
        if all(last.get(word, -1) <= position for word in words):
            continue  # no later parameter's name in the annotation's text
        for name in sorted(param.reads):
            readers.setdefault(name, (param, None))
    return late


def _dynamic(resolved: RDynamic) -> Dynamic:
    return resolved.dynamic
