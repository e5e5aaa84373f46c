"""VS009 tensor-view-missing-layout: where Python builds a ``pl.TensorView`` with a valid_shape
and no layout (pypto raises ``ValueError: layout is required ...`` at definition), the
finding's place and message, the fix's exact text, and the fix with VS001's on one file."""

from __future__ import annotations

import ast
import textwrap

from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.catalog import RULES
from passlint.passes.materialize_valid_shape_symbols.checks.missing_layout import (
    TENSOR_VIEW_MISSING_LAYOUT,
)
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

HEAD = textwrap.dedent(
    """\
    import pypto.language as pl

    Q, BLK, VALID = pl.dynamic("Q"), pl.dynamic("BLK"), pl.dynamic("VALID")
    """
)


def _kernel(view: str, postponed: bool = False, kernel_type: str = "InCore") -> str:
    future = "from __future__ import annotations\n" if postponed else ""
    return (
        f"{future}{HEAD}\n\n@pl.function(type=pl.FunctionType.{kernel_type})\n"
        f"def kernel(sij: pl.Tensor[[Q, BLK], pl.FP32, {view}]):\n    return sij\n"
    )


def _vs009(text: str, path: str = "k.py") -> list[Finding]:
    return [f for f in check_text(path, text, None) if f.code == TENSOR_VIEW_MISSING_LAYOUT.code]


def _fixed(text: str) -> str:
    (finding,) = _vs009(text)
    assert finding.fix is not None and finding.fix.preferred
    fixed = apply_edits(text, finding.fix.edits)
    ast.parse(fixed)
    assert _vs009(fixed) == []
    return fixed


def test_inline_view_without_layout_is_reported_on_the_call() -> None:
    text = _kernel("pl.TensorView(valid_shape=[16, 128])")
    (finding,) = _vs009(text)
    assert finding.severity.name == "ERROR"
    start = text.index("pl.TensorView")
    line = text[:start].count("\n")
    assert (finding.range.start.line, finding.range.start.column) == (
        line,
        start - text.rindex("\n", 0, start) - 1,
    )
    assert finding.range.end.line == line
    assert finding.message == (
        "The TensorView of 'sij' has a valid_shape but no layout; add "
        "`layout=pl.TensorLayout.ND`. Python raises `ValueError: layout is required when "
        "stride, valid_shape, or pad is provided` when kernel 'kernel' is defined, before "
        "pypto's parser or MaterializeValidShapeSymbols sees the program, so no program is "
        "built."
    )
    assert finding.fix is not None
    assert finding.fix.title == "Add layout=pl.TensorLayout.ND to the TensorView"


def test_the_fix_adds_the_layout_after_the_last_keyword() -> None:
    text = _kernel("pl.TensorView(valid_shape=[16, 128], pad=pl.PadValue.zero)")
    assert _fixed(text) == text.replace(
        "pad=pl.PadValue.zero)", "pad=pl.PadValue.zero, layout=pl.TensorLayout.ND)"
    )


def test_the_fix_replaces_layout_none() -> None:
    text = _kernel("pl.TensorView(layout=None, valid_shape=[16, 128])")
    assert _fixed(text) == text.replace("layout=None", "layout=pl.TensorLayout.ND")


def test_the_fix_keeps_a_multiline_call_and_its_trailing_comma() -> None:
    text = _kernel("pl.TensorView(\n        valid_shape=[16, 128],\n    )")
    assert _fixed(text) == text.replace(
        "valid_shape=[16, 128],", "valid_shape=[16, 128], layout=pl.TensorLayout.ND,"
    )


def test_the_fix_spells_the_modules_own_alias() -> None:
    text = _kernel("pl.TensorView(valid_shape=[16, 128])").replace("as pl\n", "as pyl\n")
    text = text.replace("pl.", "pyl.")
    (finding,) = _vs009(text)
    assert "add `layout=pyl.TensorLayout.ND`." in finding.message
    assert _fixed(text) == text.replace(
        "valid_shape=[16, 128])", "valid_shape=[16, 128], layout=pyl.TensorLayout.ND)"
    )


