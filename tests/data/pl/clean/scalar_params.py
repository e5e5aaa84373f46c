# A scalar parameter declared before its use under the pl.dynamic's Python name re-points it
# (no finding); read as a plain parameter name, Python raises NameError first (VS006).
import pypto.language as pl

VALID = pl.dynamic("VALID")


@pl.function(type=pl.FunctionType.AIV)
def by_dynamic_name(
    VALID: pl.Scalar[pl.INDEX],
    x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
):
    return x


@pl.function(type=pl.FunctionType.InCore)
def by_param(n: pl.Scalar[pl.INDEX], x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[n, 128])]):
    return x


@pl.program
class Scalars:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, src: pl.Tensor[[16, 128], pl.FP32], v: pl.Scalar[pl.INDEX]):
        a = by_dynamic_name(v, src)
        return by_param(v, a)
