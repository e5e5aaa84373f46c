# A kernel imported from another workspace file under an alias, called by that alias from a
# module-level program and from a program built in a function.
import pypto.language as pl
from shared_kernels import shared_kernel as imported


@pl.program
class UsesImported:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
    ) -> pl.Tensor[[64], pl.FP32]:
        part = pl.slice(x, [64], [0], valid_shape=[n])
        return imported(part, out)


def build_user():
    @pl.program
    class UsesImportedInFunction:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], m: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[m])
            return imported(part, out)

    return UsesImportedInFunction