def test_a_view_with_a_layout_or_without_a_valid_shape_is_not_reported() -> None:
    for view in (
        "pl.TensorView(valid_shape=[16, 128], layout=pl.TensorLayout.ND)",
        "pl.TensorView(valid_shape=[16, 128], layout=pl.TensorLayout.DN)",
        "pl.TensorView(valid_shape=None)",
        "pl.TensorView([16, 128])",  # positional: pypto's parser rejects it otherwise
        "pl.TensorView(**VIEW_ARGS)",
    ):
        assert _vs009(_kernel(view)) == [], view


def test_an_empty_valid_shape_is_reported() -> None:
    assert len(_vs009(_kernel("pl.TensorView(valid_shape=[])"))) == 1


def test_postponed_annotations_exempt_an_inline_view() -> None:
    # pypto's parser reads it from the syntax and gives it layout ND: the program builds
    assert _vs009(_kernel("pl.TensorView(valid_shape=[16, 128])", postponed=True)) == []


def test_an_orchestration_is_not_looked_at() -> None:
    text = _kernel("pl.TensorView(valid_shape=[16, 128])", kernel_type="Orchestration")
    assert _vs009(text) == []


VIEW_VARIABLE = HEAD + textwrap.dedent(
    """\
    VIEW = pl.TensorView(valid_shape=[Q, 128])


    @pl.function(type=pl.FunctionType.InCore)
    def first(sij: pl.Tensor[[Q, BLK], pl.FP32, VIEW]):
        return sij


    @pl.function(type=pl.FunctionType.AIV)
    def second(sij: pl.Tensor[[Q, BLK], pl.FP32, VIEW]):
        return sij
    """
)


def test_a_view_variable_is_reported_once_on_its_assignment() -> None:
    for text in (VIEW_VARIABLE, "from __future__ import annotations\n" + VIEW_VARIABLE):
        (finding,) = _vs009(text)
        line = text.splitlines().index("VIEW = pl.TensorView(valid_shape=[Q, 128])")
        assert (finding.range.start.line, finding.range.start.column) == (line, 7)
        assert (
            "when the TensorView variable 'VIEW' is assigned (read by kernel 'first')"
            in finding.message
        )
        assert _fixed(text) == text.replace("[Q, 128])", "[Q, 128], layout=pl.TensorLayout.ND)")


BOTH = HEAD + textwrap.dedent(
    """\


    @pl.program
    class Prog:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, sij: pl.Tensor[[Q, BLK], pl.FP32, pl.TensorView(valid_shape=[Q, VALID])]):
            return sij

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, sij: pl.Tensor[[Q, BLK], pl.FP32], valid_len: pl.Scalar[pl.INDEX]):
            part = pl.slice(sij, [16, 128], [0, 0], valid_shape=[16, valid_len])
            return self.kernel(part)
    """
)


def test_fix_all_applies_the_layout_and_the_vs001_fixes_together() -> None:
    found = check_text("k.py", BOTH, Workspace(()))
    assert sorted(f.code for f in found) == ["VS001", "VS009"]
    fixes = [f.fix for f in found if f.fix is not None and f.fix.preferred]
    assert len(fixes) == 2
    (edits,) = edits_by_path(fixes).values()
    fixed = apply_edits(BOTH, edits)
    assert fixed == BOTH.replace(
        "def kernel(self, sij: pl.Tensor[[Q, BLK], pl.FP32, pl.TensorView(valid_shape=[Q, VALID])]",
        "def kernel(self, VALID: pl.Scalar[pl.INDEX], sij: pl.Tensor[[Q, BLK], pl.FP32, "
        "pl.TensorView(valid_shape=[Q, VALID], layout=pl.TensorLayout.ND)]",
    ).replace("self.kernel(part)", "self.kernel(valid_len, part)")
    assert check_text("k.py", fixed, Workspace(())) == []


def test_the_rule_is_in_the_catalog() -> None:
    rule = RULES[TENSOR_VIEW_MISSING_LAYOUT.code]
    assert (rule.name, rule.severity.name) == ("tensor-view-missing-layout", "ERROR")
    assert "layout=pl.TensorLayout.ND" in rule.fixed and "layout" not in rule.example
