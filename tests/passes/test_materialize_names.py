"""MaterializeValidShapeSymbols on valid_shape names as pypto's parser resolves them: postponed
annotations and class-body names (a symbol the parser makes: VS001, not VS006), symbols made
by workspace helpers and re-exported by sibling modules (bound as a direct ``pl.dynamic``),
with exact ranges, messages and text after the fix. The corpus programs are in
tests/data/pl/names/; the real pass's outcome on each is in tests/data/pl/oracle/truth.json.
"""

from __future__ import annotations

import ast
import shutil
import textwrap
from pathlib import Path

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

NAMES = Path(__file__).resolve().parents[1] / "data" / "pl" / "names"


def check(path: Path, workspace: Workspace | None = None) -> list[Finding]:
    return check_text(str(path), path.read_text(), workspace)


def spans(findings: list[Finding]) -> list[tuple[str, int, int, int, int]]:
    return [
        (f.code, f.range.start.line, f.range.start.column, f.range.end.line, f.range.end.column)
        for f in findings
    ]


def fixed(text: str, path: str = "k.py") -> str:
    """``text`` after the fix of its only finding; the fixed text has no finding left."""
    (finding,) = check_text(path, text, None)
    assert finding.fix is not None, finding.message
    new = apply_edits(text, finding.fix.edits)
    ast.parse(new)
    assert check_text(path, new, None) == []
    return new


KERNEL = """\
{head}import pypto.language as pl
{above}

@pl.program
class P:
{body}    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[{name}], layout=pl.TensorLayout.ND)]):
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]):
        return self.k(pl.slice(x, [64], [0], valid_shape=[n]))
{below}"""


def kernel(name: str, head: str = "", above: str = "", body: str = "", below: str = "") -> str:
    return KERNEL.format(head=head, above=above, body=body, name=name, below=below)


POSTPONED = "from __future__ import annotations\n\n"


# -- postponed annotations and class bodies ------------------------------------------------


def test_a_name_bound_below_the_program_is_a_symbol_with_postponed_annotations() -> None:
    # pypto python/pypto/language/parser/decorator.py, program(): closure_vars is a copy of the
    # frame's globals and locals when the decorator runs; type_resolver.py,
    # _parse_tileview_expr: a name neither in scope nor in closure_vars becomes a new Var.
    text = kernel("N", head=POSTPONED, below='\nN = pl.dynamic("N_STRING")\n')
    (finding,) = check_text("k.py", text, None)
    assert spans([finding]) == [("VS001", 8, 71, 8, 72)]
    assert finding.message == (
        "Kernel 'k' cannot bind 'N'; add it as a leading parameter. No physical dimension or "
        "scalar parameter binds it (parameter 'x', dim 0), so MaterializeValidShapeSymbols "
        "adds `N: pl.Scalar[pl.INDEX]` in front and passes the extent at every call. pypto's "
        "DSL parser makes 'N' a symbol of that name itself: with postponed annotations "
        "(`from __future__ import annotations`) it reads the names bound when the program's "
        "decorator runs, and it is not bound then. Under `pl.compile` OptimizeOrchTensors runs "
        "first and replaces the view of parameter 'x' by the strides of `x` (the calls pass "
        "slices of a tensor of static shape), so there the pass does not add 'N', and the fix "
        "leaves it unread."
    )
    assert [(r.range.start.line, r.message) for r in finding.related] == [
        (8, "pypto's parser makes symbol 'N' here"),
        (13, "called here (self.k); the fix passes n"),
    ]
    assert fixed(text) == text.replace(
        "def k(self, ", "def k(self, N: pl.Scalar[pl.INDEX], "
    ).replace("self.k(pl.slice", "self.k(n, pl.slice")


def test_a_name_defined_nowhere_is_a_symbol_with_postponed_annotations() -> None:
    # pypto type_resolver.py, _parse_tileview_expr ("Auto-create a dynamic variable for
    # unknown names"); the same text without the future import is VS006 below.
    (finding,) = check_text("k.py", kernel("UNDEFINED", head=POSTPONED), None)
    assert (finding.code, finding.fix is not None) == ("VS001", True)
    assert "makes 'UNDEFINED' a symbol of that name itself" in finding.message


