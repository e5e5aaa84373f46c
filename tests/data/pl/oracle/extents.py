# Where a call's extent comes from: the actual argument's valid_shape at the slot (a slice
# with an expression, pl.min, a view declared on the caller's parameter), else its physical
# shape (a constant, a dynamic dimension).
import pypto.language as pl

EXTENT = pl.dynamic("EXTENT")
ROWS = pl.dynamic("ROWS")
CALLER = pl.dynamic("CALLER")


@pl.program
class Extents:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, EXTENT], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def rows_kernel(
        self,
        x: pl.Tensor[[ROWS, 128], pl.FP32, pl.TensorView(valid_shape=[EXTENT, 128], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        full: pl.Tensor[[16, 128], pl.FP32],
        tall: pl.Tensor[[ROWS, 128], pl.FP32],
        viewed: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, CALLER], layout=pl.TensorLayout.ND)],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        out = self.kernel(full, out)
        out = self.rows_kernel(tall, out)
        out = self.kernel(viewed, out)
        shifted = pl.slice(full, [16, 128], [0, 0], valid_shape=[16, n - 1])
        out = self.kernel(shifted, out)
        clipped = pl.slice(full, [16, 128], [0, 0], valid_shape=[16, pl.min(n, 64)])
        return self.kernel(clipped, out)
