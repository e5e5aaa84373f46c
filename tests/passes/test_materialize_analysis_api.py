"""The public per-kernel analysis of MaterializeValidShapeSymbols (``analyze_module``):
symbols bound or not and by what, slots, and what every call passes or why it cannot."""

from __future__ import annotations

from pathlib import Path

from passlint.analysis.pl.model import Dynamic
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text
from passlint.passes.materialize_valid_shape_symbols.model import KernelSummary, ModuleAnalysis

DATA = Path(__file__).resolve().parents[1] / "data" / "pl"
CASES = DATA / "valid_shape_cases.py"


def analyze(path: Path, workspace: Workspace | None = None) -> ModuleAnalysis:
    return analyze_module(str(path), path.read_text(), workspace)


def kernel(analysis: ModuleAnalysis, name: str) -> KernelSummary:
    found = analysis.kernel(name)
    assert found is not None, name
    return found


def slots(summary: KernelSummary, name: str) -> list[tuple[str, int]]:
    symbol = summary.symbol(name)
    assert symbol is not None
    return [(slot.param.name, slot.dim) for slot in symbol.slots]


def test_device_kernels_only_in_source_order() -> None:
    analysis = analyze(CASES)
    assert [k.kernel.name for k in analysis.kernels] == [
        "k_a",
        "k_b",
        "k_c",
        "k_e",
        "k_f",
        "k_g",
        "k_h",
        "k_l",
        "k_m",
        "k_n",
    ]
    assert analysis.kernel("g_k") is None and analysis.kernel("main") is None


def test_unbound_symbol_slots_and_call_extents() -> None:
    analysis = analyze(CASES)
    k_g = kernel(analysis, "k_g")
    valid = k_g.symbol("VALID")
    assert valid is not None and not valid.bound and valid.binding is None
    assert valid.dynamic is not None and valid.dynamic.symbol == "VALID"
    assert slots(k_g, "VALID") == [("x", 1), ("y", 0)]
    assert [s.name for s in k_g.unbound] == ["VALID"]
    calls = [(c.texts, [(e.text, e.problem) for e in c.extents]) for c in k_g.calls]
    assert calls == [
        (["vl"], [("vl", None)]),
        (None, [("vl", "its arguments give 'VALID' two extents, 'vl' and 'vm'")]),
    ]


def test_bound_by_physical_shape_and_by_scalar_parameter() -> None:
    analysis = analyze(CASES)
    v2 = kernel(analysis, "k_b").symbol("V2")
    assert v2 is not None and v2.binding is not None
    assert (v2.binding.kind, v2.binding.param.name, v2.binding.dim) == ("shape", "y", 0)
    assert v2.slots == [] and kernel(analysis, "k_b").unbound == ()
    valid = kernel(analysis, "k_c").symbol("VALID")
    assert valid is not None and valid.binding is not None
    assert (valid.binding.kind, valid.binding.param.name, valid.binding.dim) == (
        "parameter",
        "VALID",
        None,
    )
    # the parameter shadows the module's pl.dynamic of the same name
    assert valid.dynamic is not None and valid.dynamic.symbol == "VALID"
    q = kernel(analysis, "k_a").symbol("Q")
    assert q is not None and q.binding is not None and q.binding.param.name == "x"


def test_compound_only_python_name_and_view_variable() -> None:
    analysis = analyze(CASES)
    v2 = kernel(analysis, "k_e").symbol("V2")
    assert v2 is not None and not v2.bound and v2.slots == []
    assert [(s.param.name, s.dim) for s in v2.compound] == [("x", 1)]
    assert kernel(analysis, "k_e").unbound == ()
    k_f = kernel(analysis, "k_f")
    assert slots(k_f, "VALID") == [("y", 0)]
    valid = k_f.symbol("VALID")
    assert valid is not None and [(s.param.name, s.dim) for s in valid.compound] == [("x", 1)]
    k_n = kernel(analysis, "k_n")
    remote = k_n.symbol("n")
    assert remote is not None and remote.symbol == "REMOTE_N" and k_n.symbol("REMOTE_N") is remote
    assert [c.texts for c in k_n.calls] == [["vl"]]
    k_m = kernel(analysis, "k_m")
    assert [(s.via, s.param.name, s.dim) for s in k_m.unbound[0].slots] == [("VIEW", "x", 1)]
    assert [c.texts for c in k_m.calls] == [["128"]]
    assert [s.name for s in kernel(analysis, "k_l").unbound] == ["V2", "VALID"]


