"""The fixed copy the differential suite judges (no oracle needed): ``passlint check --fix``
on a copy, the files it changed, and the kernels it left unfixed on purpose (a VS001 finding
remains, with a fix that is not preferred or none), by their ``def`` line in the fixed file."""

from __future__ import annotations

from pathlib import Path

from oracle.oracle_run import fixed_copy

HEAD = 'import pypto.language as pl\n\nN = pl.dynamic("N")\nV = pl.dynamic("V")\n\n\n'
VIEW = "pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[{}], layout=pl.TensorLayout.ND)]"
FIXABLE = f"""@pl.function(type=pl.FunctionType.InCore)
def fixable(a: {VIEW.format("V")}):
    return a


@pl.function(type=pl.FunctionType.Orchestration)
def calls_it(x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX]):
    return fixable(pl.slice(x, [64], [0], valid_shape=[n]))
"""
# Reads N before and after `first`, which assigns N itself: no free name for its parameter.
SPLIT = f"""

@pl.program
class Split:
    @pl.function(type=pl.FunctionType.InCore)
    def second(self, b: pl.Tensor[[N], pl.FP32]):
        return b

    @pl.function(type=pl.FunctionType.InCore)
    def first(self, a: {VIEW.format("N")}):
        N = 4
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N], pl.FP32], n: pl.Scalar[pl.INDEX]):
        o = self.first(pl.slice(x, [64], [0], valid_shape=[n]))
        return self.second(x)
"""


def test_the_fixed_copy_says_what_it_changed_and_what_it_left(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "k.py").write_text(HEAD + FIXABLE + SPLIT)
    copy = fixed_copy(source, ["k.py"], tmp_path / "fixed")
    fixed = (tmp_path / "fixed" / "k.py").read_text()
    assert copy.changed == ["k.py"]
    assert "def fixable(V: pl.Scalar[pl.INDEX], a:" in fixed
    assert "def first(self, a:" in fixed  # not preferred: not applied
    line = fixed.splitlines().index("    def first(self, a: " + VIEW.format("N") + "):") + 1
    assert copy.unfixed == {("k.py", line)}
