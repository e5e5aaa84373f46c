# A module-level pytestmark parametrizes every test of the module (pytest:
# get_unpacked_marks of the module, applied after the function's and its class's marks).
import pypto.language as pl
import pytest

pytestmark = [pytest.mark.parametrize("cols", [32, pl.dynamic("MODULE_COLS")], ids=["c", "d"])]


def test_module_mark(cols):
    @pl.program
    class ModuleMarked:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[cols], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[n])
            return self.kernel(part, out)

    assert ModuleMarked is not None


@pytest.mark.parametrize("dtype", ["FP32"])
def test_module_mark_stacked(dtype, cols):
    element = getattr(pl, dtype)

    @pl.program
    class ModuleStacked:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], element, pl.TensorView(valid_shape=[cols], layout=pl.TensorLayout.ND)],
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

    assert ModuleStacked is not None
