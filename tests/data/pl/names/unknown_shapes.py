# Physical shape names under postponed annotations: pypto's parser reads a physical
# dimension's name from the frame that builds the program, as it is when the decorator runs,
# then from the earlier parameters; a name found in neither is "Unknown shape variable" (no
# symbol is made of it, unlike a valid_shape entry). Each builder below is one case.
from __future__ import annotations

import pypto.language as pl

ROWS = pl.dynamic("ROWS")


def build_rows_defined_nowhere():
    @pl.program
    class Nowhere:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self, x: pl.Tensor[[TILE_ROWS, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

    return Nowhere


def build_rows_bound_after():
    @pl.program
    class After:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self, x: pl.Tensor[[LOCAL_ROWS, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

    LOCAL_ROWS = pl.dynamic("LOCAL_ROWS")
    return After, LOCAL_ROWS


def build_rows_in_the_class_body():
    @pl.program
    class InBody:
        BODY_ROWS = 16

        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self, x: pl.Tensor[[BODY_ROWS, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

    return InBody


def build_rows_of_a_later_parameter():
    @pl.program
    class Later:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[N, 64], pl.FP32],
            N: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

    return Later


def build_rows_defined():
    # The global ROWS, a local bound before the program and an earlier parameter all count.
    COLS = pl.dynamic("COLS")

    @pl.program
    class Defined:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            N: pl.Scalar[pl.INDEX],
            x: pl.Tensor[[ROWS, COLS], pl.FP32],
            y: pl.Tensor[[N, 64], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        ) -> pl.Tensor[[16, 64], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

    return Defined
