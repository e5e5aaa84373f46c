import pypto.language as pl

VALID = pl.dynamic("VALID")


@pl.function(type=pl.FunctionType.InCore)
def kernel(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID])]:
    return x
