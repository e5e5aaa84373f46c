# Programs where most real ones live: built inside a builder that declares its symbol
# locally and returns the program, inside a test function, inside a test method, in a class
# defined in a function, and under with/if/for/try statements.
import contextlib

import pypto.language as pl

BLK = pl.dynamic("BLK")


def build_local_symbol():
    LOCAL = pl.dynamic("LOCAL")

    @pl.program
    class Built:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, BLK], pl.FP32, pl.TensorView(valid_shape=[16, LOCAL], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, BLK], pl.FP32]],
        ) -> pl.Tensor[[16, BLK], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[16, BLK], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, BLK], pl.FP32]]
        ) -> pl.Tensor[[16, BLK], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            return self.kernel(part, out)

    return Built


def test_program_in_a_test_function():
    INNER = pl.dynamic("INNER")

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[INNER], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[64], pl.FP32]],
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0], out)

    @pl.program
    class InFunction:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[n])
            return kernel(part, out)

    return InFunction


class TestInMethods:
    def test_program_in_a_method(self):
        METHOD = pl.dynamic("METHOD")

        @pl.program
        class InMethod:
            @pl.function(type=pl.FunctionType.AIV)
            def kernel(
                self,
                x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[METHOD], layout=pl.TensorLayout.ND)],
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

        return InMethod


def test_statement_bodies():
    WITH = pl.dynamic("WITH")
    built = []
    with contextlib.suppress(ZeroDivisionError):
        for _ in range(1):
            if built is not None:
                try:

                    @pl.program
                    class UnderStatements:
                        @pl.function(type=pl.FunctionType.InCore)
                        def kernel(
                            self,
                            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[WITH], layout=pl.TensorLayout.ND)],
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

                    built.append(UnderStatements)
                finally:
                    pass
    return built
