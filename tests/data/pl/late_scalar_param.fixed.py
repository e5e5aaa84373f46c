# VS005: the scalar parameter LATE_VALID comes after the parameter whose valid_shape reads it.
# pypto's parser rejects this ("Parameter 'LATE_VALID' shadows the dynamic symbol
# 'LATE_VALID', which an earlier parameter's type annotation already uses"); the fix moves
# the parameter to the front, after which the symbol is bound.
import pypto.language as pl

LATE_VALID = pl.dynamic("LATE_VALID")


@pl.program
class Late:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(
        self,
        LATE_VALID: pl.Scalar[pl.INDEX],
        x: pl.Tensor[[16, 128], pl.FP32,
                     pl.TensorView(valid_shape=[16, LATE_VALID], layout=pl.TensorLayout.ND)],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        return x
