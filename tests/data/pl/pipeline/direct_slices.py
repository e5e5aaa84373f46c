# InCore kernels called from an orchestration with slices that carry a valid_shape, built the
# way pypto's users write them. The recorded truth is the pass run alone (as pypto's own tests
# run it): each kernel gains `VALID`. Under `pl.compile` (checked with the default pipeline's
# passes) OptimizeOrchTensors first gives `head`'s input in build_static_parent the strides
# of `x` (a slice of a tensor of static shape) instead of its view, and nothing is added
# there; the other three keep their views.
import pypto.language as pl

VALID = pl.dynamic("VALID")
ROWS = pl.dynamic("ROWS")


def build_static_parent():
    """The kernel's `a` is fed a slice of a [64, 128] tensor."""

    @pl.program
    class DirectStatic:
        @pl.function(type=pl.FunctionType.InCore)
        def head(
            self,
            a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[64, 128], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            out = self.head(part, out)
            return out

    return DirectStatic


def build_dynamic_parent():
    """The kernel's `a` is fed a slice of a [ROWS, 128] tensor: no static strides."""

    @pl.program
    class DirectDynamic:
        @pl.function(type=pl.FunctionType.InCore)
        def head(
            self,
            a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[ROWS, 128], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            out = self.head(part, out)
            return out

    return DirectDynamic


def build_two_parents():
    """Two calls feed `a` slices of tensors of different static shapes: no one stride fits,
    so the view stays."""

    @pl.program
    class TwoParents:
        @pl.function(type=pl.FunctionType.InCore)
        def head(
            self,
            a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[64, 128], pl.FP32],
            y: pl.Tensor[[32, 256], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            first = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            out = self.head(first, out)
            second = pl.slice(y, [16, 128], [0, 0], valid_shape=[16, n])
            out = self.head(second, out)
            return out

    return TwoParents


def build_parameter_argument():
    """The orchestration passes its own parameter (no slice): the view stays."""

    @pl.program
    class ParameterArgument:
        @pl.function(type=pl.FunctionType.InCore)
        def head(
            self,
            a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, ROWS], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            out = self.head(x, out)
            return out

    return ParameterArgument
