# Executing this file would write a marker file; analysing it must not.
import os

import pypto.language as pl

with open(os.environ.get("PASSLINT_MARKER", "passlint-marker.txt"), "w") as marker:
    marker.write("executed\n")
raise SystemExit("this module must never be executed")

VALID = pl.dynamic("VALID")


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID])]):
    return x
