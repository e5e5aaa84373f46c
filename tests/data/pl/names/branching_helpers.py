# Helpers whose value depends on a branch or on keyword arguments: pypto's parser sees the
# value Python computed, so the branch the call's literals (or the helper's literal
# defaults) select is the one that counts, and `**kwargs` carry their keywords through.
import pypto.language as pl


def dim(name, dynamic=True):
    return pl.dynamic(name) if dynamic else 64


def extent(name, kind=None):
    if kind is None:
        return pl.dynamic(name)
    elif kind == "static":
        return 64
    return pl.dynamic(name + "_" + kind)


def symbol(**options):
    return pl.dynamic(options.get("name", "DEFAULT_SYMBOL"))


def build_branching():
    ROWS = dim("ROWS")  # the default: a symbol
    COLS = dim("COLS", dynamic=False)  # an int: nothing to add
    DEPTH = extent("DEPTH")  # kind is None: the first return

    @pl.program
    class Branching:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[ROWS, COLS], layout=pl.TensorLayout.ND)],
            y: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[DEPTH, 64], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[16, 64], pl.FP32],
            m: pl.Scalar[pl.INDEX],
            d: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            rows = pl.slice(x, [16, 64], [0, 0], valid_shape=[m, 64])
            depth = pl.slice(x, [16, 64], [0, 0], valid_shape=[d, 64])
            return self.kernel(rows, depth, out)

    return Branching


def build_keywords():
    TILE = symbol(name="TILE")  # through **options
    FALLBACK = symbol(**{"other": 1})  # no "name": the default string

    @pl.program
    class Keywords:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[TILE, FALLBACK], layout=pl.TensorLayout.ND)],
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

    return Keywords
