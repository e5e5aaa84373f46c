# No finding: @pl.jit code is specialised at call time, and Orchestration / Group / Opaque
# functions are not device kernels for this pass.
import pypto.language as pl

VALID = pl.dynamic("VALID")


@pl.jit
def jitted(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID])]):
    return x


@pl.jit(type=pl.FunctionType.InCore)
@pl.function(type=pl.FunctionType.InCore)
def jitted_kernel(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID])]):
    return x


@pl.function
def opaque(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID])]):
    return x


@pl.function(type=pl.FunctionType.Orchestration)
def orchestration(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID])]):
    return jitted(x)
