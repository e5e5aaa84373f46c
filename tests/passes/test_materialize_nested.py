"""MaterializeValidShapeSymbols on kernels wherever Python can define them: programs in
functions, test methods and builders, names resolved where the definition runs, every call
form, fixes that are complete or not preferred, and kernels outlined from ``pl.at`` scopes.

Each test names the pypto source it mirrors (pinned commit e2d0f78)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text

DATA = Path(__file__).resolve().parents[1] / "data" / "pl"
HEAD = 'import pypto.language as pl\nR = pl.dynamic("R")\nV = pl.dynamic("V")\n'
IN_CORE = "@pl.function(type=pl.FunctionType.InCore)"
ORCH = "@pl.function(type=pl.FunctionType.Orchestration)"
VIEW = "pl.Tensor[[R, 64], pl.FP32, pl.TensorView(valid_shape=[R, V])]"


def check(text: str, path: str = "m.py", workspace: Workspace | None = None) -> list[Finding]:
    return check_text(path, textwrap.dedent(text), workspace)


def where(findings: list[Finding]) -> list[tuple[str, int, int, int, int]]:
    return [
        (f.code, f.range.start.line, f.range.start.column, f.range.end.line, f.range.end.column)
        for f in findings
    ]


def fixed(text: str, path: str = "m.py") -> str:
    """The text after every preferred fix (one round), re-parsed and re-checked."""
    text = textwrap.dedent(text)
    findings = check_text(path, text, None)
    fixes = {f.fix for f in findings if f.fix is not None and f.fix.preferred}
    edits = [e for fix in fixes for e in fix.edits]
    new = apply_edits(text, edits)
    ast.parse(new)
    assert [f.code for f in check_text(path, new, None) if f.code == "VS001"] == []
    return new


# -- nesting shapes (point 1) ------------------------------------------------------------------


def test_the_corpus_nested_programs_give_the_real_pass_outcomes() -> None:
    # /work/shared/corpus/pl/nested_programs.py, outcomes of the real pass in its comments:
    # scale_rows gains LIVE (call in build_scaler gets live_cols), tail gains TAIL_N (call
    # gets n), halves is rejected (compound-only slot). pypto: decorator.py:946 (a
    # @pl.function's closure is its frame's globals and locals), decorator.py:1150 (same for
    # @pl.program), ast_parser.py:6076 (a bare-name call of an external @pl.function).
    path = DATA / "nested" / "nested_programs.py"
    findings = check_text(str(path), path.read_text(), Workspace([path.parent]))
    assert where(findings) == [
        ("VS001", 16, 64, 16, 68),
        ("VS001", 49, 72, 49, 78),
        ("VS002", 80, 76, 80, 84),
    ]
    assert findings[0].fix is not None and findings[0].fix.preferred
    assert findings[0].fix.title == (
        "Add leading parameter LIVE to 'scale_rows' and pass the extent at 1 call site"
    )
    new = apply_edits(path.read_text(), [e for f in findings[:2] if f.fix for e in f.fix.edits])
    assert new == (DATA / "nested" / "nested_programs.fixed.py").read_text()


NESTINGS = {
    "test method": "class TestK:\n    def test_k(self):\n{body}",
    "with block": "import pytest\ndef test_k():\n    with pytest.raises(ValueError):\n{body}",
    "class in function in class": "class T:\n    def m(self):\n        class Inner:\n"
    "            def build(self):\n{body}",
    "if / for / try": "def build(flag):\n    if flag:\n        for _ in range(2):\n"
    "            try:\n{body}\n            finally:\n                pass",
}


@pytest.mark.parametrize("shape", sorted(NESTINGS))
def test_programs_at_any_depth_are_analysed(shape: str) -> None:
    # pypto decorator.py:674 (_is_class_method: a def whose qualname has "<locals>" is parsed)
    program = textwrap.dedent(
        f"""\
        @pl.program
        class P:
            {IN_CORE}
            def k(self, x: {VIEW}):
                return x
        """
    )
    template = NESTINGS[shape]
    indent = {"test method": 8, "with block": 8, "class in function in class": 16}.get(shape, 16)
    body = textwrap.indent(program, " " * indent)
    text = HEAD + template.format(body=body.rstrip("\n")) + "\n"
    codes = [f.code for f in check_text("m.py", text, None)]
    assert codes == ["VS009", "VS001"], text  # VIEW has no layout (VS009)


def test_a_function_decorator_in_a_plain_class_body_is_not_a_kernel() -> None:
    # pypto decorator.py:974: pl.function returns a plain class's method unparsed
    # decorator.py:1199: a program takes only its own direct @pl.function members
    text = HEAD + textwrap.dedent(
        f"""\
        class Helpers:
            {IN_CORE}
            def k(self, x: {VIEW}):
                return x

        @pl.program
        class P:
            if True:
                {IN_CORE}
                def hidden(self, x: {VIEW}):
                    return x
        """
    )
    assert check_text("m.py", text, None) == []


# -- scoping (point 1) -------------------------------------------------------------------------


def test_a_builder_local_symbol_shadows_the_global_and_re_assignment_counts() -> None:
    # pypto decorator.py:1150: closure_vars = {**f_globals, **f_locals} when the class runs
    text = HEAD + textwrap.dedent(
        f"""\
        W = pl.dynamic("W")

        def build():
            V = 16  # an int here: the kernel's valid_shape is constant
            {IN_CORE}
            def early(x: {VIEW}):
                return x
            V = pl.dynamic("LOCAL_V")

            @pl.program
            class P:
                {IN_CORE}
                def late(self, x: {VIEW}, w: pl.Tensor[[R, 64], pl.FP32, pl.TensorView(valid_shape=[R, W])]):
                    return x
            return P
        """
    )
    findings = check_text("m.py", text, None)
    assert where(findings) == [  # and the views without a layout (VS009)
        ("VS009", 8, 45, 8, 78),
        ("VS009", 15, 54, 15, 87),
        ("VS001", 15, 84, 15, 85),
        ("VS009", 15, 121, 15, 154),
    ]
    findings = findings[2:3]
    assert findings[0].message.startswith(
        "Kernel 'late' cannot bind 'LOCAL_V' (Python name 'V') and 'W';"
    )
    assert [(r.range.start.line, r.range.start.column) for r in findings[0].related][:1] == [
        (15, 151)
    ]
    assert findings[0].fix is not None
    assert findings[0].fix.edits[0].new_text == ("V: pl.Scalar[pl.INDEX], W: pl.Scalar[pl.INDEX], ")


def test_a_class_body_does_not_enclose_its_methods() -> None:
    # pypto decorator.py:1150 and type_resolver.py:1910: a name only the class body binds is
    # not in the program's closure (here the global V is what the method reads)
    text = HEAD + textwrap.dedent(
        f"""\
        def build():
            @pl.program
            class P:
                V = 8
                {IN_CORE}
                def k(self, x: {VIEW}):
                    return x
        """
    )
    findings = check_text("m.py", text, None)
    assert [f.code for f in findings] == ["VS009", "VS001"]  # VIEW has no layout (VS009)
    assert "cannot bind 'V'" in findings[1].message


def test_a_module_level_kernel_reads_the_globals_bound_before_it() -> None:
    text = HEAD + textwrap.dedent(
        f"""\
        {IN_CORE}
        def k(x: {VIEW}):
            return x

        V = 4
        """
    )
    assert [f.code for f in check_text("m.py", text, None)] == ["VS009", "VS001"]  # VS009: VIEW


@pytest.mark.parametrize(
    "imports",
    [
        "from pypto import language as pl",
        "import pypto.language as pl",
        "import pypto.language as pl\nimport pypto.language.distributed as pld",
    ],
)
def test_aliases_of_pypto_language(imports: str) -> None:
    text = (
        imports
        + "\n"
        + textwrap.dedent(
            f"""\
        R = pl.dynamic("R")
        V = pl.dynamic("V")

        def build():
            @pl.program
            class P:
                {IN_CORE}
                def k(self, x: {VIEW}):
                    return x
        """
        )
    )
    assert [f.code for f in check_text("m.py", text, None)] == ["VS009", "VS001"]  # VS009: VIEW


def test_names_imported_from_pypto_language_and_distributed_tensors() -> None:
    # pypto type_resolver.py:301 (_get_type_name: Tensor, DistributedTensor by their name)
    # and tests/ut/codegen/distributed/test_distributed_pto_codegen.py:427
    text = textwrap.dedent(
        """\
        from pypto.language import FunctionType, Tensor, TensorView, dynamic, function, program
        import pypto.language as pl
        import pypto.language.distributed as pld

        def test_remote():
            n = dynamic("REMOTE_N")

            @program
            class P:
                @function(type=FunctionType.InCore)
                def kernel(
                    self,
                    data: pld.DistributedTensor[[1, 16], pl.FP32, TensorView(valid_shape=[1, n], stride=[])],
                    out: pl.Out[Tensor[[1, 16], pl.FP32]],
                ):
                    return out
        """
    )
    layout, finding = check_text("m.py", text, None)
    assert where([layout]) == [("VS009", 12, 58, 12, 99)]  # no layout
    assert where([finding]) == [("VS001", 12, 85, 12, 86)]
    assert finding.message.startswith(
        "Kernel 'kernel' cannot bind 'REMOTE_N' (Python name 'n'); add it as a leading parameter."
    )
    assert finding.fix is not None
    assert finding.fix.edits[0].new_text == "n: pl.Scalar[pl.INDEX],\n            "


# -- call sites (point 2) ----------------------------------------------------------------------


def test_submit_in_manual_scope_with_keywords_gets_the_extent_before_the_arguments() -> None:
    # pypto ast_parser.py:2054 (pl.submit's first argument is self.<kernel>), ast_parser.py:6406
    # (deps= is the submit's own keyword) and the pass's Submit visitor (pass.cpp:241)
    text = HEAD + textwrap.dedent(
        f"""\
        def build():
            @pl.program
            class P:
                {IN_CORE}
                def k(self, x: {VIEW}, o: pl.Out[pl.Tensor[[R, 64], pl.FP32]]):
                    return o

                {ORCH}
                def main(self, src: pl.Tensor[[R, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
                         o: pl.Out[pl.Tensor[[R, 64], pl.FP32]]):
                    part = pl.slice(src, [16, 64], [0, 0], valid_shape=[16, n])
                    with pl.manual_scope():
                        a, t = pl.submit(self.k, part, o)
                        b, _ = pl.submit(self.k, part, o, deps=[t])
                        c, _ = pl.spmd_submit(self.k, src, o, core_num=4)
                    return o
        """
    )
    assert fixed(text) == text.replace(
        "def k(self, x", "def k(self, V: pl.Scalar[pl.INDEX], x"
    ).replace("(self.k, part", "(self.k, n, part").replace(
        "(self.k, src", "(self.k, 64, src"
    ).replace(
        "valid_shape=[R, V])", "valid_shape=[R, V], layout=pl.TensorLayout.ND)"
    )  # and VIEW's layout (VS009)


def test_an_imported_kernel_called_under_an_alias_from_a_nested_program(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text(
        HEAD + f"\n{IN_CORE}\ndef scale(x: {VIEW}):\n    return x\n"
    )
    (tmp_path / "test_prog.py").write_text(
        textwrap.dedent(
            f"""\
            import pypto.language as pl
            from kernels import R


            def test_scale():
                from kernels import scale as sc

                @pl.program
                class P:
                    {ORCH}
                    def main(self, src: pl.Tensor[[R, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):
                        return sc(pl.slice(src, [4, 64], [0, 0], valid_shape=[4, n]))
            """
        )
    )
    workspace = Workspace([tmp_path])
    path = tmp_path / "kernels.py"
    layout, finding = check_text(str(path), path.read_text(), workspace)
    assert layout.code == "VS009"  # VIEW has no layout
    assert finding.fix is not None and finding.fix.preferred
    assert [(Path(e.path).name, e.range.start.line, e.new_text) for e in finding.fix.edits] == [
        ("kernels.py", 5, "V: pl.Scalar[pl.INDEX], "),
        ("test_prog.py", 11, "n, "),
    ]


# -- device kernels only (point 3) -------------------------------------------------------------


@pytest.mark.parametrize("kind", ["Orchestration", "Opaque", "Group"])
def test_other_function_types_never_get_vs001(kind: str) -> None:
    # pypto pass.cpp:59 (IsDeviceKernel: InCore, AIC, AIV, Spmd)
    text = HEAD + f"@pl.function(type=pl.FunctionType.{kind})\ndef f(x: {VIEW}):\n    return x\n"
    assert check_text("m.py", text, None) == []


@pytest.mark.parametrize("kind", ["InCore", "AIC", "AIV", "Spmd"])
def test_every_device_kernel_type_gets_vs001(kind: str) -> None:
    text = HEAD + f"@pl.function(type=pl.FunctionType.{kind})\ndef f(x: {VIEW}):\n    return x\n"
    assert [f.code for f in check_text("m.py", text, None)] == ["VS009", "VS001"]  # VS009: VIEW


# -- binding rules (point 4) -------------------------------------------------------------------


def test_an_earlier_parameter_of_any_dtype_binds_an_inline_entry_of_its_name() -> None:
    # pypto type_resolver.py:1886 (a valid_shape name is looked up in the parameters first);
    # checked with the real pass: `V: pl.Scalar[pl.FP32]` before the annotation binds it
    text = HEAD + f"{IN_CORE}\ndef k(V: pl.Scalar[pl.FP32], x: {VIEW}):\n    return x\n"
    assert [f.code for f in check_text("m.py", text, None)] == ["VS009"]  # VIEW has no layout


def test_a_view_variable_symbol_is_taken_over_by_no_parameter() -> None:
    # pypto ast_parser.py:936 re-points a pl.dynamic only for annotations parsed later; a
    # TensorView variable was built (its symbols fixed) when Python ran it. Checked with the
    # real pass: both kernels gain a second `V` parameter (and the FP32 one does not capture
    # it either: tests/ut/ir/transforms/test_materialize_valid_shape_symbols.py:153).
    text = HEAD + textwrap.dedent(
        f"""\
        SEEN = pl.TensorView(valid_shape=[R, V])

        {IN_CORE}
        def fp(V: pl.Scalar[pl.FP32], x: pl.Tensor[[R, 64], pl.FP32, SEEN]):
            return x

        {IN_CORE}
        def idx(V: pl.Scalar[pl.INDEX], x: pl.Tensor[[R, 64], pl.FP32, SEEN]):
            return x
        """
    )
    findings = check_text("m.py", text, None)
    assert where(findings) == [
        ("VS009", 3, 7, 3, 40),  # SEEN has no layout
        ("VS001", 6, 61, 6, 65),
        ("VS001", 10, 63, 10, 67),
    ]
    findings = findings[1:]
    for finding in findings:
        assert finding.fix is None
        assert finding.message.endswith(
            "No fix is offered: 'V' is read through the TensorView variable 'SEEN', whose "
            "symbols were fixed when Python built it, so no parameter can take it over; write "
            "that TensorView inline to bind it by a parameter."
        )


def test_two_bindings_of_one_string_are_two_symbols_and_cannot_both_be_added() -> None:
    # checked with the real pass: the kernel gains two parameters named `V`
    text = HEAD + textwrap.dedent(
        f"""\
        def build():
            V2 = pl.dynamic("V")

            {IN_CORE}
            def k(x: {VIEW}, y: pl.Tensor[[8], pl.FP32, pl.TensorView(valid_shape=[V2])]):
                return x
        """
    )
    summary = analyze_module("m.py", text, None).kernels[0]
    assert [(s.symbol, s.name) for s in summary.unbound] == [("V", "V"), ("V", "V2")]
    findings = check_text("m.py", text, None)
    assert [f.code for f in findings] == ["VS009", "VS001", "VS009"]  # two views, no layout
    findings = findings[1:2]
    assert findings[0].message.startswith("Kernel 'k' cannot bind 'V' and 'V' (Python name 'V2');")
    assert all(f.fix is not None and f.fix.preferred for f in findings)


def test_a_physical_dimension_binds_the_symbol_under_any_python_name() -> None:
    # pypto pass.cpp:99 (CollectBoundSymbols) and the test at
    # tests/ut/ir/transforms/test_materialize_valid_shape_symbols.py:131; checked with the
    # real pass: a physical `V2 = pl.dynamic("V")` binds the valid_shape's `V` too
    text = HEAD + textwrap.dedent(
        f"""\
        def build():
            V2 = pl.dynamic("V")

            {IN_CORE}
            def k(x: {VIEW}, anchor: pl.Tensor[[V * 2], pl.FP32]):
                return x

            {IN_CORE}
            def other(x: {VIEW}, anchor: pl.Tensor[[V2], pl.FP32]):
                return x
        """
    )
    assert [f.code for f in check_text("m.py", text, None)] == ["VS009", "VS009"]  # VIEW


# -- a fix is complete or not preferred (point 5) -----------------------------------------------


def test_a_kernel_used_as_a_value_gets_a_fix_that_is_not_preferred() -> None:
    text = HEAD + textwrap.dedent(
        f"""\
        {IN_CORE}
        def k(x: {VIEW}):
            return x

        def build(make):
            return make(k)
        """
    )
    layout, finding = check_text("m.py", text, None)
    assert layout.code == "VS009"  # VIEW has no layout
    assert finding.fix is not None and not finding.fix.preferred
    assert finding.fix.title == (
        "Add leading parameter V to 'k' and pass the extent at 0 call sites; "
        "edit by hand: m.py:9:17 (k)"
    )
    assert finding.message.endswith(
        "The fix cannot complete these calls: m.py:9:17 (k): the kernel is used as a value "
        "there, so the calls made through it cannot be found."
    )


def test_check_fix_never_applies_a_fix_that_is_not_preferred(tmp_path: Path) -> None:
    from passlint.config import Settings
    from passlint.fixing import compute_fixes
    from passlint.runner import Job, check_files

    path = tmp_path / "m.py"
    text = HEAD + f"\n{IN_CORE}\ndef k(x: {VIEW}):\n    return x\n\nALL = [k]\n"
    path.write_text(text)
    outcome = compute_fixes(
        [str(path)], Job(Settings(), [str(tmp_path)], {}), check_files, [str(tmp_path)]
    )
    # only VIEW's layout (VS009) is added: VS001's fix leaves work by hand
    assert outcome.applied == 1
    assert outcome.fixed[str(path)] == text.replace(
        "valid_shape=[R, V])", "valid_shape=[R, V], layout=pl.TensorLayout.ND)"
    )


# -- kernels outlined from pl.at scopes (point 7) ----------------------------------------------


def test_an_outlined_scope_gains_the_symbol_of_a_captured_tensor() -> None:
    # pypto src/ir/transforms/utils/scope_outline_utils.cpp:832 (name_hint, else
    # <function>_incore_<n>; parameters: the body's live-in variables) and the test at
    # tests/ut/codegen/distributed/test_distributed_pto_codegen.py:266
    text = HEAD + textwrap.dedent(
        f"""\
        def build():
            @pl.program
            class P:
                {ORCH}
                def main(self, x: {VIEW}, n: pl.Scalar[pl.INDEX]):
                    part = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, n])
                    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fused"):
                        t = pl.load(part, [0, 0], [16, 64])
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(x, [0, 0], [16, 64])
                    with pl.at(level=pl.Level.CORE_GROUP):
                        t = pl.load(part, [0, 0], [16, n])
                    with pl.at(level=pl.Level.HOST):
                        t = pl.load(x, [0, 0], [16, 64])
                    return t
        """
    )
    findings = check_text("m.py", text, None)
    assert where(findings) == [
        ("VS007", 9, 12, 9, 69),
        ("VS007", 11, 12, 11, 50),
    ]
    assert findings[0].message == (
        "The pass adds 'n' to outlined kernel 'fused'; nothing to change. pypto's default "
        "pipeline outlines this `pl.at(level=pl.Level.CORE_GROUP)` scope into InCore kernel "
        "'fused', whose parameters are the tensors it uses, and MaterializeValidShapeSymbols "
        "adds what nothing there binds: 'n' from the valid_shape of 'part', fed `n`."
    )
    assert findings[1].message.startswith("The pass adds 'V' to outlined kernel 'main_incore_1';")
    assert all(f.fix is None for f in findings)
    outlined = analyze_module("m.py", text, None).outlined
    assert [(k.name, [(s.symbol, s.tensor, s.extent) for s in k.symbols]) for k in outlined] == [
        ("fused", [("n", "part", "n")]),
        ("main_incore_1", [("V", "x", "V")]),
    ]


def test_a_late_scalar_of_another_dtype_is_no_vs005_and_leaves_the_symbol_unbound() -> None:
    # pypto ast_parser.py:936 (only an INDEX scalar re-points the symbol, so only it is
    # rejected when late); checked with the real pass: `LATE: pl.Scalar[pl.FP32]` after the
    # annotation parses, and the kernel gains a second `LATE` parameter
    text = HEAD.replace('V = pl.dynamic("V")', 'LATE = pl.dynamic("LATE")') + textwrap.dedent(
        f"""\
        {IN_CORE}
        def k(x: pl.Tensor[[R, 64], pl.FP32, pl.TensorView(valid_shape=[R, LATE])],
              LATE: pl.Scalar[pl.FP32]):
            return x
        """
    )
    layout, finding = check_text("m.py", text, None)
    assert where([layout]) == [("VS009", 4, 37, 4, 73)]  # no layout
    assert where([finding]) == [("VS001", 4, 67, 4, 71)]
    assert finding.fix is None
    assert finding.message.endswith(
        "No fix is offered: a `LATE: pl.Scalar[pl.INDEX]` parameter would repeat the name of "
        "another parameter of the kernel."
    )
    late_index = text.replace("pl.Scalar[pl.FP32]", "pl.Scalar[pl.INDEX]")
    assert [f.code for f in check_text("m.py", late_index, None)] == ["VS009", "VS005"]


def test_a_late_scalar_after_a_physical_dimension_or_a_view_variable_is_vs005() -> None:
    # pypto ast_parser.py:940; checked with the real parser: both kernels are rejected
    # ("Parameter 'V' shadows the dynamic symbol 'V', which an earlier parameter's type
    # annotation already uses")
    text = HEAD + textwrap.dedent(
        f"""\
        VIEWV = pl.TensorView(valid_shape=[V, 4])

        {IN_CORE}
        def physical(x: pl.Tensor[[V, 4], pl.FP32], V: pl.Scalar[pl.INDEX]):
            return x

        {IN_CORE}
        def viewed(x: pl.Tensor[[8, 4], pl.FP32, VIEWV], V: pl.Scalar[pl.INDEX]):
            return x
        """
    )
    findings = check_text("m.py", text, None)
    assert where(findings) == [
        ("VS009", 3, 8, 3, 41),  # VIEWV has no layout
        ("VS005", 6, 44, 6, 66),
        ("VS005", 10, 49, 10, 71),
    ]
    findings = findings[1:]
    assert findings[0].fix is not None
    assert findings[1].fix is None
    assert findings[1].message.startswith(
        "Parameter 'V' shadows a symbol of view 'VIEWV'; write that view inline."
    )


def test_annotation_forms_in_out_distributed_and_view_keywords_in_any_order() -> None:
    # pypto type_resolver.py:244 (Out[...] / InOut[...] unwrapped by name), :301
    # (Tensor / DistributedTensor by name) and :1687 (TensorView keywords in any order)
    text = textwrap.dedent(
        """\
        import pypto.language as pl
        import pypto.language.distributed as pld
        from pypto.language import InOut, Out, Tensor

        V = pl.dynamic("V")
        W = pl.dynamic("W")

        @pl.function(type=pl.FunctionType.AIV)
        def k(
            a: InOut[pld.DistributedTensor[[1, 16], pl.FP32, pl.TensorView(stride=[], layout=pl.TensorLayout.ND, valid_shape=[1, V])]],
            b: Out[Tensor[[8], pl.FP32, pl.TensorView(layout=pl.TensorLayout.ND, valid_shape=[W])]],
        ):
            return b
        """
    )
    summary = analyze_module("m.py", text, None).kernels[0]
    params = [(p.name, p.kind, p.direction) for p in summary.kernel.params]
    assert params == [("a", "tensor", "inout"), ("b", "tensor", "out")]
    unbound = [(s.name, [(slot.param.name, slot.dim) for slot in s.slots]) for s in summary.unbound]
    assert unbound == [("V", [("a", 1)]), ("W", [("b", 0)])]
    assert fixed(text).count("pl.Scalar[pl.INDEX]") == 2
