"""MaterializeValidShapeSymbols dry run: every case of valid_shape_cases.py, exact ranges and
messages, the no-finding forms, syntax errors, and never executing the analysed file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text

DATA = Path(__file__).resolve().parents[1] / "data" / "pl"
CASES = DATA / "valid_shape_cases.py"


def check(path: Path, workspace: Workspace | None = None) -> list[Finding]:
    return check_text(str(path), path.read_text(), workspace)


def spans(findings: list[Finding]) -> list[tuple[str, int, int, int, int]]:
    return [
        (f.code, f.range.start.line, f.range.start.column, f.range.end.line, f.range.end.column)
        for f in findings
    ]


@pytest.fixture(scope="module")
def cases() -> dict[tuple[str, int, int], Finding]:
    return {(f.code, f.range.start.line, f.range.start.column): f for f in check(CASES)}


def test_every_case_has_exactly_the_expected_findings() -> None:
    assert spans(check(CASES)) == [
        ("VS001", 20, 80, 20, 85),  # A: k_a x dim 1
        ("VS002", 46, 80, 46, 86),  # E: k_e `V2 * 2`
        ("VS001", 52, 71, 52, 76),  # F: k_f y dim 0 (the bare slot)
        ("VS001", 57, 82, 57, 87),  # G: k_g x dim 1
        ("VS001", 64, 74, 64, 79),  # H: k_h o dim 0
        ("VS001", 69, 77, 69, 79),  # L: k_l V2 and VALID, on the first
        ("VS001", 74, 51, 74, 55),  # M: the VIEW variable in k_m's annotation
        ("VS001", 79, 81, 79, 82),  # N: `n` in k_n's valid_shape
        ("VS003", 94, 13, 94, 31),  # main: self.k_g(a, b_bad)
        ("VS004", 98, 22, 98, 47),  # main: pl.submit(self.k_h, src1)
    ]
    # B (physical dim), C (earlier scalar param) and K (Group) produce nothing: no finding
    # lies on lines 26-27 (k_b), 32-33 (k_c) or 84 (g_k).


def test_case_a_message_related_and_fix(cases: dict[tuple[str, int, int], Finding]) -> None:
    # pypto src/ir/transforms/materialize_valid_shape_symbols_pass.cpp:133 (BuildPlan, pass 1)
    # and tests/ut/ir/transforms/test_materialize_valid_shape_symbols.py:75
    finding = cases[("VS001", 20, 80)]
    assert finding.message == (
        "Kernel 'k_a' cannot bind 'VALID'; add it as a leading parameter. No physical "
        "dimension or scalar parameter binds it (parameter 'x', dim 1), so "
        "MaterializeValidShapeSymbols adds `VALID: pl.Scalar[pl.INDEX]` in front and passes "
        "the extent at every call."
    )
    assert [(r.range.start.line, r.message) for r in finding.related] == [
        (9, "symbol 'VALID' is declared here")
    ]
    assert finding.fix is not None
    assert [(e.range.start.line, e.range.start.column, e.new_text) for e in finding.fix.edits] == [
        (20, 18, "VALID: pl.Scalar[pl.INDEX], ")
    ]


def test_case_e_compound_only(cases: dict[tuple[str, int, int], Finding]) -> None:
    # pypto src/ir/transforms/materialize_valid_shape_symbols_pass.cpp:171 (CHECK_SPAN)
    # and tests/ut/codegen/test_dynamic_shape.py:325
    finding = cases[("VS002", 46, 80)]
    assert finding.message == (
        "Kernel 'k_e' reads 'V2' only in 'V2 * 2'; add a bare entry for it. "
        "MaterializeValidShapeSymbols rejects kernel 'k_e': parameter 'x' uses 'V2' only "
        "inside 'V2 * 2', so its value cannot be read from a call site. Declare it on its own "
        "in some parameter's valid_shape, bind it by a physical dimension, or pass it as a "
        "`pl.Scalar[pl.INDEX]` parameter."
    )
    assert finding.fix is None
    assert finding.related[0].range.start.line == 10


def test_case_g_conflicting_extents(cases: dict[tuple[str, int, int], Finding]) -> None:
    # pypto src/ir/transforms/materialize_valid_shape_symbols_pass.cpp:314 (CHECK_SPAN); the
    # real parser rejects it first ("Dynamic type variable 'V' has conflicting bindings vl
    # and vm that are not provably equal"), checked with the built pass
    vs003 = cases[("VS003", 94, 13)]
    assert vs003.message == (
        "The call to kernel 'k_g' passes two extents for 'VALID'; make its arguments agree. "
        "The argument for 'x' (dim 1) gives 'vl' and the one for 'y' (dim 0) gives 'vm': "
        "pypto's DSL parser rejects the call when the program is defined (conflicting "
        "bindings that are not provably equal), and MaterializeValidShapeSymbols, which "
        "passes one value per symbol, would too."
    )
    vs001 = cases[("VS001", 57, 82)]
    assert vs001.fix is not None and not vs001.fix.preferred
    assert vs001.fix.title == (
        "Add leading parameter VALID to 'k_g' and pass the extent at 1 call site; "
        "edit by hand: valid_shape_cases.py:95:14 (self.k_g(...))"
    )
    assert vs001.message.endswith(
        "The fix cannot complete these calls: valid_shape_cases.py:95:14 (self.k_g(...)): its "
        "arguments give 'VALID' two extents, 'vl' and 'vm'."
    )
    calls = [(r.range.start.line, r.message) for r in vs001.related[1:]]
    assert calls == [
        (93, "called here (self.k_g); the fix passes vl"),
        (94, "called here (self.k_g); its arguments give 'VALID' two extents, 'vl' and 'vm'"),
    ]


def test_case_h_submit_omits_the_argument(cases: dict[tuple[str, int, int], Finding]) -> None:
    # pypto src/ir/transforms/materialize_valid_shape_symbols_pass.cpp:291 (CHECK_SPAN)
    # and tests/ut/ir/transforms/test_materialize_valid_shape_symbols.py:208
    vs004 = cases[("VS004", 98, 22)]
    assert vs004.message == (
        "`pl.submit` of kernel 'k_h' omits argument 'o', which holds 'VALID'; pass it. "
        "MaterializeValidShapeSymbols reads the extent of 'VALID' from that argument "
        "(parameter 1, dim 0) and rejects a call that does not supply it; a runtime-allocated "
        "pl.Out has no caller-side valid_shape. Or bind the symbol by a physical dimension or "
        "a leading `VALID: pl.Scalar[pl.INDEX]` parameter."
    )
    fix = cases[("VS001", 64, 74)].fix
    assert fix is not None and not fix.preferred


def test_case_l_two_symbols_one_fix_in_slot_order(
    cases: dict[tuple[str, int, int], Finding],
) -> None:
    # one finding, one rewrite of the pass: the symbols in the order the fix adds them
    first = cases[("VS001", 69, 77)]
    assert first.message.startswith(
        "Kernel 'k_l' cannot bind 'V2' and 'VALID'; add them as leading parameters. No physical "
        "dimension or scalar parameter binds them ('V2': parameter 'x', dim 0; 'VALID': "
        "parameter 'x', dim 1), so MaterializeValidShapeSymbols adds `V2: pl.Scalar[pl.INDEX]` "
        "and `VALID: pl.Scalar[pl.INDEX]` in front and passes the extents at every call."
    )
    assert [(r.range.start.line, r.range.start.column, r.message) for r in first.related][:1] == [
        (69, 81, "unbound too (parameter 'x', dim 1)")
    ]
    assert first.fix is not None
    assert [e.new_text for e in first.fix.edits] == [
        "V2: pl.Scalar[pl.INDEX], VALID: pl.Scalar[pl.INDEX], "
    ]


def test_case_m_view_variable_and_physical_extent(
    cases: dict[tuple[str, int, int], Finding],
) -> None:
    # a view variable's symbols are fixed when Python builds it: no parameter takes them
    # over (checked with the real pass, pypto ast_parser.py:893), so no fix is offered
    finding = cases[("VS001", 74, 51)]
    assert finding.related[0].message == "the valid_shape entry in the TensorView 'VIEW'"
    assert (finding.related[0].range.start.line, finding.related[0].range.start.column) == (12, 38)
    assert finding.fix is None
    assert "write that TensorView inline" in finding.message
    # r3 = self.k_m(src): no valid_shape on src -> the physical 128
    assert finding.related[-1].message == "called here (self.k_m); the fix passes 128"


def test_case_n_python_name_differs_from_symbol(
    cases: dict[tuple[str, int, int], Finding],
) -> None:
    finding = cases[("VS001", 79, 81)]
    assert "cannot bind 'REMOTE_N' (Python name 'n')" in finding.message
    assert "adds `n: pl.Scalar[pl.INDEX]` in front" in finding.message
    assert finding.fix is not None
    assert [(e.range.start.line, e.new_text) for e in finding.fix.edits] == [
        (79, "n: pl.Scalar[pl.INDEX], "),
        (96, "vl, "),  # r4 = self.k_n(a): REMOTE_N := vl
    ]


def test_case_d_late_scalar_param() -> None:
    # pypto python/pypto/language/parser/ast_parser.py:940 (_bind_dynvar_to_scalar_param)
    # and tests/ut/ir/transforms/test_materialize_valid_shape_symbols.py:180
    [finding] = check(DATA / "late_scalar_param.py")
    assert spans([finding]) == [("VS005", 16, 8, 16, 39)]
    assert finding.message == (
        "Parameter 'LATE_VALID' comes after 'x', which reads it; move it in front. pypto's "
        "DSL parser rejects kernel 'kernel' when it is defined: the annotation of 'x' already "
        "read the `pl.dynamic` symbol 'LATE_VALID', which a scalar parameter of that name can "
        "take over only before every annotation that reads it."
    )


def test_softmax_prepare_and_cross_file() -> None:
    [finding] = check(DATA / "softmax_prepare.py")
    assert spans([finding]) == [("VS001", 13, 49, 13, 54)]
    workspace = Workspace([DATA / "cross_file"])
    [finding] = check(DATA / "cross_file" / "kernels.py", workspace)
    assert "cannot bind 'VALID_COLS'" in finding.message
    callers = [(Path(r.path).name, r.range.start.line, r.message) for r in finding.related[1:]]
    assert callers == [
        ("program.py", 19, "called here (scale_rows); the fix passes cols"),
        ("program.py", 22, "called here (scale_rows); the fix passes width"),
    ]
    assert check(DATA / "cross_file" / "program.py", workspace) == []


@pytest.mark.parametrize(
    ("name", "python_raises"),
    [
        ("constant_valid_shapes.py", []),
        ("scalar_params.py", [("VS006", 17)]),
        ("physical_dims.py", [("VS009", 13), ("VS009", 14)]),
        ("jit_code.py", []),
    ],
)
def test_no_finding_at_all(name: str, python_raises: list[tuple[str, int]]) -> None:
    """Nothing for the pass; but what Python raises before it runs, on the lines given: a
    view written without a layout (VS009), a valid_shape reading a parameter (VS006)."""
    path = DATA / "clean" / name
    found = check(path, Workspace([path.parent]))
    assert [(f.code, f.range.start.line + 1) for f in found] == python_raises


@pytest.mark.parametrize(
    "path",
    [
        DATA / "softmax_prepare.fixed.py",
        DATA / "late_scalar_param.fixed.py",
        DATA / "cross_file_fixed" / "kernels.py",
        DATA / "cross_file_fixed" / "program.py",
        DATA / "forms" / "call_forms.fixed.py",
    ],
)
def test_already_materialized_sources_produce_nothing(path: Path) -> None:
    found = check(path, Workspace([path.parent]))
    # call_forms.fixed.py's two views of 'k' have no layout, which Python rejects (VS009)
    layoutless = [14, 14] if path.name == "call_forms.fixed.py" else []
    assert [(f.code, f.range.start.line + 1) for f in found] == [("VS009", n) for n in layoutless]


def test_vs006_and_compound_inside_a_call() -> None:
    findings = check(DATA / "forms" / "undefined.py")
    # no VS009 for the view's missing layout: Python raises NameError on `UNDEFINED` before
    # it calls the factory (the oracle: "NameError: name 'UNDEFINED' is not defined")
    assert spans(findings) == [("VS006", 7, 66, 7, 75), ("VS002", 7, 77, 7, 89)]
    assert findings[0].message == (
        "The valid_shape of 'x' reads undefined 'UNDEFINED'; define it. Python raises NameError "
        "when kernel 'k' is defined: 'UNDEFINED' is no `pl.dynamic` symbol, int constant or "
        'parameter (e.g. `UNDEFINED = pl.dynamic("UNDEFINED")`).'
    )
    assert "only in 'pl.min(V, 4)'" in findings[1].message


def test_nested_kernel_and_local_symbol() -> None:
    layout, finding = check(DATA / "forms" / "nested.py")
    assert spans([layout, finding]) == [("VS009", 9, 43, 9, 73), ("VS001", 9, 70, 9, 71)]
    assert finding.fix is not None
    assert [e.new_text for e in finding.fix.edits] == ["R: pl.Scalar[pl.INDEX], ", "n, "]


def test_unresolvable_call_lists_the_call_and_offers_a_fix_that_is_not_preferred() -> None:
    text = textwrap.dedent(
        """\
        import pypto.language as pl
        V = pl.dynamic("V")

        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.Tensor[[8], pl.FP32, pl.TensorView(valid_shape=[V])]):
            return x

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(src: pl.Tensor[[8], pl.FP32]):
            a = make(src)
            return k(a)
        """
    )
    layout, finding = check_text("u.py", text, None)
    assert layout.code == "VS009"  # its view has no layout
    assert finding.fix is not None and not finding.fix.preferred
    assert finding.fix.title == (
        "Add leading parameter V to 'k' and pass the extent at 0 call sites; "
        "edit by hand: u.py:11:12 (k(...))"
    )
    assert finding.message.endswith(
        "The fix cannot complete these calls: u.py:11:12 (k(...)): the valid_shape of its "
        "argument for 'x' (dim 0) is not known statically."
    )


def test_syntax_error_is_e002_with_its_exact_position() -> None:
    text = "import pypto.language as pl\n\ndef k(x:\n    return x\n"
    [finding] = check_text("bad.py", text, None)
    assert finding.code == "E002"
    assert (finding.range.start.line, finding.range.start.column) == (2, 5)
    assert finding.message.startswith("Python syntax error: ")


def test_non_pl_text_gives_nothing() -> None:
    assert check_text("plain.py", "import os\nprint(os.name)\n", None) == []
    assert check_text("broken.py", "def (:\n", None) == []


def test_analysis_never_executes_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "marker.txt"
    monkeypatch.setenv("PASSLINT_MARKER", str(marker))
    findings = check(DATA / "side_effect.py", Workspace([DATA]))
    assert [f.code for f in findings] == ["VS009", "VS001"]
    assert not marker.exists()


def test_results_are_deterministic() -> None:
    first = check(CASES)
    assert all(check(CASES) == first for _ in range(3))


@pytest.mark.parametrize(
    "path",
    sorted(DATA.rglob("*.py")),
    ids=lambda p: str(p.relative_to(DATA)),
)
def test_no_crash_on_any_truncation(path: Path) -> None:
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    for end in range(len(lines) + 1):
        check_text(str(path), "".join(lines[:end]), Workspace([path.parent]))
    for cut in range(0, len(text), 7):
        check_text(str(path), text[:cut] + text[cut + 3 :], None)


def test_an_int_of_the_frame_wins_over_a_parameter_of_that_name() -> None:
    # pypto type_resolver.py, _parse_tileview_expr: _try_resolve_int evaluates the entry in
    # the closure first, so with `N = 64` the real parser reads valid_shape=[N] as the
    # constant 64 (its printer then elides the view), not as the scalar parameter N.
    text = (
        "import pypto.language as pl\n\nN = 64\n\n\n"
        "@pl.function(type=pl.FunctionType.InCore)\n"
        "def k(N: pl.Scalar[pl.INDEX], "
        "x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[N], layout=pl.TensorLayout.ND)]"
        ") -> pl.Tensor[[64], pl.FP32]:\n    return x\n"
    )
    (kernel,) = analyze_module("k.py", text, None).kernels
    assert kernel.symbol("N") is None
    assert check_text("k.py", text, None) == []
