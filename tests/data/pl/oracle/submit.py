# Kernels launched with pl.submit inside pl.manual_scope(): every argument given (the
# extent is prepended to the submit), and a runtime-allocated pl.Out left out of the
# submit (the pass has no actual to read the extent from: rejected).
import pypto.language as pl

SUBMITTED = pl.dynamic("SUBMITTED")


@pl.program
class Submits:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[SUBMITTED], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[64], pl.FP32]],
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        part = pl.slice(x, [64], [0], valid_shape=[n])
        with pl.manual_scope():
            a, _a_tid = pl.submit(self.kernel, part, out)
        return a


def build_omitted_argument():
    OMITTED = pl.dynamic("OMITTED")

    @pl.program
    class Omits:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32],
            ret0__out: pl.Out[pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[OMITTED], layout=pl.TensorLayout.ND)]],
        ) -> pl.Tensor[[64], pl.FP32]:
            xt = pl.load(x, [0], [64], [64], target_memory=pl.Mem.Vec)
            return pl.store(pl.tile.add(xt, xt), [0], ret0__out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
            with pl.manual_scope():
                a, _a_tid = pl.submit(self.kernel, x)
            return a

    return Omits
