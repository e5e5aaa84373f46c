# Calls kernels.scale_rows twice; the VS001 fix on the kernel must prepend `cols` here and
# `width` in the second call (the physical extent 256 is not used: both actuals have a
# valid_shape).
import pypto.language as pl

from kernels import ROWS, scale_rows


@pl.program
class Scaler:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(
        self,
        x: pl.Tensor[[ROWS, 256], pl.FP16],
        cols: pl.Scalar[pl.INDEX],
        width: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[ROWS, 256], pl.FP16]],
    ) -> pl.Tensor[[ROWS, 256], pl.FP16]:
        head = pl.slice(x, [16, 256], [0, 0], valid_shape=[16, cols])
        out = scale_rows(cols, head, out)
        tail = x[16:32, 0:256]
        tail = pl.set_validshape(tail, 16, width)
        return scale_rows(width, tail, out)
