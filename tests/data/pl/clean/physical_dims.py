# No finding: every valid_shape symbol is also a physical dimension of some tensor parameter
# (also inside compound physical entries such as `M * 2` and `pl.min(N, 4)`).
import pypto.language as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
K = pl.dynamic("K")


@pl.program
class Physical:
    @pl.function(type=pl.FunctionType.Spmd)
    def k(self, x: pl.Tensor[[M * 2, pl.min(N, 4)], pl.FP32, pl.TensorView(valid_shape=[M, N * 2])],
          y: pl.Tensor[[K], pl.FP32, pl.TensorView(valid_shape=[K])]):
        return x
