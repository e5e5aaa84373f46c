# A standalone kernel in its own module; program.py imports and calls it by bare name.
import pypto.language as pl

ROWS = pl.dynamic("ROWS")
VALID_COLS = pl.dynamic("VALID_COLS")


@pl.function(type=pl.FunctionType.InCore)
def scale_rows(
    VALID_COLS: pl.Scalar[pl.INDEX],
    x: pl.Tensor[[ROWS, 256], pl.FP16,
                 pl.TensorView(valid_shape=[ROWS, VALID_COLS], layout=pl.TensorLayout.ND)],
    out: pl.Out[pl.Tensor[[ROWS, 256], pl.FP16]],
) -> pl.Tensor[[ROWS, 256], pl.FP16]:
    t = pl.load(x, [0, 0], [16, 256], target_memory=pl.MemorySpace.Vec)
    return pl.store(t, [0, 0], out)
