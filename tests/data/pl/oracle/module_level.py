# Module-level kernels and programs: a standalone kernel called by bare name, a method
# called through `self.`, a kernel with two unbound symbols (ordered by first bare slot) and
# one symbol read in two slots that every call feeds the same extent.
import pypto.language as pl

Q = pl.dynamic("Q")
BLK = pl.dynamic("BLK")
VALID = pl.dynamic("VALID")
ROWS = pl.dynamic("ROWS")


@pl.function(type=pl.FunctionType.InCore)
def standalone(
    sij: pl.Tensor[[Q, BLK], pl.FP32, pl.TensorView(valid_shape=[Q, VALID], layout=pl.TensorLayout.ND)],
    out: pl.Out[pl.Tensor[[Q, BLK], pl.FP32]],
) -> pl.Tensor[[Q, BLK], pl.FP32]:
    t = pl.load(sij, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
    return pl.store(t, [0, 0], out)


@pl.program
class CallsStandalone:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        sij: pl.Tensor[[Q, BLK], pl.FP32],
        valid_len: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[Q, BLK], pl.FP32]],
    ) -> pl.Tensor[[Q, BLK], pl.FP32]:
        narrowed = pl.slice(sij, [16, 128], [0, 0], valid_shape=[16, valid_len])
        return standalone(narrowed, out)


@pl.program
class Methods:
    @pl.function(type=pl.FunctionType.AIV)
    def two_symbols(
        self,
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[ROWS, VALID], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def same_twice(
        self,
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
        y: pl.Tensor[[128, 16], pl.FP32, pl.TensorView(valid_shape=[VALID, 16], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        src: pl.Tensor[[16, 128], pl.FP32],
        src_t: pl.Tensor[[128, 16], pl.FP32],
        rows: pl.Scalar[pl.INDEX],
        cols: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        a = pl.slice(src, [16, 128], [0, 0], valid_shape=[rows, cols])
        b = pl.slice(src_t, [128, 16], [0, 0], valid_shape=[cols, 16])
        out = self.two_symbols(a, out)
        return self.same_twice(a, b, out)
