# Kernels whose valid_shape symbols come from a module of the same folder: made there by a
# helper (TILE), re-exported there from a third module (DEPTH), or made here by calling that
# module's helper (LOCAL_WIDTH).
import pypto.language as pl

import shape_symbols
from shape_symbols import DEPTH, TILE

LOCAL_WIDTH = shape_symbols.symbol("LOCAL_WIDTH")


@pl.program
class FromSibling:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[TILE, DEPTH], layout=pl.TensorLayout.ND)],
        y: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[LOCAL_WIDTH], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        y: pl.Tensor[[64], pl.FP32],
        m: pl.Scalar[pl.INDEX],
        n: pl.Scalar[pl.INDEX],
        w: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        part = pl.slice(x, [16, 64], [0, 0], valid_shape=[m, n])
        row = pl.slice(y, [64], [0], valid_shape=[w])
        return self.kernel(part, row, out)
