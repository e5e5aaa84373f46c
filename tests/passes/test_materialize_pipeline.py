"""MaterializeValidShapeSymbols after the passes pypto's default pipeline runs before it
(``python/pypto/ir/pass_manager.py``, ``PassManager._get_pass_factories``: the pass runs
dead last): kernels outlined from ``pl.at`` scopes (OutlineIncoreScopes) whose input views
OptimizeOrchTensors replaces by strides first (``optimize_orch_tensors_pass.cpp``, pattern 4
``SliceInputStridesOptimizer``). Each outcome was checked with the real pipeline (the
default strategy's passes, then the pass) on the same program."""

from __future__ import annotations

import textwrap

from passlint.analysis.findings import Finding
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text

HEAD = 'import pypto.language as pl\nR = pl.dynamic("R")\nV = pl.dynamic("V")\n'


def check(text: str) -> list[Finding]:
    return check_text("m.py", HEAD + textwrap.dedent(text), None)


def where(findings: list[Finding]) -> list[tuple[str, int, int, int, int]]:
    return [
        (f.code, f.range.start.line, f.range.start.column, f.range.end.line, f.range.end.column)
        for f in findings
    ]


def scope(
    parent: str, read: str = "part", store: str = "out = pl.store(t, [0, 0], out)", head: str = ""
) -> str:
    """An orchestration that slices ``x`` (of type ``parent``), and a ``pl.at`` scope that
    loads ``read`` and stores it (``store``)."""
    return textwrap.dedent(
        f"""\
        def build({head}):
            @pl.program
            class P:
                @pl.function(type=pl.FunctionType.Orchestration)
                def main(self, x: {parent}, n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
                    part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
                    with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
                        t = pl.load({read}, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                        {store}
                    return out
            return P
        """
    )


def test_a_slice_of_a_tensor_of_static_shape_becomes_strides_and_gains_nothing() -> None:
    # optimize_orch_tensors_pass.cpp SliceInputStridesOptimizer::Apply: an In parameter fed
    # tensor.slice of a parent with ConstInt dims gets TensorView(strides, ND), no
    # valid_shape; real pipeline: the outlined kernel 'head' keeps its parameters
    assert check(scope("pl.Tensor[[64, 128], pl.FP32]")) == []


def test_module_int_constants_make_a_static_shape_too() -> None:
    # the parser reads `N` as the int 64 (ConstInt): the same strides as above
    text = "N = 64\n" + scope("pl.Tensor[[N, 2 * N], pl.FP32]")
    assert check(text) == []


def test_a_slice_of_a_tensor_of_dynamic_shape_keeps_its_view() -> None:
    # ComputeRowMajorStrides returns no strides for a non-ConstInt dim: the view stays and
    # the pass adds `n` to the outlined kernel (real pipeline: 'head' gains 'n')
    findings = check(scope("pl.Tensor[[R, 128], pl.FP32]"))
    assert where(findings) == [("VS007", 9, 12, 9, 68)]
    assert findings[0].message == (
        "The pass adds 'n' to outlined kernel 'head'; nothing to change. pypto's default "
        "pipeline outlines this `pl.at(level=pl.Level.CORE_GROUP)` scope into InCore kernel "
        "'head', whose parameters are the tensors it uses, and MaterializeValidShapeSymbols "
        "adds what nothing there binds: 'n' from the valid_shape of 'part', fed `n`."
    )


def test_a_shape_read_from_a_builder_argument_says_when_the_finding_holds() -> None:
    # `rows` is whatever the builder is called with: an int makes the parent static (then
    # nothing is added), a pl.dynamic symbol keeps the view (then 'n' is added); real
    # pipeline on build(64) and build(pl.dynamic("ROWS")): unchanged, and 'head' gains 'n'
    findings = check(scope("pl.Tensor[[rows, 128], pl.FP32]", head="rows"))
    assert where(findings) == [("VS007", 9, 12, 9, 68)]
    assert findings[0].message == (
        "The pass may add 'n' to outlined kernel 'head'; nothing to change. pypto's default "
        "pipeline outlines this `pl.at(level=pl.Level.CORE_GROUP)` scope into InCore kernel "
        "'head', whose parameters are the tensors it uses, and MaterializeValidShapeSymbols "
        "adds what nothing there binds: 'n' from the valid_shape of 'part', fed `n`, unless "
        "`rows` is an int constant: then OptimizeOrchTensors first gives the parameter of "
        "'part' (a slice of `x`) the strides of `x` instead of its view, and nothing is added."
    )
    [kernel] = analyze_module(
        "m.py", HEAD + scope("pl.Tensor[[rows, 128], pl.FP32]", head="rows"), None
    ).outlined
    assert [(s.symbol, s.tensor, s.unless is not None) for s in kernel.symbols] == [
        ("n", "part", True)
    ]


def test_a_slice_the_scope_stores_into_is_an_output_and_keeps_its_view() -> None:
    # scope_outline_utils.cpp InferParamDirections: a tile.store target is Out/InOut, and
    # SliceInputStridesOptimizer only rewrites In parameters
    findings = check(
        scope("pl.Tensor[[64, 128], pl.FP32]", read="x", store="pl.store(t, [0, 0], part)")
    )
    assert [f.code for f in findings] == ["VS007"]
    assert findings[0].message.startswith("The pass adds 'n' to outlined kernel 'head';")


