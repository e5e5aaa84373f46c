# The actual argument is a local with its own tensor annotation. With a TensorView, the
# annotation types the variable (pypto's parse_annotated_assignment: a tensor_view in the
# annotation overrides the value's type), so the call passes the annotation's extent, not
# the slice's; an annotation without a view leaves the slice's own valid_shape.
import pypto.language as pl

V = pl.dynamic("V")
ND = pl.TensorLayout.ND


def build_annotated_view():
    @pl.program
    class AnnotatedView:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            a: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[V, 64], layout=ND)],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            t = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            y: pl.Tensor[[128, 64], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            m: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            x: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[n, 64], layout=ND)] = pl.slice(
                y, [64, 64], [0, 0]
            )
            out = self.kernel(x, out)
            z: pl.Tensor[[64, 64], pl.FP32] = pl.slice(y, [64, 64], [64, 0], valid_shape=[m, 64])
            return self.kernel(z, out)

    return AnnotatedView


def build_reassigned():
    # Re-assigned after its annotated definition: the variable keeps the type of its first
    # definition (a re-assignment of another type is rejected: "Cannot reassign ... with a
    # different type"), so the call passes n.
    @pl.program
    class Reassigned:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            a: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[V, 64], layout=ND)],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            t = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            y: pl.Tensor[[128, 64], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        ) -> pl.Tensor[[64, 64], pl.FP32]:
            x: pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[n, 64], layout=ND)] = pl.slice(
                y, [64, 64], [0, 0]
            )
            x = pl.slice(y, [64, 64], [64, 0], valid_shape=[n, 64])
            return self.kernel(x, out)

    return Reassigned
