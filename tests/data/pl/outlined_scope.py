# A `with pl.at(...)` scope of an orchestration function: pypto's default pipeline outlines it
# into an InCore kernel whose parameters are the tensors the body reads, then
# MaterializeValidShapeSymbols adds the captured view's valid_shape symbol to it (VS007). The
# slice is of a tensor whose shape is dynamic (`R`), so OptimizeOrchTensors keeps its view.
import pypto.language as pl

R = pl.dynamic("R")
V = pl.dynamic("V")


def build():
    @pl.program
    class Outlined:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[R, 64], pl.FP32, pl.TensorView(valid_shape=[R, V], layout=pl.TensorLayout.ND)],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            part = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, n])
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="fused"):
                t = pl.load(part, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
                out = pl.store(t, [0, 0], out)
            return out

    return Outlined
