"""The comparison itself, on small made-up verdicts: each class of disagreement, and what
counts as agreement (no oracle needed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from oracle.compare import compare_file, compare_fixed, normalized, source_name
from oracle.predict import PredictedKernel, PredictedSite, Prediction
from oracle.truth import FileTruth, KernelChange, Rejection, SiteChange, Truth, from_document

from passlint.analysis.findings import Finding, Position, Range, Severity

TEXT = """import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x):
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x, n):
        return self.kernel(x)
"""


def _finding(code: str, line: int) -> Finding:
    at = Position(line - 1, 4)
    return Finding(code, Severity.WARNING, "p.py", Range(at, at), f"{code} message.")


def _truth(**extra: object) -> FileTruth:
    truth = FileTruth(built_kernels={7: "kernel"}, programs={5: "changed"})
    truth.changes[(7, "kernel")] = KernelChange("p.py", 7, "kernel", ("VALID",))
    truth.sites.append(SiteChange("p.py", 12, 16, "kernel", "call", ("n",)))
    for key, value in extra.items():
        setattr(truth, key, value)
    return truth


def _prediction(added: tuple[str, ...], extents: tuple[str, ...] | None) -> Prediction:
    prediction = Prediction("p.py", findings=[_finding("VS001", 7)] if added else [])
    prediction.kernels[7] = PredictedKernel(7, "kernel", added)
    prediction.sites.append(PredictedSite("p.py", 12, 16, "kernel", extents))
    return prediction


def test_agreement() -> None:
    report = compare_file("p.py", TEXT, _truth(), _prediction(("VALID",), ("n",)))
    assert not report.disagreements
    assert len(report.agreed) == 2
    assert report.figure() == "2/2 outcomes agree (100%)"


def test_each_class_of_disagreement() -> None:
    kinds = {
        d.kind
        for d in compare_file("p.py", TEXT, _truth(), _prediction(("OTHER",), ("m",))).disagreements
    }
    assert kinds == {"different leading parameters", "different extents"}
    missing = Prediction("p.py")
    kinds = {d.kind for d in compare_file("p.py", TEXT, _truth(), missing).disagreements}
    assert kinds == {"kernel not analysed", "call site not found"}
    kinds = {
        d.kind for d in compare_file("p.py", TEXT, _truth(), _prediction((), None)).disagreements
    }
    assert kinds == {"kernel analysed, no change predicted", "extents not resolved"}


def test_a_finding_where_the_pass_changes_nothing() -> None:
    quiet = FileTruth(built_kernels={7: "kernel"}, programs={5: "unchanged"})
    report = compare_file("p.py", TEXT, quiet, _prediction(("VALID",), ("n",)))
    assert {d.kind for d in report.disagreements} == {
        "change predicted where the pass changes nothing",
        "finding where the pass changes nothing",
    }
    assert (report.quiet_kernels, report.quiet_analysed, report.quiet_silent) == (1, 1, 0)


def test_code_never_built_is_unverified_not_compared() -> None:
    report = compare_file("p.py", TEXT, FileTruth(), _prediction(("VALID",), ("n",)))
    assert report.compared == 0
    assert len(report.unverified) == 2  # the kernel change and its finding


def test_a_rejection_needs_the_code_of_its_kind() -> None:
    rejection = Rejection("p.py", 12, "omitted-argument", "pass", "...", "P", 5)
    truth = FileTruth(built_kernels={7: "kernel"}, programs={5: "rejected"}, rejections=[rejection])
    found = compare_file("p.py", TEXT, truth, Prediction("p.py", findings=[_finding("VS004", 12)]))
    assert found.agreed and not found.disagreements
    other = compare_file("p.py", TEXT, truth, Prediction("p.py", findings=[_finding("VS003", 12)]))
    assert [d.kind for d in other.disagreements] == ["rejection reported with another code"]


def test_extents_compare_as_expressions() -> None:
    assert normalized("pl.min(N,4)") == normalized("pl.min(N, 4)")
    assert normalized("(n)") == normalized("n")


def test_rejection_kinds_from_pypto_messages() -> None:
    spec = importlib.util.spec_from_file_location(
        "oracle_record", Path(__file__).parent / "harness" / "record.py"
    )
    assert spec is not None and spec.loader is not None
    record = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(record)
    bindings = "Dynamic type variable 'V' has conflicting bindings vl and vm that are not provably equal at argument 1 {} shape[0]"
    assert record.kind_of(bindings.format("valid")) == "conflicting-extents"
    assert record.kind_of(bindings.format("physical")) == "physical-shape-conflict"
    assert (
        record.kind_of("uses symbol 'V' only inside the compound valid_shape expression 'V * 2'")
        == "compound-only"
    )
    assert record.kind_of("Cannot reassign 'out'") == "other"


def _document(
    root: Path, programs: list[dict[str, object]], errors: list[dict[str, object]]
) -> Truth:
    files = {"p.py": {"programs": programs, "functions": [], "parser_errors": errors}}
    return from_document({"root": str(root), "summary": {}, "files": files})


def _program(
    line: int, outcome: str, kernels: list[dict[str, object]] | None = None
) -> dict[str, object]:
    variant: dict[str, object] = {"outcome": outcome, "builds": 1}
    if outcome == "changed":
        variant.update(kernels=kernels or [], calls=[])
    return {
        "name": "P",
        "line": line,
        "start": line - 1,
        "kernels": [],
        "variants": [variant],
        "builds": 1,
    }


def test_the_fixed_code_is_judged_by_the_pass_again(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "p.py").write_text("a\n@x\nclass P:\n  pass\n@x\nclass P:\n  pass\n")
    (tmp_path / "new" / "p.py").write_text("a\nadded\n@x\nclass P:\n  pass\n@x\nclass P:\n  pass\n")
    before = _document(tmp_path / "old", [_program(3, "changed"), _program(6, "unchanged")], [])
    kernel = {"name": "k", "file": "p.py", "line": 9, "added": ["V"]}
    fixed_well = _document(
        tmp_path / "new", [_program(4, "unchanged"), _program(7, "unchanged")], []
    )
    assert compare_fixed(before, fixed_well, ["p.py"]).disagreements == []
    error = {
        "function": "main",
        "function_line": 7,
        "type": "ParserSyntaxError",
        "kind": "other",
        "message": "expects 3 argument(s), got 2",
        "line": 8,
    }
    broken = _document(tmp_path / "new", [_program(4, "changed", [kernel])], [error])
    assert [d.kind for d in compare_fixed(before, broken, ["p.py"]).disagreements] == [
        "fixed code still gains parameters",
        "program no longer built after the fix",
        "fix breaks parsing",
    ]
    # a kernel passlint reports and leaves unfixed on purpose is listed, not a disagreement
    verdict = compare_fixed(before, broken, ["p.py"], {("p.py", 9)})
    assert [d.kind for d in verdict.disagreements] == [
        "program no longer built after the fix",
        "fix breaks parsing",
    ]
    assert verdict.unfixed == ["p.py:9: 'k' gains ['V']"]


ORIGINAL = """@pl.program
class P:
    def kernel(self, x):
        return x

    def main(self, x, n):
        a = self.kernel(x)
        return self.kernel(
            x,
        )
