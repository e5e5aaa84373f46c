# Orchestrations whose `with pl.at(level=pl.Level.CORE_GROUP)` scopes read slices with a
# valid_shape, built the way pypto's users write them. pypto's default pipeline outlines each
# scope into an InCore kernel (OutlineIncoreScopes); then OptimizeOrchTensors gives an input
# parameter fed by a slice of a tensor with a static shape the parent's strides, which drops
# the slice's valid_shape, so MaterializeValidShapeSymbols has nothing to add there.
import pypto.language as pl

ROWS = pl.dynamic("ROWS")


def build_static_parent():
    """A slice of a [64, 128] tensor: its view becomes strides; nothing is added."""

    @pl.program
    class StaticParent:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[64, 128], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
                t = pl.load(part, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                out = pl.store(pl.tile.add(t, t), [0, 0], out)
            return out

    return StaticParent


def build_dynamic_parent():
    """A slice of a [ROWS, 128] tensor: no static strides, so the view stays and the
    outlined kernel gains `n`."""

    @pl.program
    class DynamicParent:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[ROWS, 128], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
                t = pl.load(part, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                out = pl.store(pl.tile.add(t, t), [0, 0], out)
            return out

    return DynamicParent


def build_subscript_slice():
    """A subscript slice `x[0:16, :]` of a parameter whose view names `VALID`: the slice
    keeps the symbol, its parent's shape is static, so it becomes strides too."""
    VALID = pl.dynamic("VALID")

    @pl.program
    class SubscriptSlice:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[64, 128], pl.FP32, pl.TensorView(valid_shape=[64, VALID], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            part = x[0:16, :]
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
                t = pl.load(part, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                out = pl.store(t, [0, 0], out)
            return out

    return SubscriptSlice


def build_whole_parameter():
    """The scope reads the parameter itself (no slice): its view stays, the kernel gains
    `VALID`."""
    VALID = pl.dynamic("VALID")

    @pl.program
    class WholeParameter:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="whole"):
                t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                out = pl.store(t, [0, 0], out)
            return out

    return WholeParameter


def build_two_scopes():
    """Two scopes in a loop-free orchestration: the first reads a slice of a static tensor
    (strides, nothing added), the second a slice of a dynamic one (gains `n`)."""

    @pl.program
    class TwoScopes:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[64, 128], pl.FP32],
            y: pl.Tensor[[ROWS, 128], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            a = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            b = pl.slice(y, [16, 128], [0, 0], valid_shape=[16, n])
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                out = pl.store(t, [0, 0], out)
            with pl.at(level=pl.Level.CORE_GROUP):
                u = pl.load(b, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
                out = pl.store(u, [0, 0], out)
            return out

    return TwoScopes
