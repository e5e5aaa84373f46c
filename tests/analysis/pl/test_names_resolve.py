"""The name model of ``resolve`` and ``provenance``, as pypto's parser reads names (not as
CPython evaluates them): the frame copied when the decorator runs, postponed annotations,
free variables, class bodies, and symbols made by helpers (their string and Python name)."""

from __future__ import annotations

import textwrap

from passlint.analysis.pl.model import Dynamic, Function, Module
from passlint.analysis.pl.resolve import RDynamic, Resolver, load_module


def module_of(text: str) -> Module:
    module = load_module("m.py", textwrap.dedent(text))
    assert isinstance(module, Module)
    return module


def kernel(module: Module, name: str = "k") -> Function:
    return next(f for f in module.functions if f.name == name)


def symbol(text: str, name: str, function: str = "k") -> Dynamic | None:
    """What ``name`` means where ``function`` is defined (its annotations' names)."""
    module = module_of(text)
    found = Resolver(module, None).resolve_in_definition(name, module, kernel(module, function))
    return found.dynamic if isinstance(found, RDynamic) else None


def string(text: str, name: str, function: str = "k") -> str | None:
    """The string of the symbol ``name`` means where ``function`` is defined, if any."""
    found = symbol(text, name, function)
    return found.symbol if found is not None else None


def test_postponed_annotations_are_found_only_as_leading_future_imports() -> None:
    # CPython: a future statement comes first, after the docstring only.
    head = "import pypto.language as pl\n"
    assert module_of('"""Doc."""\nfrom __future__ import annotations\n' + head).postponed
    assert not module_of(head + "from __future__ import annotations\n").postponed
    assert not module_of(head).postponed


def test_a_helper_made_symbol_has_the_helpers_string_and_the_variables_name() -> None:
    # pypto python/pypto/language/typing/dynamic.py: DynVar(name) keeps the string; the
    # parser re-points the DynVar a scalar parameter's *Python* name holds
    # (ast_parser.py, _bind_dynvar_to_scalar_param).
    text = """\
        import pypto.language as pl

        def make(first, second):
            return pl.dynamic(first), pl.dynamic(second)

        rows, cols = make("R", second="C")

        def k(x): ...
        """
    rows = symbol(text, "rows")
    cols = symbol(text, "cols")
    assert rows is not None and cols is not None
    assert (rows.name, rows.symbol, rows.origin) == ("rows", "R", "helper")
    assert (cols.name, cols.symbol, cols.origin) == ("cols", "C", "helper")
    assert rows.span == cols.span  # the statement both come from
    assert rows != cols  # two DynVars


def test_a_helper_resolves_where_the_call_runs() -> None:
    # The call runs at module level before `dims` is rebound below: the first one counts.
    text = """\
        import pypto.language as pl

        def dims(n):
            return pl.dynamic(n)

        X = dims("FIRST")

        def dims(n):
            return 4

        def k(x): ...
        """
    found = symbol(text, "X")
    assert found is not None and found.symbol == "FIRST"


def test_a_builder_local_helper_and_its_default() -> None:
    text = """\
        import pypto.language as pl

        def build():
            def dim(name="DEFAULT"):
                return pl.dynamic(name)

            D = dim()

            def k(x): ...
        """
    found = symbol(text, "D")
    assert found is not None and (found.name, found.symbol) == ("D", "DEFAULT")


def test_with_postponed_annotations_a_name_of_an_enclosing_function_needs_a_free_variable() -> None:
    # pypto decorator.py: closure_vars = {**f_globals, **f_locals} of the frame the decorator
    # runs in; CPython puts an enclosing function's variable in f_locals only when the
    # frame's code reads it (annotations are strings under postponed annotations).
    text = """\
        from __future__ import annotations
        import pypto.language as pl

        G = pl.dynamic("GLOBAL")

        def outer():
            O = pl.dynamic("OUTER")
            G = pl.dynamic("SHADOW")

            def not_reading():
                def k(x): ...

            def reading():
                seen = (O, G)

                def k2(x): ...
        """
    assert string(text, "O", "k") is None  # not in the frame: the parser makes a symbol
    assert string(text, "G", "k") == "GLOBAL"  # the frame's globals
    assert string(text, "O", "k2") == "OUTER"
    assert string(text, "G", "k2") == "SHADOW"
    eager = text.replace("from __future__ import annotations", "import sys")
    assert string(eager, "O", "k") == "OUTER"  # the annotation's own reading is a free variable


def test_annotation_symbol_follows_pythons_name_error() -> None:
    # type_resolver.py, _parse_tileview_expr: an unknown valid_shape name becomes a Var of
    # that name -- unless CPython raised NameError evaluating the annotation first.
    text = """\
        import pypto.language as pl

        @pl.program
        class P:
            IN_BODY = 4

            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[IN_BODY, NOWHERE])]):
                return x
        """
    for postponed in (False, True):
        source = ("from __future__ import annotations\n" if postponed else "") + textwrap.dedent(
            text
        )
        module = module_of(source)
        function = kernel(module)
        resolver = Resolver(module, None)
        param = function.params[0]
        assert param.tensor is not None and param.tensor.view is not None
        names = param.tensor.view.valid_shape or ()
        made = [resolver.annotation_symbol(n, module, function) for n in names]  # type: ignore[arg-type]
        assert made[0] is not None
        assert (made[0].dynamic.name, made[0].dynamic.symbol, made[0].dynamic.origin) == (
            "IN_BODY",
            "IN_BODY",
            "parser",
        )
        assert (made[1] is not None) == postponed