def test_vs006_still_holds_where_python_evaluates_the_annotation() -> None:
    # Without postponed annotations CPython evaluates the annotation when the def runs, before
    # pypto's parser sees the source: NameError (below the program, or nowhere).
    for text in (kernel("UNDEFINED"), kernel("N", below='\nN = pl.dynamic("N")\n')):
        (finding,) = check_text("k.py", text, None)
        assert finding.code == "VS006"
        assert "Python raises NameError when kernel 'k' is defined" in finding.message


def test_vs006_still_holds_for_a_view_variable_with_postponed_annotations() -> None:
    # A TensorView variable is built when Python runs its assignment, future import or not.
    text = textwrap.dedent(
        """\
        from __future__ import annotations

        import pypto.language as pl

        VIEW = pl.TensorView(valid_shape=[UNDEFINED])


        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.Tensor[[64], pl.FP32, VIEW]):
            return x
        """
    )
    # and the view has no layout, which Python rejects too (after the NameError)
    assert spans(check_text("k.py", text, None)) == [
        ("VS009", 4, 7, 4, 45),
        ("VS006", 8, 34, 8, 38),
    ]


def test_a_name_bound_above_keeps_its_string_with_postponed_annotations() -> None:
    # closure_vars holds the DynVar: the symbol is its pl.dynamic string.
    text = kernel("N", head=POSTPONED, above='\nN = pl.dynamic("N_STRING")\n')
    (finding,) = check_text("k.py", text, None)
    assert finding.message.startswith("Kernel 'k' cannot bind 'N_STRING' (Python name 'N');")
    assert "makes" not in finding.message


def test_a_class_body_name_is_a_symbol_the_parser_makes() -> None:
    # Python evaluates the method's annotation in the class body and finds CB; pypto's
    # program() reads closure_vars (the frame's globals and locals), never the class body.
    text = kernel("CB", body='    CB = pl.dynamic("CB_STRING")\n\n')
    (finding,) = check_text("k.py", text, None)
    assert spans([finding]) == [("VS001", 8, 71, 8, 73)]
    assert (
        "pypto's DSL parser makes 'CB' a symbol of that name itself: it never reads a class "
        "body's names, where Python found it."
    ) in finding.message
    assert fixed(text).count("CB: pl.Scalar[pl.INDEX], ") == 1


def test_a_class_body_name_after_the_method_is_a_name_error() -> None:
    text = kernel("CB", below='\n    CB = pl.dynamic("CB")\n')
    assert [f.code for f in check_text("k.py", text, None)] == ["VS006"]


# A parameter is a name to pypto's parser (type_resolver.py: `_resolve_shape_dim` and
# `_parse_tileview_expr` look at the earlier parameters), but without postponed annotations
# Python evaluates the annotations when the `def` runs, where no parameter is bound: the real
# pass never runs (the oracle: "NameError: name 'n' is not defined", clean/scalar_params.py).
BY_PARAM = """\
{future}import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[{shape}, 128], pl.FP32, {view}]):
    return x
"""
LAYOUT_ND = "layout=pl.TensorLayout.ND"


def test_a_valid_shape_entry_naming_a_parameter_is_a_name_error_python_raises() -> None:
    text = BY_PARAM.format(
        future="", shape="16", view=f"pl.TensorView(valid_shape=[n, 128], {LAYOUT_ND})"
    )
    (finding,) = check_text("k.py", text, None)
    assert spans([finding]) == [("VS006", 4, 90, 4, 91)]
    assert finding.message == (
        "The valid_shape of 'x' reads undefined 'n'; define it. Python raises NameError when "
        "kernel 'k' is defined: it evaluates the annotation there, where no parameter is a "
        'name yet (define `n = pl.dynamic("n")` above it, or add `from __future__ import '
        "annotations` so that pypto's parser reads parameter 'n')."
    )
    # the view has no layout either, but Python stops at `n` before it builds the view
    layoutless = BY_PARAM.format(future="", shape="16", view="pl.TensorView(valid_shape=[n, 128])")
    assert [f.code for f in check_text("k.py", layoutless, None)] == ["VS006"]


