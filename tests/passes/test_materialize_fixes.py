"""MaterializeValidShapeSymbols fixes: exact text after the fix, layouts kept, cross-file
edits, re-parse, the diagnostic gone, and a second application changing nothing."""

from __future__ import annotations

import ast
import shutil
import textwrap
from pathlib import Path

import pytest

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Finding, TextEdit
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

DATA = Path(__file__).resolve().parents[1] / "data" / "pl"


def apply_first_fix(findings: list[Finding], code: str) -> dict[str, str]:
    """Apply the first fix of ``code`` to the files on disk; the new texts by file name."""
    finding = next(f for f in findings if f.code == code and f.fix is not None)
    assert finding.fix is not None
    grouped: dict[str, list[TextEdit]] = {}
    for edit in finding.fix.edits:
        grouped.setdefault(edit.path, []).append(edit)
    result = {}
    for path, edits in grouped.items():
        new_text = apply_edits(Path(path).read_text(), edits)
        ast.parse(new_text)
        Path(path).write_text(new_text)
        result[Path(path).name] = new_text
    return result


def fix_text(text: str, code: str, path: str = "k.py") -> str:
    findings = check_text(path, text, None)
    finding = next(f for f in findings if f.code == code)
    assert finding.fix is not None, finding.message
    fixed = apply_edits(text, finding.fix.edits)
    ast.parse(fixed)
    again = check_text(path, fixed, None)
    assert [f for f in again if f.code == code] == []
    # what is left to fix: the views these tests write without a layout (VS009)
    assert [f.code for f in again if f.fix is not None] == ["VS009"] * layoutless(fixed)
    return fixed


def layoutless(text: str) -> int:
    """The ``TensorView(valid_shape=...)`` calls of the text without a ``layout=``."""
    return sum(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "TensorView"
        and {"valid_shape"} <= {k.arg for k in node.keywords}
        and "layout" not in {k.arg for k in node.keywords}
        for node in ast.walk(ast.parse(text))
    )


def test_softmax_prepare_fix_is_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "softmax_prepare.py"
    shutil.copy(DATA / "softmax_prepare.py", path)
    texts = apply_first_fix(check_text(str(path), path.read_text(), None), "VS001")
    assert texts == {"softmax_prepare.py": (DATA / "softmax_prepare.fixed.py").read_text()}
    assert check_text(str(path), path.read_text(), None) == []


def test_late_scalar_param_fix_moves_the_parameter(tmp_path: Path) -> None:
    path = tmp_path / "late.py"
    shutil.copy(DATA / "late_scalar_param.py", path)
    texts = apply_first_fix(check_text(str(path), path.read_text(), None), "VS005")
    assert texts == {"late.py": (DATA / "late_scalar_param.fixed.py").read_text()}
    assert check_text(str(path), path.read_text(), None) == []


def test_cross_file_fix_edits_both_files(tmp_path: Path) -> None:
    folder = tmp_path / "cross_file"
    shutil.copytree(DATA / "cross_file", folder)
    workspace = Workspace([folder])
    kernels = folder / "kernels.py"
    [finding] = check_text(str(kernels), kernels.read_text(), workspace)
    assert finding.fix is not None
    assert {Path(e.path).name for e in finding.fix.edits} == {"kernels.py", "program.py"}
    texts = apply_first_fix([finding], "VS001")
    assert texts == {
        "kernels.py": (DATA / "cross_file_fixed" / "kernels.py").read_text(),
        "program.py": (DATA / "cross_file_fixed" / "program.py").read_text(),
    }
    workspace = Workspace([folder])
    for path in (kernels, folder / "program.py"):
        assert check_text(str(path), path.read_text(), workspace) == []


def test_unsaved_caller_text_is_used(tmp_path: Path) -> None:
    folder = tmp_path / "cross_file"
    shutil.copytree(DATA / "cross_file", folder)
    workspace = Workspace([folder])
    program = folder / "program.py"
    workspace.set_overlay(str(program), program.read_text().replace("cols])", "7])"))
    kernels = folder / "kernels.py"
    [finding] = check_text(str(kernels), kernels.read_text(), workspace)
    assert finding.fix is not None
    assert [e.new_text for e in finding.fix.edits if e.path.endswith("program.py")] == [
        "7, ",
        "width, ",
    ]


