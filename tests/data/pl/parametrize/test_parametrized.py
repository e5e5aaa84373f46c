# Programs built inside parametrized tests, as pypto's own tests write them
# (tests/ut/language/parser/test_type_resolver.py, test_parametrized_shapes; tests/ut/ir/
# transforms/test_legalize_tile_cast.py): a valid_shape entry reads a test parameter, which
# is a constant in some cases and a pl.dynamic symbol in others. Only the symbolic cases
# give the kernel a leading parameter.
import pypto.language as pl
import pytest

_VALID_COLUMNS = [32, pl.dynamic("COLS")]


@pytest.mark.parametrize("rows", [64, pl.dynamic("ROWS")])
def test_static_or_dynamic(rows):
    @pl.program
    class RowsProgram:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[128, 64], pl.FP32, pl.TensorView(valid_shape=[rows, 64], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
        ) -> pl.Tensor[[128, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [128, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[128, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[128, 64], pl.FP32]]
        ) -> pl.Tensor[[128, 64], pl.FP32]:
            part = pl.slice(x, [128, 64], [0, 0], valid_shape=[n, 64])
            return self.kernel(part, out)

    assert RowsProgram is not None


@pytest.mark.parametrize(
    "cols",
    [pytest.param(128, id="static"), pytest.param(pl.dynamic("COLS"), id="dynamic")],
)
def test_named_cases(cols):
    @pl.program
    class ColsProgram:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(
            self,
            x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, cols], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]
        ) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            return self.kernel(part, out)

    assert ColsProgram is not None


def build_program(valid):
    @pl.program
    class Built:
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

    return Built


@pytest.mark.parametrize("valid", [48, pl.dynamic("VALID")], ids=["const", "symbol"])
def test_through_a_builder(valid):
    assert build_program(valid) is not None


@pytest.mark.parametrize("dtype", ["FP32", "FP16"])
@pytest.mark.parametrize("rows,cols", [(16, 64), (pl.dynamic("R"), 64)])
def test_stacked(rows, cols, dtype):
    element = getattr(pl, dtype)

    @pl.program
    class Stacked:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 64], element, pl.TensorView(valid_shape=[rows, cols], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 64], element]],
        ) -> pl.Tensor[[16, 64], element]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[16, 64], element], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], element]]
        ) -> pl.Tensor[[16, 64], element]:
            part = pl.slice(x, [16, 64], [0, 0], valid_shape=[n, 64])
            return self.kernel(part, out)

    assert Stacked is not None


@pytest.mark.parametrize("cols", _VALID_COLUMNS)
def test_cases_from_a_module_list(cols):
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[16, cols], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.program
    class FromList:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            part = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, n])
            return kernel(part, out)

    assert FromList is not None


class TestParametrizedMethods:
    @pytest.mark.parametrize("rows,cols", [(16, 64), (pl.dynamic("MROWS"), pl.dynamic("MCOLS"))])
    def test_in_a_method(self, rows, cols):
        @pl.program
        class InMethod:
            @pl.function(type=pl.FunctionType.AIV)
            def kernel(
                self,
                x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[rows, cols], layout=pl.TensorLayout.ND)],
                out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
            ) -> pl.Tensor[[16, 64], pl.FP32]:
                t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
                return pl.store(t, [0, 0], out)

            @pl.function(type=pl.FunctionType.Orchestration)
            def main(
                self,
                x: pl.Tensor[[16, 64], pl.FP32],
                m: pl.Scalar[pl.INDEX],
                n: pl.Scalar[pl.INDEX],
                out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
            ) -> pl.Tensor[[16, 64], pl.FP32]:
                part = pl.slice(x, [16, 64], [0, 0], valid_shape=[m, n])
                return self.kernel(part, out)

        assert InMethod is not None


@pytest.mark.parametrize("valid", [pytest.param(16, id="static"), pytest.param(pl.dynamic("SHARED"), id="dynamic")])
def test_conflict_in_one_case(valid):
    # In the dynamic case both tensors' valid_shape read one symbol, and the call feeds it
    # two different extents: the pass rejects that program only.
    @pl.program
    class Conflicting:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            a: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[valid], layout=pl.TensorLayout.ND)],
            b: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[valid], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(a, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[64], pl.FP32],
            m: pl.Scalar[pl.INDEX],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            first = pl.slice(x, [64], [0], valid_shape=[m])
            second = pl.slice(x, [64], [0], valid_shape=[n])
            return self.kernel(first, second, out)

    assert Conflicting is not None