def test_a_physical_shape_naming_a_parameter_is_a_name_error_python_raises() -> None:
    text = BY_PARAM.format(future="", shape="n", view="pl.TensorView()")
    (finding,) = check_text("k.py", text, None)
    assert spans([finding]) == [("VS008", 4, 44, 4, 45)]
    assert "Python raises NameError when kernel 'k' is defined" in finding.message


def test_with_postponed_annotations_the_parser_reads_the_parameter() -> None:
    future = "from __future__ import annotations\n"
    for shape, view in (("16", "pl.TensorView(valid_shape=[n, 128])"), ("n", "pl.TensorView()")):
        assert (
            check_text("k.py", BY_PARAM.format(future=future, shape=shape, view=view), None) == []
        )


# -- symbols made by helpers ---------------------------------------------------------------


def helper_kernel(above: str, name: str) -> str:
    return kernel(name, above="\n" + textwrap.dedent(above))


def test_a_symbol_made_by_a_helper_binds_as_a_direct_pl_dynamic() -> None:
    # pypto decorator.py: closure_vars holds whatever the helper returned; the DynVar's name is
    # the string the helper passed to pl.dynamic (python/pypto/language/typing/dynamic.py).
    text = helper_kernel(
        """\
        def dims(*names):
            return tuple(pl.dynamic(n) for n in names)


        (ROWS,) = dims("ROWS")
        """,
        "ROWS",
    )
    (finding,) = check_text("k.py", text, None)
    assert spans([finding]) == [("VS001", 12, 71, 12, 75)]
    assert finding.message.startswith("Kernel 'k' cannot bind 'ROWS'; add it as a leading")
    assert [(r.range.start.line, r.message) for r in finding.related] == [
        (6, "symbol 'ROWS' is declared here"),
        (17, "called here (self.k); the fix passes n"),
    ]
    assert "def k(self, ROWS: pl.Scalar[pl.INDEX], x:" in fixed(text)


def test_tuple_unpacking_names_the_symbol_by_its_string_and_the_parameter_by_the_variable() -> None:
    # The fix inserts the Python name: a scalar parameter takes over the DynVar held by that
    # name (ast_parser.py, _bind_dynvar_to_scalar_param), whatever its string.
    text = helper_kernel(
        """\
        def make_dims(first, second="SECOND"):
            rows = pl.dynamic(first)
            return rows, pl.dynamic(second)


        a, b = make_dims("FIRST")
        """,
        "b",
    )
    (finding,) = check_text("k.py", text, None)
    assert finding.message.startswith("Kernel 'k' cannot bind 'SECOND' (Python name 'b');")
    assert "def k(self, b: pl.Scalar[pl.INDEX], x:" in fixed(text)


def test_helper_forms_that_bind_a_symbol() -> None:
    forms = {
        "a list comprehension": (
            "def dims(*ns):\n    return [pl.dynamic(n) for n in ns]\n\nX, Y = dims('X', 'Y')\n"
        ),
        "map": "def dims(*ns):\n    return list(map(pl.dynamic, ns))\n\nX, Y = dims('X', 'Y')\n",
        "a keyword argument": "def dim(name):\n    return pl.dynamic(name)\n\nY = dim(name='Y')\n",
        "a chain": (
            "def one(name):\n    return pl.dynamic(name)\n\n"
            "def two(name):\n    return one(name), one('Z')\n\n"
            "Y, _ = two('Y')\n"
        ),
        "a subscript": (
            "def dims(*ns):\n    return tuple(pl.dynamic(n) for n in ns)\n\nY = dims('Y')[0]\n"
        ),
        "a plain tuple": 'X, Y = pl.dynamic("X"), pl.dynamic("Y")\n',
    }
    for form, above in forms.items():
        findings = check_text("k.py", helper_kernel(above, "Y"), None)
        assert [f.code for f in findings] == ["VS001"], form
        assert findings[0].message.startswith("Kernel 'k' cannot bind 'Y';"), form


