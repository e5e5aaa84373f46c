# Postponed annotations: Python never evaluates them, and pypto's parser reads the names of a
# valid_shape from the frame that builds the program as it was then (its globals and locals,
# copied when the decorator runs). A name bound only below the program, or nowhere, is no
# NameError: the parser makes a symbol of that name and the pass adds it as a parameter.
from __future__ import annotations

import pypto.language as pl


@pl.program
class RowsBelow:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[16, COLS_BELOW], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        part = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, n])
        return self.kernel(part, out)


COLS_BELOW = pl.dynamic("COLS_BELOW_SYMBOL")


def build_defined_nowhere():
    @pl.program
    class Nowhere:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[NEVER_DEFINED], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], m: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[m])
            return self.kernel(part, out)

    return Nowhere


def build_local_after():
    @pl.program
    class LocalAfter:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[LATER], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[k])
            return self.kernel(part, out)

    LATER = pl.dynamic("LATER_SYMBOL")  # bound after the program was built
    return LocalAfter, LATER


def build_defined_above():
    ABOVE = pl.dynamic("ABOVE_SYMBOL")  # in the frame when the program is built

    @pl.program
    class Above:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[ABOVE], layout=pl.TensorLayout.ND)],
            out: pl.Out[pl.Tensor[[64], pl.FP32]],
        ) -> pl.Tensor[[64], pl.FP32]:
            t = pl.load(x, [0], [64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[64], pl.FP32], k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
        ) -> pl.Tensor[[64], pl.FP32]:
            part = pl.slice(x, [64], [0], valid_shape=[k])
            return self.kernel(part, out)

    return Above


def build_enclosing_symbol():
    OUTER = pl.dynamic("OUTER_SYMBOL")

    def not_captured():
        # The code of this function never reads OUTER (its annotations are strings): OUTER
        # is no free variable of it, so the frame the parser copies does not hold it.
        @pl.program
        class NotCaptured:
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
                self, x: pl.Tensor[[64], pl.FP32], k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
            ) -> pl.Tensor[[64], pl.FP32]:
                part = pl.slice(x, [64], [0], valid_shape=[k])
                return self.kernel(part, out)

        return NotCaptured

    def captured():
        symbols = [OUTER]  # read by the code: a free variable, in the frame the parser copies

        @pl.program
        class Captured:
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
                self, x: pl.Tensor[[64], pl.FP32], k: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64], pl.FP32]]
            ) -> pl.Tensor[[64], pl.FP32]:
                part = pl.slice(x, [64], [0], valid_shape=[k])
                return self.kernel(part, out)

        return Captured, symbols

    return not_captured(), captured()
