# A parametrized test whose kernel gains the same parameter in every case: the finding
# names no case, and its fix is right in every case (preferred). Kept apart from
# test_parametrized.py, whose fixes are not preferred (they would change the constant
# cases), so that `passlint check --fix` leaves that file as it is.
import pypto.language as pl
import pytest


@pytest.mark.parametrize("dtype", ["FP32", "FP16"])
def test_every_case_dynamic(dtype):
    element = getattr(pl, dtype)
    EVERY = pl.dynamic("EVERY")

    @pl.program
    class Every:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], element, pl.TensorView(valid_shape=[EVERY], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], element]],
        ) -> pl.Tensor[[64], element]:
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], element], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], element]]
        ) -> pl.Tensor[[64], element]:
            part = pl.slice(x, [64], [0], valid_shape=[n])
            return self.kernel(part, out)

    assert Every is not None