def test_a_global_symbol_handed_on_by_a_helper_is_that_symbol() -> None:
    # get() returns the DynVar G holds: the same symbol, taken over by a parameter named G.
    above = 'G = pl.dynamic("Y")\n\ndef get():\n    return G\n\nY = get()\n'
    (finding,) = check_text("k.py", helper_kernel(above, "Y"), None)
    assert finding.message.startswith("Kernel 'k' cannot bind 'Y' (Python name 'G');")


def test_the_assignment_in_force_at_the_return_counts() -> None:
    # The real pass adds 'W' (checked with the oracle): the later of two straight-line
    # assignments is what the helper returns.
    above = "def dim(n):\n    s = pl.dynamic(n)\n    s = pl.dynamic('W')\n    return s\n\nY = dim('Y')\n"
    (finding,) = check_text("k.py", helper_kernel(above, "Y"), None)
    assert finding.message.startswith("Kernel 'k' cannot bind 'W' (Python name 'Y');")


def test_a_branch_known_from_the_call_is_the_branch_python_takes() -> None:
    # pypto decorator.py: closure_vars holds the value Python computed, so the branch taken
    # with the call's literal arguments (or the helper's literal defaults) decides. Each form
    # was run through the real pass (pypto e2d0f78), which adds the symbol named here (None:
    # it adds nothing, the helper returned an int).
    def dim(body: str, call: str) -> str:
        return f"def dim{body}\n\nY = dim({call})\n"

    ifexp = "(n, flag=True):\n    return pl.dynamic(n) if flag else 4"
    if_stmt = "(n):\n    s = pl.dynamic('W')\n    if n:\n        s = pl.dynamic(n)\n    return s"
    early = "(n, kind=None):\n    if kind is None:\n        return pl.dynamic(n)\n    return 4"
    forms = {
        "a conditional expression, literal default": (dim(ifexp, "'Y'"), "Y"),
        "a conditional expression, literal False": (dim(ifexp, "'Y', False"), None),
        "an if statement, a true string": (dim(if_stmt, "'Y'"), "Y"),
        "an if statement, the empty string": (dim(if_stmt, "''"), "W"),
        "an early return, `is None`": (dim(early, "'Y'"), "Y"),
        "an early return not taken": (dim(early, "'Y', 'static'"), None),
        "`==`, `and`, `not`": (
            dim(
                "(n, kind='dyn', static=False):\n"
                "    if kind == 'dyn' and not static:\n        return pl.dynamic(n)\n    return 4",
                "'Y'",
            ),
            "Y",
        ),
        "`or` returns its operand": (dim("(n=None):\n    return pl.dynamic(n or 'D')", ""), "D"),
        "an elif chain": (
            dim(
                "(n, mode=2):\n    if mode == 1:\n        return 8\n"
                "    elif mode == 2:\n        return pl.dynamic(n)\n    else:\n        return 16",
                "'Y'",
            ),
            "Y",
        ),
        "`>=` of ints": (
            dim(
                "(n, rank=2):\n    if rank >= 2:\n        return pl.dynamic(n)\n    return 1", "'Y'"
            ),
            "Y",
        ),
        "`in` a literal tuple": (
            dim(
                "(n, kind='dyn'):\n    if kind in ('dyn', 'dynamic'):\n"
                "        return pl.dynamic(n)\n    return 1",
                "'Y'",
            ),
            "Y",
        ),
        "a call statement handed a string": (
            dim("(n):\n    print(n)\n    return pl.dynamic(n)", "'Y'"),
            "Y",
        ),
        "a return inside `with`": (
            "import tempfile\n\n"
            + dim(
                "(n):\n    with tempfile.TemporaryFile() as f:\n        return pl.dynamic(n)", "'Y'"
            ),
            "Y",
        ),
        "a branch that raises": (
            dim(
                "(n):\n    if not n:\n        raise ValueError(n)\n    return pl.dynamic(n)", "'Y'"
            ),
            "Y",
        ),
    }
    for form, (above, added) in forms.items():
        findings = check_text("k.py", helper_kernel(above, "Y"), None)
        if added is None:
            assert findings == [], form
            continue
        assert [f.code for f in findings] == ["VS001"], form
        python = "" if added == "Y" else " (Python name 'Y')"
        assert findings[0].message.startswith(f"Kernel 'k' cannot bind '{added}'{python};"), form
    text = helper_kernel(forms["a conditional expression, literal default"][0], "Y")
    assert "def k(self, Y: pl.Scalar[pl.INDEX], x:" in fixed(text)