def test_call_forms_fix(tmp_path: Path) -> None:
    path = tmp_path / "call_forms.py"
    shutil.copy(DATA / "forms" / "call_forms.py", path)
    texts = apply_first_fix(check_text(str(path), path.read_text(), None), "VS001")
    assert texts == {"call_forms.py": (DATA / "forms" / "call_forms.fixed.py").read_text()}
    # its two views have no layout: pypto rejects the file at definition (VS009)
    left = check_text(str(path), path.read_text(), None)
    assert [(f.code, f.range.start.line + 1) for f in left] == [("VS009", 14), ("VS009", 14)]


HEADER = 'import pypto.language as pl\nV = pl.dynamic("V")\n\n'
VIEW = "pl.Tensor[[8], pl.FP32, pl.TensorView(valid_shape=[V])]"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # a one-line signature stays on one line
        (
            f"@pl.function(type=pl.FunctionType.InCore)\ndef k(x: {VIEW}): ...\n",
            f"@pl.function(type=pl.FunctionType.InCore)\n"
            f"def k(V: pl.Scalar[pl.INDEX], x: {VIEW}): ...\n",
        ),
        # one parameter per line stays so, with the same indentation (and comments kept)
        (
            f"@pl.function(type=pl.FunctionType.InCore)\ndef k(\n"
            f"        x: {VIEW},  # input\n        y: {VIEW},\n): ...\n",
            f"@pl.function(type=pl.FunctionType.InCore)\ndef k(\n"
            f"        V: pl.Scalar[pl.INDEX],\n"
            f"        x: {VIEW},  # input\n        y: {VIEW},\n): ...\n",
        ),
    ],
)
def test_vs001_keeps_the_signature_layout(before: str, after: str) -> None:
    assert fix_text(HEADER + before, "VS001") == HEADER + after


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            f"def k(self, x: {VIEW}, V: pl.Scalar[pl.INDEX]): ...",
            f"def k(self, V: pl.Scalar[pl.INDEX], x: {VIEW}): ...",
        ),
        (
            f"def k(self, x: {VIEW}, V: pl.Scalar[pl.INDEX], y: {VIEW}): ...",
            f"def k(self, V: pl.Scalar[pl.INDEX], x: {VIEW}, y: {VIEW}): ...",
        ),
        (
            f"def k(self, x: {VIEW},\n          V: pl.Scalar[pl.INDEX]): ...",
            f"def k(self, V: pl.Scalar[pl.INDEX], x: {VIEW}): ...",
        ),
        (
            f"def k(\n    self,\n    x: {VIEW},\n    V: pl.Scalar[pl.INDEX]  # late\n): ...",
            f"def k(\n    self,\n    V: pl.Scalar[pl.INDEX],  # late\n    x: {VIEW},\n): ...",
        ),
    ],
)
def test_vs005_move_keeps_the_layout(before: str, after: str) -> None:
    def wrap(signature: str) -> str:
        body = textwrap.indent(signature, "    ")
        return (
            f"{HEADER}@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV)\n{body}\n"
        )

    assert fix_text(wrap(before), "VS005") == wrap(after)


def test_fix_for_a_kernel_without_other_params_uses_the_module_alias() -> None:
    text = textwrap.dedent(
        """\
        from pypto import language as lang
        V = lang.dynamic("V")

        @lang.function(type=lang.FunctionType.InCore)
        def k(x: lang.Tensor[[8], lang.FP32, lang.TensorView(valid_shape=[V])]): ...

        @lang.function(type=lang.FunctionType.Orchestration)
        def main(s: lang.Tensor[[8], lang.FP32], n: lang.Scalar[lang.INDEX]):
            return k(
                lang.slice(s, [8], [0], valid_shape=[n]),
            )
        """
    )
    fixed = fix_text(text, "VS001")
    assert "def k(V: lang.Scalar[lang.INDEX], x:" in fixed
    assert "return k(\n        n,\n        lang.slice(" in fixed