def test_omitted_argument_is_the_reason() -> None:
    k_h = kernel(analyze(CASES), "k_h")
    assert [(c.site.form, c.texts) for c in k_h.calls] == [("submit", None)]
    extent = k_h.calls[0].extents[0]
    assert (extent.text, extent.problem) == (None, "it does not pass argument 'o'")


def test_unknown_extent_and_starred_reasons(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        "import pypto.language as pl\n"
        'V = pl.dynamic("V")\n'
        "@pl.function(type=pl.FunctionType.InCore)\n"
        "def k(x: pl.Tensor[[16], pl.FP32, pl.TensorView(valid_shape=[V])]):\n"
        "    return x\n"
        "@pl.function(type=pl.FunctionType.Orchestration)\n"
        "def main(a, args):\n"
        "    k(a)\n"
        "    k(*args)\n"
    )
    summary = kernel(analyze(path), "k")
    problems = [[(e.text, e.problem) for e in c.extents] for c in summary.calls]
    assert problems == [
        [(None, "the valid_shape of its argument for 'x' (dim 0) is not known statically")],
        [(None, "the call passes *args")],
    ]


def test_cross_file_calls_come_from_every_workspace_file() -> None:
    folder = DATA / "cross_file"
    analysis = analyze(folder / "kernels.py", Workspace([folder]))
    scale = kernel(analysis, "scale_rows")
    assert [(Path(c.module.path).name, c.texts) for c in scale.calls] == [
        ("program.py", ["cols"]),
        ("program.py", ["width"]),
    ]


def test_symbols_at_an_offset() -> None:
    text = CASES.read_text()
    analysis = analyze(CASES)
    line = text.splitlines()[20]  # k_a's signature
    offset = sum(len(x) + 1 for x in text.splitlines()[:20]) + line.index("VALID]")
    found = analysis.symbols_at(offset + 2)
    assert [(k.kernel.name, s.name) for k, s in found] == [("k_a", "VALID")]
    assert analysis.symbols_at(0) == []


def words(dynamic: Dynamic) -> str:
    """How a VS001 message names a symbol."""
    if dynamic.name == dynamic.symbol:
        return f"'{dynamic.symbol}'"
    return f"'{dynamic.symbol}' (Python name '{dynamic.name}')"


def test_findings_agree_with_the_analysis() -> None:
    """One source of truth: a kernel's VS001 names its unbound symbols of the analysis, and
    its fix is preferred exactly when every call resolves (and no symbol is read through a
    TensorView variable)."""
    text = CASES.read_text()
    analysis = analyze(CASES)
    findings = [f for f in check_text(str(CASES), text, None) if f.code == "VS001"]
    expected = {
        (k.kernel.name, " and ".join(words(s.declared) for s in k.unbound)): all(
            c.texts is not None for c in k.calls
        )
        and not any(slot.via for u in k.unbound for slot in u.slots)
        for k in analysis.kernels
        if k.unbound
    }
    seen = {}
    for finding in findings:
        name = finding.message.split("'")[1]
        symbols = finding.message.split("bind ")[1].split(";")[0]
        seen[(name, symbols)] = finding.fix is not None and finding.fix.preferred
    assert seen == expected


def test_not_pl_and_syntax_errors() -> None:
    assert analyze_module("x.py", "import os\n", None).module is None
    broken = analyze_module("x.py", "import pypto.language as pl\ndef f(:\n", None)
    assert broken.module is None and broken.problem is not None
