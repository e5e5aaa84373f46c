# A `with pl.at(...)` scope of an orchestration function: the default pipeline outlines it
# into a kernel whose parameters are the tensors it uses, and the pass then gives that
# kernel the valid_shape symbol of the orchestration's parameter.
import pypto.language as pl

AT_VALID = pl.dynamic("AT_VALID")


@pl.program
class Outlined:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[AT_VALID], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[64], pl.FP32]],
    ) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scaled"):
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            out = pl.store(pl.tile.add(t, t), [0], out)
        return out
