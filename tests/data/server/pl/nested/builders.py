# Kernels and programs built inside functions and test methods (server features).
import pypto.language as pl

R = pl.dynamic("R")


def build_tail():
    TAIL_N = pl.dynamic("TAIL_N")

    @pl.program
    class Tail:
        @pl.function(type=pl.FunctionType.AIV)
        def tail(self, a: pl.Tensor[[R, 64], pl.FP16, pl.TensorView(valid_shape=[R, TAIL_N])]):
            return a

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, a: pl.Tensor[[R, 64], pl.FP16], n: pl.Scalar[pl.INDEX]):
            view = pl.slice(a, [16, 64], [0, 0], valid_shape=[16, n])
            return self.tail(view)

    return Tail


class TestScale:
    def test_scale(self):
        W = pl.dynamic("W")

        @pl.function(type=pl.FunctionType.InCore)
        def scale(x: pl.Tensor[[R, 64], pl.FP32, pl.TensorView(valid_shape=[R, W])]):
            return x

        assert scale is not None
