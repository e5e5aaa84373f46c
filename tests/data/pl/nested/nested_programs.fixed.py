# Kernels and programs defined inside functions and test methods, as most real pl code (and
# pypto's own test suite) writes them, with the outcome of the real pass (pypto@e2d0f78 built
# from source, run on these programs). A linter that reads only the module's top level sees
# none of them, and a VS001 fix of `scale_rows` that misses the nested call would shift its
# arguments.
import pypto.language as pl

R = pl.dynamic("R")
C = pl.dynamic("C")
LIVE = pl.dynamic("LIVE")


# A module-level kernel whose only caller is a program built inside a function.
# Real pass: `scale_rows` gains leading `LIVE`; the call in `build_scaler` gets `live_cols`.
@pl.function(type=pl.FunctionType.InCore)
def scale_rows(
    LIVE: pl.Scalar[pl.INDEX],
    x: pl.Tensor[[R, C], pl.FP32, pl.TensorView(valid_shape=[R, LIVE], layout=pl.TensorLayout.ND)],
    out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
) -> pl.Tensor[[R, C], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
    return pl.store(t, [0, 0], out)


def build_scaler():
    @pl.program
    class Scaler:
        @pl.function(type=pl.FunctionType.Orchestration)
        def run(
            self,
            x: pl.Tensor[[R, C], pl.FP32],
            live_cols: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[R, C], pl.FP32]],
        ) -> pl.Tensor[[R, C], pl.FP32]:
            part = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, live_cols])
            return scale_rows(live_cols, part, out)

    return Scaler


# A builder that declares its symbol locally.
# Real pass: `tail` gains leading `TAIL_N`; the call gets `n`.
def build_tail():
    TAIL_N = pl.dynamic("TAIL_N")

    @pl.program
    class Tail:
        @pl.function(type=pl.FunctionType.AIV)
        def tail(
            self,
            TAIL_N: pl.Scalar[pl.INDEX],
            a: pl.Tensor[[R, C], pl.FP16, pl.TensorView(valid_shape=[R, TAIL_N], layout=pl.TensorLayout.ND)],
            o: pl.Out[pl.Tensor[[R, C], pl.FP16]],
        ) -> pl.Tensor[[R, C], pl.FP16]:
            t = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], o)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            a: pl.Tensor[[R, C], pl.FP16],
            n: pl.Scalar[pl.INDEX],
            o: pl.Out[pl.Tensor[[R, C], pl.FP16]],
        ) -> pl.Tensor[[R, C], pl.FP16]:
            view = pl.slice(a, [16, 64], [0, 0], valid_shape=[16, n])
            return self.tail(n, view, o)

    return Tail


# A test method: a compound-only slot.
# Real pass: ValueError "parameter 'a' of kernel 'halves' uses symbol 'HALF' only inside the
# compound valid_shape expression 'HALF * 2' ..." (VS002).
class TestHalves:
    def test_halves_rejected(self):
        HALF = pl.dynamic("HALF")

        @pl.program
        class Halves:
            @pl.function(type=pl.FunctionType.InCore)
            def halves(
                self,
                a: pl.Tensor[[R, C], pl.FP32, pl.TensorView(valid_shape=[R, HALF * 2], layout=pl.TensorLayout.ND)],
                o: pl.Out[pl.Tensor[[R, C], pl.FP32]],
            ) -> pl.Tensor[[R, C], pl.FP32]:
                t = pl.load(a, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
                return pl.store(t, [0, 0], o)

        assert Halves is not None
