# What binds a symbol: a physical dimension, an earlier Scalar[INDEX] parameter of the same
# name (the parser points the symbol at it), and an earlier scalar of another dtype with the
# same name (pypto's parser reads a valid_shape name as that parameter, while a physical
# dimension of the same name stays the pl.dynamic symbol); a kernel type the pass skips.
import pypto.language as pl

PHYS = pl.dynamic("PHYS")
EARLY = pl.dynamic("EARLY")
FLOATED = pl.dynamic("FLOATED")


@pl.program
class Bound:
    @pl.function(type=pl.FunctionType.InCore)
    def by_physical_dim(
        self,
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, PHYS], layout=pl.TensorLayout.ND)],
        y: pl.Tensor[[PHYS], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def by_early_scalar(
        self,
        EARLY: pl.Scalar[pl.INDEX],
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, EARLY], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Opaque)
    def not_a_device_kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, FLOATED], layout=pl.TensorLayout.ND)],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        return x


@pl.program
class EarlierScalarOfAnotherDtype:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        FLOATED: pl.Scalar[pl.FP32],
        x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, FLOATED], layout=pl.TensorLayout.ND)],
        src: pl.Tensor[[16, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)
