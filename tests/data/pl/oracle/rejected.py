# Programs the pass or pypto's DSL parser rejects: a symbol only inside a compound entry,
# one symbol fed two different extents at one call, and a same-named Scalar[INDEX]
# parameter declared after the annotation that reads the symbol (the parser rejects it).
import pypto.language as pl

COMPOUND = pl.dynamic("COMPOUND")
TWO = pl.dynamic("TWO")
LATE = pl.dynamic("LATE")


def build_compound_only():
    @pl.program
    class CompoundOnly:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[128], pl.FP32, pl.TensorView(valid_shape=[COMPOUND * 2], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[128], pl.FP32]],
        ) -> pl.Tensor[[128], pl.FP32]:
            t = pl.load(x, [0], [128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

    return CompoundOnly


def build_two_extents():
    @pl.program
    class TwoExtents:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, TWO], layout=pl.TensorLayout.ND)],
            y: pl.Tensor[[128, 16], pl.FP32, pl.TensorView(valid_shape=[TWO, 16], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            src: pl.Tensor[[16, 128], pl.FP32],
            src_t: pl.Tensor[[128, 16], pl.FP32],
            vl: pl.Scalar[pl.INDEX],
            vm: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, vl])
            b = pl.slice(src_t, [128, 16], [0, 0], valid_shape=[vm, 16])
            return self.kernel(a, b, out)

    return TwoExtents


def build_late_scalar():
    @pl.program
    class LateScalar:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, LATE], layout=pl.TensorLayout.ND)],
            LATE: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

    return LateScalar
