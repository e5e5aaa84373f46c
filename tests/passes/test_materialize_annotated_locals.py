"""The extent a call passes for a local with its own tensor annotation, as pypto's parser
types it (``python/pypto/language/parser/ast_parser.py``,
``ASTParser.parse_annotated_assignment``: an annotation ``TensorType`` with a
``tensor_view`` overrides the value's type; one without a view leaves the value's type), and
what the pass then reads from the argument (``materialize_valid_shape_symbols_pass.cpp``,
``PrependValidShapeArgs``: the argument type's effective valid_shape)."""

from __future__ import annotations

import pytest

from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

HEAD = 'import pypto.language as pl\n\nV = pl.dynamic("V")\nND = pl.TensorLayout.ND\n'
PROGRAM = """
@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[V, 64], layout=ND)]):
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, y: pl.Tensor[[128, 64], pl.FP32], n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX]):
{body}
        return self.kernel(x)
"""
WITH_VIEW = "pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[n, 64], layout=ND)]"


def extents(body: str) -> list[str]:
    text = HEAD + PROGRAM.format(body=body)
    [finding] = [f for f in check_text("k.py", text, None) if f.code == "VS001"]
    assert finding.fix is not None and finding.fix.preferred
    return [e.new_text for e in finding.fix.edits[1:]]


@pytest.mark.parametrize(
    ("body", "extent"),
    [
        # the annotation's view wins over the slice it is assigned from
        (f"        x: {WITH_VIEW} = pl.slice(y, [64, 64], [0, 0])", "n, "),
        (f"        x: {WITH_VIEW} = pl.slice(y, [64, 64], [0, 0], valid_shape=[m, 64])", "n, "),
        # an annotation without a view: the slice's own valid_shape
        ("        x: pl.Tensor[[64, 64], pl.FP32] = pl.slice(y, [64, 64], [0, 0], [m, 64])", "m, "),
        ("        x: pl.Tensor[[64, 64], pl.FP32] = pl.slice(y, [64, 64], [0, 0])", "64, "),
    ],
)
def test_an_annotated_local_passes_what_its_type_says(body: str, extent: str) -> None:
    assert extents(body) == [extent]
