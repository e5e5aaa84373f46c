# Standalone kernels that another file (uses_shared_kernels.py) imports and calls.
import pypto.language as pl

SHARED = pl.dynamic("SHARED")


@pl.function(type=pl.FunctionType.AIV)
def shared_kernel(
    x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[SHARED], layout=pl.TensorLayout.ND)],
    out: pl.Out[pl.Tensor[[64], pl.FP32]],
) -> pl.Tensor[[64], pl.FP32]:
    t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
    return pl.store(t, [0], out)
