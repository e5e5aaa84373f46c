# Kernel methods called through `self.k(...)` and `pl.submit(self.k, ...)`; `tile` binds
# VALID by a scalar parameter (its view is inline), `scale` leaves it unbound.
import pypto.language as pl

VALID = pl.dynamic("VALID")
VIEW = pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)


@pl.program
class Methods:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pl.Tensor[[16, 128], pl.FP32, VIEW]) -> pl.Tensor[[16, 128], pl.FP32]:
        return x

    @pl.function(type=pl.FunctionType.AIV)
    def tile(self, VALID: pl.Scalar[pl.INDEX], x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]):
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX], args: list):
        a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])
        r = self.scale(a)
        h = pl.submit(self.scale, src)
        s = self.scale(*args)
        return self.tile(n, a)
