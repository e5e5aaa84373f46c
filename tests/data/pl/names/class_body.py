# Annotations evaluated when the method is defined (no postponed annotations): Python finds a
# name of the program's class body, but pypto's parser reads the names of the frame that
# builds the program, never a class body's, so it makes a symbol of that name (not the
# string the class body passed to pl.dynamic) and the pass adds it as a parameter.
import pypto.language as pl


def build_class_body_symbol():
    @pl.program
    class ClassBodySymbol:
        CB_COLS = pl.dynamic("CB_COLS_SYMBOL")

        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[16, CB_COLS], layout=pl.TensorLayout.ND)],
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

    return ClassBodySymbol
