# VS006: a valid_shape entry names something defined nowhere; VS002 inside a pl.min call.
import pypto.language as pl

V = pl.dynamic("V")


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[UNDEFINED, pl.min(V, 4)])]):
    return x
