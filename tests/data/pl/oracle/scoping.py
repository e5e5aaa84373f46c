# Names resolved as Python resolves them when the program is built: a symbol of an enclosing
# builder seen through a closure, a local that shadows a global of the same name, a name
# assigned twice (the later one counts), and a class body that does not enclose its methods.
import pypto.language as pl

SHADOWED = pl.dynamic("SHADOWED_GLOBAL")
HIDDEN = pl.dynamic("HIDDEN_GLOBAL")


def build_closure():
    OUTER = pl.dynamic("OUTER")

    def inner():
        @pl.program
        class Closure:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(
                self,
                x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[OUTER], layout=pl.TensorLayout.ND)],
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

        return Closure

    return inner()


def build_shadowing():
    SHADOWED = pl.dynamic("SHADOWED_LOCAL")
    TWICE = pl.dynamic("TWICE_FIRST")
    TWICE = pl.dynamic("TWICE_SECOND")

    @pl.program
    class Shadowing:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[SHADOWED, TWICE], layout=pl.TensorLayout.ND)],
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

    return Shadowing


class TestClassBody:
    HIDDEN = pl.dynamic("HIDDEN_CLASS")  # not visible inside the methods below

    def test_global_seen_through_class_body(self):
        @pl.program
        class ThroughClassBody:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(
                self,
                x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[HIDDEN], layout=pl.TensorLayout.ND)],
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

        return ThroughClassBody
