"""A kernel whose TensorView is written with positional arguments (VS010): pypto's parser
rejects the program before the pass runs."""

from __future__ import annotations

import pypto.language as pl

VALID = pl.dynamic("VALID")


@pl.program
class PositionalView:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView([16, VALID], pl.TensorLayout.ND)]
    ):
        return x
