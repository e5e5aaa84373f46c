# Parametrized fixtures (pytest: FixtureManager.pytest_generate_tests parametrizes each
# requested fixture with its params before the marks; request.param is the case's param):
# a fixture that hands request.param to the test, one that builds the program with it,
# and indirect=True parametrize marks feeding the first.
import pypto.language as pl
import pytest


@pytest.fixture(params=[40, pl.dynamic("FIXTURE_ROWS")], ids=["const", "symbol"])
def rows(request):
    return request.param


def build(valid):
    @pl.program
    class FixtureBuilt:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[valid], layout=pl.TensorLayout.ND)],
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

    return FixtureBuilt


@pytest.fixture(params=[pl.dynamic("FED_ROWS"), 24])
def program(request):
    return build(request.param)


def test_fixture_param(rows):
    @pl.program
    class FromFixture:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[rows], layout=pl.TensorLayout.ND)],
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

    assert FromFixture is not None


@pytest.mark.parametrize("dtype", ["FP32", "FP16"])
def test_fixture_builds(program, dtype):
    assert program is not None


@pytest.mark.parametrize("rows", [pl.dynamic("INDIRECT_ROWS"), 8], indirect=True)
def test_indirect(rows):
    @pl.program
    class Indirect:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[rows], layout=pl.TensorLayout.ND)],
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

    assert Indirect is not None