def test_an_unknown_condition_counts_where_both_branches_agree() -> None:
    # The flag comes from the environment: either branch may run. Both make pl.dynamic(n),
    # so the real pass adds 'Y' whichever ran (checked with the oracle).
    above = (
        "import os\n\ndef dim(n, flag):\n    if flag:\n        s = pl.dynamic(n)\n"
        "    else:\n        s = pl.dynamic(n)\n    return s\n\nY = dim('Y', os.environ.get('F'))\n"
    )
    (finding,) = check_text("k.py", helper_kernel(above, "Y"), None)
    assert finding.message.startswith("Kernel 'k' cannot bind 'Y';")


def test_keyword_arguments_through_kwargs() -> None:
    # Python binds `**{...}` and unknown keywords into the helper's `**kw` dict; the real
    # pass adds 'Y' for each form (checked with the oracle).
    forms = {
        "a dict spread": "def dim(**kw):\n    return pl.dynamic(kw['n'])\n\nY = dim(**{'n': 'Y'})\n",
        "a keyword": "def dim(**kw):\n    return pl.dynamic(kw['n'])\n\nY = dim(n='Y')\n",
        "kw.get with a default": (
            "def dim(n, /, **kw):\n    return pl.dynamic(kw.get('name', n))\n\nY = dim('Y')\n"
        ),
        "*args from a literal tuple": "def dim(*args):\n    return pl.dynamic(args[0])\n\nY = dim(*('Y',))\n",
    }
    for form, above in forms.items():
        findings = check_text("k.py", helper_kernel(above, "Y"), None)
        assert [f.code for f in findings] == ["VS001"], form
        assert findings[0].message.startswith("Kernel 'k' cannot bind 'Y';"), form


def test_helper_forms_left_unknown_stay_silent() -> None:
    # Not followed (provenance.py says which forms are): an undefined callee (Python raises
    # NameError), a missing key (KeyError: nothing is built), and -- a limit of the model,
    # not a claim that nothing happens -- a condition that depends on something no literal
    # gives (here the environment: the real pass adds 'Y' when F is unset) and an assignment
    # in a loop (the real pass adds 'W'), or a value a call statement was handed. The name
    # is then "defined, not a symbol": silence.
    forms = (
        "Y = unknown_function('Y')\n",
        "def dim(**kw):\n    return pl.dynamic(kw['n'])\n\nY = dim(m='Y')\n",
        "import os\nF = os.environ.get('F') is None\n\n"
        "def dim(n):\n    return pl.dynamic(n) if F else 4\n\nY = dim('Y')\n",
        "def dim(n):\n    s = pl.dynamic(n)\n    for i in range(1):\n"
        "        s = pl.dynamic('W')\n    return s\n\nY = dim('Y')\n",
        # a call statement may change what it is handed: the real pass adds 'Z' here
        "def dim(**kw):\n    kw.update(n='Z')\n    return pl.dynamic(kw['n'])\n\nY = dim(n='Y')\n",
    )
    for above in forms:
        assert check_text("k.py", helper_kernel(above, "Y"), None) == [], above


