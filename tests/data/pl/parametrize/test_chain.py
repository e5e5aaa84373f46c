# A builder chain, as pypto's tests build programs in helpers that call helpers
# (tests/ut/ir/transforms/test_legalize_tile_cast.py, _make_program): the test passes its
# parameter to build(rows), which passes it to make_program(rows), which defines the program.
import pypto.language as pl
import pytest


def make_program(valid):
    @pl.program
    class Chained:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[valid], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[n])
            return self.kernel(part, out)

    return Chained


def build(rows):
    return make_program(rows)


@pytest.mark.parametrize("rows", [56, pl.dynamic("CHAIN_ROWS")], ids=["static", "dynamic"])
def test_builder_chain(rows):
    assert build(rows) is not None