"""
FIXED = """@pl.program
class P:
    def kernel(self, V: pl.Scalar[pl.INDEX], x):
        return x

    def main(self, x, n):
        a = self.kernel(n, x)
        return self.kernel(
            n,
            x,
        )
"""


def _called(line: int, args: list[str]) -> dict[str, object]:
    column = 13 if line == 7 else 16
    return {"callee": "kernel", "form": "call", "file": "p.py", "line": line, "column": column} | {
        "args": args,
        "params": ["V", "x"],
    }


def test_each_fixed_call_passes_what_the_pass_passes(tmp_path: Path) -> None:
    """The pass's extents at the original calls against the arguments the fixed calls
    give (the line of a call the fix edited, and one below lines it inserted, carried)."""
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "p.py").write_text(ORIGINAL)
    (tmp_path / "new" / "p.py").write_text(FIXED)
    kernel = {"name": "kernel", "file": "p.py", "line": 3, "added": ["V"]}
    program = _program(2, "changed", [kernel])
    program["variants"][0]["calls"] = [  # type: ignore[index]
        {"callee": "kernel", "form": "call", "file": "p.py", "line": line, "column": column}
        | {"caller": "main", "extents": ["n"]}
        for line, column in ((7, 13), (8, 16))
    ]
    before = _document(tmp_path / "old", [program], [])

    def after(args: list[list[str]], lines: tuple[int, int] = (7, 8)) -> Truth:
        fixed = _program(2, "unchanged")
        fixed["variants"][0]["arguments"] = [  # type: ignore[index]
            _called(line, a) for line, a in zip(lines, args, strict=True)
        ]
        return _document(tmp_path / "new", [fixed], [])

    verdict = compare_fixed(before, after([["n", "x"], ["n", "x"]]), ["p.py"])
    assert (verdict.disagreements, verdict.calls) == ([], 2)
    verdict = compare_fixed(before, after([["64", "x"], ["n", "x"]]), ["p.py"])
    assert [str(d) for d in verdict.disagreements] == [
        "p.py:7: fixed call passes other extents: call of 'kernel': the pass passes ['n'] to "
        "the original, the fixed call ['64']"
    ]
    verdict = compare_fixed(before, after([["n", "x"], ["n", "x"]], (7, 20)), ["p.py"])
    assert [str(d) for d in verdict.disagreements] == [
        "p.py:8: fixed call not found: call of 'kernel': the pass prepends ['n']"
    ]


def test_names_of_the_ssa_pipeline_are_read_as_the_source_spells_them() -> None:
    assert source_name("n__ssa_v0") == "n"
    assert source_name("pl.min(n__ssa_v12, 4)") == "pl.min(n, 4)"
    assert source_name("DEFER_VALID_ROWS") == "DEFER_VALID_ROWS"
