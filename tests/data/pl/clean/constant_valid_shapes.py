# No finding: every valid_shape entry is an int literal or a module-level int constant.
import pypto.language as pl

ROWS = 16
Q = pl.dynamic("Q")


@pl.program
class Constant:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[Q, 128], pl.FP32, pl.TensorView(valid_shape=[ROWS, 64], layout=pl.TensorLayout.ND)]):
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, src: pl.Tensor[[Q, 128], pl.FP32]):
        return self.k(src)