def test_a_symbol_a_kept_view_also_has_is_added_from_that_view() -> None:
    # two captured slices with valid_shape [16, n]: the first (static parent) becomes
    # strides, the second (dynamic parent) keeps its view, so 'n' is still added, read
    # from the second
    text = textwrap.dedent(
        """\
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            x: pl.Tensor[[64, 128], pl.FP32],
            y: pl.Tensor[[R, 128], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            a = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            b = pl.slice(y, [16, 128], [0, 0], valid_shape=[16, n])
            with pl.at(level=pl.Level.CORE_GROUP):
                s = pl.add(pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec),
                           pl.load(b, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec))
                out = pl.store(s, [0, 0], out)
            return out
        """
    )
    [kernel] = analyze_module("m.py", HEAD + text, None).outlined
    assert [(s.symbol, s.tensor, s.unless) for s in kernel.symbols] == [("n", "b", None)]


# -- kernels written in the DSL -------------------------------------------------------------
# The finding is the pass on the program as parsed (as pypto's tests run it: the truth of the
# differential suite); VS001 adds what pl.compile's pipeline changes first. Each form below
# was run both ways with the real pass (the pass alone, and the default pipeline's passes
# through OptimizeOrchTensors, then the pass).

UNDER_COMPILE = (
    " Under `pl.compile` OptimizeOrchTensors runs first and replaces the view of parameter 'a' "
    "by the strides of `x` (the calls pass slices of a tensor of static shape), so there the "
    "pass does not add 'V', and the fix leaves it unread."
)


def direct(parent: str, call: str, head: str = "") -> str:
    """An InCore kernel whose input ``a`` reads ``V``, and an orchestration that feeds it
    a slice ``part`` of ``x`` (of type ``parent``) through ``call``."""
    return textwrap.dedent(
        f"""\
        def build({head}):
            @pl.program
            class P:
                @pl.function(type=pl.FunctionType.InCore)
                def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
                    t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                    return pl.store(t, [0, 0], out)

                @pl.function(type=pl.FunctionType.Orchestration)
                def main(self, x: {parent}, n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
                    part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
                    {call}
                    return out
            return P
        """
    )


def compiled(text: str) -> tuple[str, ...] | None:
    (summary,) = [s for s in analyze_module("m.py", HEAD + text, None).kernels if s.unbound]
    return None if summary.compiled is None else tuple(s.symbol for s in summary.compiled)


def test_a_direct_kernel_fed_a_slice_of_a_static_tensor_is_reported_with_what_pl_compile_does() -> (
    None
):
    # optimize_orch_tensors_pass.cpp, SliceInputStridesOptimizer: SliceAnalyzer reads
    # AssignStmts whose value is a Call; FlattenCallExpr and NormalizeStmtStructure give a
    # returned or nested call an assignment first. The real pass alone adds 'V' to 'head';
    # after the pipeline it adds nothing, in each of these forms.
    static = "pl.Tensor[[64, 128], pl.FP32]"
    for call in (
        "out = self.head(part, out)",
        "r: pl.Tensor[[16, 128], pl.FP32] = self.head(part, out)",
        "return self.head(part, out)",
        "out = pl.assemble(out, self.head(part, out), [0, 0])",
    ):
        (finding,) = check(direct(static, call))
        assert finding.code == "VS001", call
        assert finding.message.endswith(UNDER_COMPILE), call
        assert finding.fix is not None and finding.fix.preferred, call
        assert compiled(direct(static, call)) == (), call


def test_a_direct_kernel_keeps_its_view_when_pattern_4_does_not_apply() -> None:
    # A call standing alone is an EvalStmt, which SliceAnalyzer does not read; a parent of
    # dynamic shape has no static strides. The real pipeline adds 'V' in both.
    for parent, call in (
        ("pl.Tensor[[64, 128], pl.FP32]", "self.head(part, out)"),
        ("pl.Tensor[[R, 128], pl.FP32]", "out = self.head(part, out)"),
    ):
        (finding,) = check(direct(parent, call))
        assert "pl.compile" not in finding.message, call
        assert compiled(direct(parent, call)) == ("V",), call


def test_a_direct_kernel_fed_a_slice_of_a_builder_shaped_tensor_says_when() -> None:
    # The parent's rows come from the builder's argument: pattern 4 applies only if the
    # parser reads an int there (ConstInt), so passlint cannot say what pl.compile adds.
    text = direct("pl.Tensor[[rows, 128], pl.FP32]", "out = self.head(part, out)", "rows")
    (finding,) = check(text)
    assert finding.message.endswith(
        " Under `pl.compile`, if `rows` is an int constant, OptimizeOrchTensors runs first and "
        "replaces the view of parameter 'a' by the strides of `x` (the calls pass slices of a "
        "tensor of static shape), so there the pass does not add 'V', and the fix leaves it "
        "unread."
    )
    assert compiled(text) is None
