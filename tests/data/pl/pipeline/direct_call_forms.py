# InCore kernels called from an orchestration in the forms pypto's users write, each fed a
# slice (or a parameter) of a tensor of static shape. The recorded truth is the pass run alone
# (each kernel gains `VALID`) and, beside it, the pass after pl.compile's pipeline through
# OptimizeOrchTensors: its SliceInputStridesOptimizer reads assignments, which
# FlattenCallExpr and NormalizeStmtStructure make of returned and nested calls too, so a
# call standing alone (build_statement) or fed a parameter (build_parameter_fed) keeps its
# view and the others lose it.
import pypto.language as pl

VALID = pl.dynamic("VALID")


def build_return():
    @pl.program
    class P0:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            return self.head(part, out)
    return P0


def build_statement():
    @pl.program
    class P1:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            self.head(part, out)
            return out
    return P1


def build_inline_slice_return():
    @pl.program
    class P2:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            return self.head(pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n]), out)
    return P2


def build_in_loop():
    @pl.program
    class P3:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            for i in pl.range(4):
                part = pl.slice(x, [16, 128], [i * 16, 0], valid_shape=[16, n])
                out = self.head(part, out)
            return out
    return P3


def build_parameter_fed():
    @pl.program
    class P4:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            return self.head(x, out)
    return P4


def build_nested_call():
    @pl.program
    class P5:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            r = pl.assemble(out, self.head(part, out), [0, 0])
            return r
    return P5


def build_annotated():
    @pl.program
    class P6:
        @pl.function(type=pl.FunctionType.InCore)
        def head(self, a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
            part = x[0:16, :]
            r: pl.Tensor[[16, 128], pl.FP32] = self.head(part, out)
            return r
    return P6
