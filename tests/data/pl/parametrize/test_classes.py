# Parametrized test classes, as pypto's tests group them (tests/ut/ir/transforms/
# test_flatten_tile_nd_to_2d.py: methods of Test* classes with @pytest.mark.parametrize):
# a class-level mark applies to every test method, stacked with the method's own marks
# (pytest: iter_markers walks from the function up to its class), and the cases are named
# TestX::test_k[id] as pytest's node ids name them.
import pypto.language as pl
import pytest


@pytest.mark.parametrize("rows", [48, pl.dynamic("CLASS_ROWS")], ids=["static", "dynamic"])
class TestClassMarks:
    @pytest.mark.parametrize("dtype", ["FP32", "FP16"])
    def test_stacked_with_the_method(self, rows, dtype):
        element = getattr(pl, dtype)

        @pl.program
        class ClassStacked:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(
                self,
                x: pl.Tensor[[64], element, pl.TensorView(valid_shape=[rows], layout=pl.TensorLayout.ND)],
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

        assert ClassStacked is not None

    def test_class_mark_only(self, rows):
        @pl.program
        class ClassOnly:
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

        assert ClassOnly is not None


class TestMethodMarks:
    @pytest.mark.parametrize("valid", [pl.dynamic("METHOD_VALID"), 16])
    def test_in_a_class(self, valid):
        @pl.program
        class InClass:
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

        assert InClass is not None
