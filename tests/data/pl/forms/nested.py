# A kernel nested inside a builder function, its symbol local to the builder, called by bare
# name; the caller's argument is a slice with a positional valid_shape.
import pypto.language as pl


def build():
    R = pl.dynamic("R")

    @pl.function(type=pl.FunctionType.InCore)
    def inner(x: pl.Tensor[[128], pl.FP32, pl.TensorView(valid_shape=[R])]): return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def outer(src: pl.Tensor[[128], pl.FP32], n: pl.Scalar[pl.INDEX]):
        part = pl.slice(src, [128], [0], [n])
        return inner(part)

    return outer
