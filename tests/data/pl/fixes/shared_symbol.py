# Two kernels and a caller share one module-level `pl.dynamic`: `second` binds N by a
# physical dimension, `first` cannot bind it (VS001), and `main` reads it in an annotation.
# A leading `N: pl.Scalar[pl.INDEX]` would make pypto's parser read `first`'s parameter for
# N in every function it parses after `first` (`main`), while `second`, parsed before,
# keeps the symbol they shared; main's call of `second` then binds N twice ("conflicting
# bindings ... not provably equal"). The fix names the parameter afresh instead.
import pypto.language as pl

N = pl.dynamic("N")
ND = pl.TensorLayout.ND


def build_shared_symbol():
    @pl.program
    class SharedSymbol:
        @pl.function(type=pl.FunctionType.InCore)
        def second(
            self,
            rows: pl.Tensor[[N, 64], pl.FP32],
            part: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[N, 64], layout=ND)],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            t = pl.load(part, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.InCore)
        def first(
            self,
            a: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[N, 64], layout=ND)],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            t = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[N, 64], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            o1: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
            o2: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            window = pl.slice(x, [64, 64], [0, 0], valid_shape=[n, 64])
            o1 = self.first(window, o1)
            return self.second(x, window, o2)

    return SharedSymbol


def build_readers_after():
    # Every other reader of M comes after `first`: they all read its parameter, as one
    # symbol, so the plain fix keeps the program building.
    M = pl.dynamic("M")

    @pl.program
    class ReadersAfter:
        @pl.function(type=pl.FunctionType.InCore)
        def first(
            self,
            a: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[M, 64], layout=ND)],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            t = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.InCore)
        def second(
            self,
            rows: pl.Tensor[[M, 64], pl.FP32],
            part: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[M, 64], layout=ND)],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            t = pl.load(part, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[M, 64], pl.FP32],
            m: pl.Scalar[pl.INDEX],
            o1: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
            o2: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            window = pl.slice(x, [64, 64], [0, 0], valid_shape=[m, 64])
            o1 = self.first(window, o1)
            return self.second(x, window, o2)

    return ReadersAfter
