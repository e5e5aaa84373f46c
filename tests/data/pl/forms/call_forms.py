# Call forms and extent sources: pl.no_dep, pl.spmd_submit, keywords, pl.tensor.view,
# pl.create_tensor, subscripts, a caller's view by variable, a multi-line call,
# `from pypto import`.
from pypto import language as pl

W = pl.dynamic("W")
H = pl.dynamic("H")
VIEW = pl.TensorView(valid_shape=[W, 8], layout=pl.TensorLayout.ND)


@pl.program
class Forms:
    @pl.function(type=pl.FunctionType.AIC)
    def k(self, a: pl.Tensor[[64, 8], pl.FP16, pl.TensorView(valid_shape=[W, 8])], b: pl.InOut[pl.Tensor[[8, 64], pl.FP16, pl.TensorView(valid_shape=[H, 64])]]):
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, src: pl.Tensor[[64, 8], pl.FP16, VIEW],
             dst: pl.Tensor[[8, 64], pl.FP16], w: pl.Scalar[pl.INDEX]):
        v = pl.tensor.view(dst, [8, 64])
        c = pl.create_tensor([8, 64], pl.FP16, valid_shape=[4, 64])
        r1 = self.k(src, pl.no_dep(v))
        r2 = pl.spmd_submit(self.k, src, c)
        r3 = self.k(
            src[0:w, 0:8],
            b=dst,
        )
        return r1
