# The DSL under other names: types and `dynamic` imported from pypto.language directly,
# decorators through `from pypto import language as ...`; the body's operations keep `pl.`
# (pypto's parser reads operations only through that name).
import pypto.language as pl
from pypto import language as dsl
from pypto.language import FunctionType, Tensor, TensorView, dynamic

ALIASED = dynamic("ALIASED")


@dsl.program
class Aliased:
    @dsl.function(type=FunctionType.InCore)
    def kernel(
        self,
        x: Tensor[[64], pl.FP32, TensorView(valid_shape=[ALIASED], layout=pl.TensorLayout.ND)],
        out: pl.Out[Tensor[[64], pl.FP32]],
    ) -> Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0], out)

    @dsl.function(type=FunctionType.Orchestration)
    def main(
        self, x: Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[Tensor[[64], pl.FP32]]
    ) -> Tensor[[64], pl.FP32]:
        part = pl.slice(x, [64], [0], valid_shape=[n])
        return self.kernel(part, out)
