# Symbols made by helpers: pl.dynamic reached through a function that returns symbols binds
# exactly as a direct `X = pl.dynamic("X")`. The symbol's string is the one the helper passed
# to pl.dynamic; its Python name is the variable the call's value is unpacked into.
import pypto.language as pl


def dims(*names):
    return tuple(pl.dynamic(n) for n in names)


def make_dims(first, second="SECOND_SYMBOL"):
    rows = pl.dynamic(first)
    return rows, pl.dynamic(second)


def one_dim(name):
    return dims(name)[0]


(ROWS,) = dims("ROWS")
a, b = make_dims("FIRST_SYMBOL")


@pl.program
class FromHelpers:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[ROWS, b], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def bound_by_shape(
        self,
        x: pl.Tensor[[a, 64], pl.FP32, pl.TensorView(valid_shape=[a, 64], layout=pl.TensorLayout.ND)],
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
        out = self.bound_by_shape(x, out)
        return self.kernel(part, out)


def build_local_helper():
    def symbols(*names):
        return [pl.dynamic(name) for name in names]

    tile_rows, tile_cols = symbols("TILE_ROWS", "TILE_COLS")

    @pl.program
    class LocalHelper:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[tile_rows, tile_cols], layout=pl.TensorLayout.ND)],
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

    return LocalHelper


def build_single_symbol():
    width = one_dim("WIDTH")

    @pl.function(type=pl.FunctionType.InCore)
    def standalone(
        x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[width], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[64], pl.FP32]],
    ) -> pl.Tensor[[64], pl.FP32]:
        t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0], out)

    @pl.program
    class Single:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[k])
            return standalone(part, out)

    return Single