def test_a_helper_chain_is_followed_eight_helpers_deep() -> None:
    def chain(length: int) -> str:
        lines = ["def h0(n):\n    return pl.dynamic(n)\n"]
        lines += [f"def h{i}(n):\n    return h{i - 1}(n)\n" for i in range(1, length)]
        return "\n".join(lines) + f"\nY = h{length - 1}('Y')\n"

    assert [f.code for f in check_text("k.py", helper_kernel(chain(8), "Y"), None)] == ["VS001"]
    assert check_text("k.py", helper_kernel(chain(9), "Y"), None) == []  # deeper: silence


def test_a_helper_that_calls_itself_stays_silent() -> None:
    above = "def dim(n):\n    return dim(n)\n\nY = dim('Y')\n"
    assert check_text("k.py", helper_kernel(above, "Y"), None) == []


# -- sibling modules -----------------------------------------------------------------------


def test_symbols_from_sibling_modules(tmp_path: Path) -> None:
    # The corpus: shape_symbols.py makes TILE with a helper and re-exports DEPTH from
    # base_symbols.py; uses_shape_symbols.py calls shape_symbols.symbol itself.
    for name in ("shape_symbols.py", "base_symbols.py", "uses_shape_symbols.py"):
        shutil.copy(NAMES / name, tmp_path / name)
    findings = check(tmp_path / "uses_shape_symbols.py", Workspace([tmp_path]))
    assert spans(findings) == [("VS001", 16, 67, 16, 71)]
    (finding,) = findings
    assert finding.message.startswith(
        "Kernel 'kernel' cannot bind 'TILE', 'DEPTH' and 'LOCAL_WIDTH'; add them as leading "
        "parameters."
    )
    assert finding.fix is not None
    params = ("TILE", "DEPTH", "LOCAL_WIDTH")
    assert [(e.range.start.line, e.new_text) for e in finding.fix.edits] == [
        (16, "".join(f"{p}: pl.Scalar[pl.INDEX],\n        " for p in params)),
        (35, "m, n, w, "),
    ]
    assert check(tmp_path / "shape_symbols.py", Workspace([tmp_path])) == []


def test_a_symbol_from_a_relative_import_and_an_imported_helper(tmp_path: Path) -> None:
    # `from .shapes import ROWS` (a package) and `from .shapes import dims` called here: the
    # helper runs in its own module (its own `pl` alias), the symbol is bound here.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "shapes.py").write_text(
        "import pypto.language as pypto_pl\n\n\n"
        "def dims(*names):\n    return tuple(pypto_pl.dynamic(n) for n in names)\n\n\n"
        '(ROWS,) = dims("ROWS")\n'
    )
    text = kernel(
        "ROWS, COLS", above='\nfrom .shapes import ROWS, dims\n\n(COLS,) = dims("COLS")\n'
    )
    (package / "kernels.py").write_text(text)
    (finding,) = check(package / "kernels.py", Workspace([tmp_path]))
    assert finding.message.startswith("Kernel 'k' cannot bind 'ROWS' and 'COLS'; add them")
    assert [(r.range.start.line, r.message) for r in finding.related][:2] == [
        (10, "unbound too (parameter 'x', dim 1)"),
        (4, "symbol 'COLS' is declared here"),
    ]


def test_editing_a_helper_re_analyses_the_kernels_that_read_its_symbols() -> None:
    # The kernel unit cache (cache.py) keys a kernel on its own statement and the module's
    # other statements by name for defs: a symbol made by a helper depends on the helper's
    # body too, so such a kernel is not reused from that cache.
    above = "def dim(name):\n    return pl.dynamic(name)\n\nY = dim('Y')\n"
    text = helper_kernel(above, "Y")
    assert [f.code for f in check_text("k.py", text, None)] == ["VS001"]
    edited = text.replace("return pl.dynamic(name)", "return 4")
    assert check_text("k.py", edited, None) == []
    assert [f.code for f in check_text("k.py", text, None)] == ["VS001"]
