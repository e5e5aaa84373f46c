"""Workload generators for the benchmarks: transformer-like MLIR modules and pl modules.

``mlir_module(layers, generic=False)`` writes a JAX-style StableHLO export of a decoder stack
(~9.3 KB and ~90 statements per layer in pretty form), whose @main returns a computed value, an
input and a constant so the TL rules have something to say. ``generic=True`` prints every op
in MLIR's generic form. ``pl_module(lines)`` writes a pl program of about that many lines;
``softmax_module(copies)`` repeats the shipped softmax kernel and its caller;
``pl_workspace(folder, files)`` writes a test suite shaped like pypto's (kernels nested in
test functions and test classes, module-level kernels imported and called by other files).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_T = "tensor<128x256xf32>"
_H = "tensor<128x4x64xf32>"
_A = "tensor<4x128x128xf32>"
_S = "tensor<f32>"


def _layer_ops(
    x: str, w: list[str], n: int
) -> tuple[list[tuple[str, str, list[str], str, str]], str]:
    """(result, op, operands, attributes, function type) for one decoder layer."""
    ops: list[tuple[str, str, list[str], str, str]] = []
    counter = [n]

    def emit(op: str, operands: list[str], attrs: str, ftype: str, name: str | None = None) -> str:
        result = name or f"%{counter[0]}"
        if name is None:
            counter[0] += 1
        ops.append((result, op, operands, attrs, ftype))
        return result

    cst = emit("stablehlo.constant", [], "dense<0.000000e+00>", f"() -> {_S}", f"%cst_{n}")
    r = emit(
        "stablehlo.reduce",
        [x, cst],
        "applies stablehlo.add across dimensions = [1]",
        f"({_T}, {_S}) -> tensor<128xf32>",
    )
    b = emit(
        "stablehlo.broadcast_in_dim", [r], "dims = [0]", "(tensor<128xf32>) -> tensor<128x1xf32>"
    )
    c2 = emit("stablehlo.constant", [], "dense<2.560000e+02>", f"() -> {_S}", f"%cst_{n}_0")
    b2 = emit("stablehlo.broadcast_in_dim", [c2], "dims = []", f"({_S}) -> tensor<128x1xf32>")
    d = emit("stablehlo.divide", [b, b2], "", "tensor<128x1xf32>")
    d4 = emit("stablehlo.broadcast_in_dim", [d], "dims = [0, 1]", f"(tensor<128x1xf32>) -> {_T}")
    h = emit("stablehlo.subtract", [x, d4], "", _T)
    for k in range(3):
        q = emit(
            "stablehlo.dot_general",
            [h, w[k]],
            "contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT]",
            f"({_T}, tensor<256x256xf32>) -> {_T}",
        )
        h = emit("stablehlo.reshape", [q], "", f"({_T}) -> {_H}")
    att = emit(
        "stablehlo.dot_general",
        [h, h],
        "batching_dims = [1] x [1], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT]",
        f"({_H}, {_H}) -> {_A}",
    )
    for _ in range(20):
        cs = emit(
            "stablehlo.constant", [], "dense<8.000000e+00>", f"() -> {_S}", f"%cst_{n}_{counter[0]}"
        )
        bs = emit("stablehlo.broadcast_in_dim", [cs], "dims = []", f"({_S}) -> {_A}")
        att = emit("stablehlo.divide", [att, bs], "", _A)
        att = emit("stablehlo.exponential", [att], "", _A)
    t = emit("stablehlo.transpose", [att], "dims = [1, 0, 2]", f"({_A}) -> {_A}")
    o = emit("stablehlo.reshape", [t], "", f"({_A}) -> tensor<128x512xf32>")
    o = emit("stablehlo.slice", [o], "[0:128, 0:256]", f"(tensor<128x512xf32>) -> {_T}")
    out = emit("stablehlo.add", [x, o], "", _T)
    return ops, out


def _pretty(result: str, op: str, operands: list[str], attrs: str, ftype: str) -> str:
    args = ", ".join(operands)
    if op == "stablehlo.constant":
        return f"{result} = stablehlo.constant {attrs} : {ftype.split('-> ')[1]}"
    if op == "stablehlo.reduce":
        return f"{result} = stablehlo.reduce({operands[0]} init: {operands[1]}) {attrs} : {ftype}"
    if op == "stablehlo.slice":
        return f"{result} = stablehlo.slice {args} {attrs} : {ftype}"
    sep = ", " if attrs else ""
    return f"{result} = {op} {args}{sep}{attrs} : {ftype}"


def _generic(result: str, op: str, operands: list[str], attrs: str, ftype: str) -> str:
    args = ", ".join(operands)
    if op == "stablehlo.constant":
        value = f"{attrs} : {ftype.split('-> ')[1]}"
        return f'{result} = "stablehlo.constant"() <{{value = {value}}}> : {ftype}'
    if "->" not in ftype:
        ins = ", ".join([ftype] * len(operands))
        ftype = f"({ins}) -> {ftype}"
    props = f' <{{info = "{attrs}"}}>' if attrs else ""
    return f'{result} = "{op}"({args}){props} : {ftype}'


def mlir_module(layers: int, generic: bool = False) -> str:
    """A module with ``layers`` decoder layers in @main."""
    weights = [f"%arg{i}" for i in range(1, 3 * layers + 1)]
    params = ", ".join(["%arg0: " + _T] + [f"{w}: tensor<256x256xf32>" for w in weights])
    lines = ["module @jit_model attributes {mhlo.num_partitions = 1 : i32} {"]
    lines.append(
        f"  func.func public @main({params}) -> ({_T}, tensor<256x256xf32>, tensor<4xf32>) {{"
    )
    x, n = "%arg0", 0
    render = _generic if generic else _pretty
    for layer in range(layers):
        ops, x = _layer_ops(x, weights[3 * layer : 3 * layer + 3], n)
        n += len(ops)
        lines.extend("    " + render(*op) for op in ops)
    lines.append(
        "    %cst_out = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>"
        if not generic
        else '    %cst_out = "stablehlo.constant"() <{value = dense<[1.0, 2.0, 3.0, 4.0]> '
        ": tensor<4xf32>}> : () -> tensor<4xf32>"
    )
    types = f"{_T}, tensor<256x256xf32>, tensor<4xf32>"
    if generic:
        lines.append(f'    "func.return"({x}, %arg1, %cst_out) : ({types}) -> ()')
    else:
        lines.append(f"    return {x}, %arg1, %cst_out : {types}")
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def layers_for(size_bytes: int, generic: bool = False) -> int:
    """How many layers make a module of about ``size_bytes``."""
    per_layer = len(mlir_module(2, generic)) - len(mlir_module(1, generic))
    return max(1, round(size_bytes / per_layer))


PL_KERNEL = [  # a method of the program class (``{i}``: its number); one VS001
    "    @pl.function(type=pl.FunctionType.InCore)",
    "    def k{i}(",
    "        self,",
    "        x: pl.Tensor[[Q, 128], pl.FP32,",
    "                     pl.TensorView(valid_shape=[Q, VALID], layout=pl.TensorLayout.ND)],",
    "        out: pl.Out[pl.Tensor[[Q, 128], pl.FP32]],",
    "    ) -> pl.Tensor[[Q, 128], pl.FP32]:",
    "        t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)",
    "        return pl.store(t, [0, 0], out)",
    "",
]


def pl_module(lines: int) -> str:
    """A pl program with kernels (one VS001 each) and an orchestration calling them all."""
    head = [
        "import pypto.language as pl",
        "",
        'Q = pl.dynamic("Q")',
        'VALID = pl.dynamic("VALID")',
        "",
        "",
        "@pl.program",
        "class Big:",
    ]
    count = max(1, (lines - len(head) - 12) // (len(PL_KERNEL) + 2))
    body = [line.format(i=i) for i in range(count) for line in PL_KERNEL]
    main = [
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    def main(self, src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX],",
        "             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]):",
        "        a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])",
    ]
    main += [f"        out = self.k{i}(a, out)" for i in range(count)]
    main += ["        return out", ""]
    return "\n".join(head + body + main)


def softmax_module(copies: int) -> str:
    """``examples/softmax_prepare.py`` with its kernel and caller repeated ``copies`` times
    (one VS001 each)."""
    text = (Path(__file__).resolve().parent.parent / "examples/softmax_prepare.py").read_text()
    lines = [line for line in text.split("\n") if not line.startswith("#")]
    first = next(i for i, line in enumerate(lines) if line.startswith("@pl.function"))
    body = "\n".join(lines[first:]).strip("\n")
    return "\n".join(lines[:first]).strip("\n") + "\n\n\n" + "\n\n\n".join([body] * copies) + "\n"


_WS_HEAD = """\
\"\"\"Generated test module {n}: programs built inside tests, as pypto's own tests do.\"\"\"

import pypto.language as pl
import pytest
{imports}
M = pl.dynamic("M")
N = pl.dynamic("N")
VALID = pl.dynamic("VALID")

"""

_WS_TEST = """\

def test_case_{n}_{t}():
    \"\"\"Kernel {t} of module {n}: load, scale and store one tile.\"\"\"

    @pl.program
    class Program{t}:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            x: pl.Tensor[[M, N], pl.FP32{view}],
            out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        ) -> pl.Tensor[[M, N], pl.FP32]:
            t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
            t = pl.mul(t, 2.0)
            return pl.store(t, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[M, N], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        ) -> pl.Tensor[[M, N], pl.FP32]:
            {slice}
            out = self.kernel(a, out)
            return out

    assert Program{t} is not None
"""

_WS_BUILDER = """\

def test_builder_{n}_{t}():
    \"\"\"Types and views built directly, no kernel.\"\"\"
    shape = [16, 128]
    t = pl.Tensor[[16, 128], pl.FP32]
    assert t is not None
    for dim in shape:
        assert dim > 0, f"bad dimension {{dim}} in {{shape}}"
    span = pl.TensorLayout.ND
    assert span is not None
    values = [i * 2 for i in range(8)]
    assert sum(values) == 56
"""

_WS_CLASS = """\

class TestSuite{n}:
    \"\"\"Programs built in test methods.\"\"\"

    def test_method_{n}(self):
        @pl.program
        class Inner:
            @pl.function(type=pl.FunctionType.AIV)
            def vec(
                self,
                x: pl.Tensor[[M, 64], pl.FP16],
                out: pl.Out[pl.Tensor[[M, 64], pl.FP16]],
            ) -> pl.Tensor[[M, 64], pl.FP16]:
                t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
                return pl.store(t, [0, 0], out)

            @pl.function(type=pl.FunctionType.Orchestration)
            def main(
                self, x: pl.Tensor[[M, 64], pl.FP16], out: pl.Out[pl.Tensor[[M, 64], pl.FP16]]
            ):
                {scope}
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="vec_scope"):
                    out = self.vec(a, out)
                return out

        assert Inner is not None
"""

_WS_LIBRARY = """\

@pl.function(type=pl.FunctionType.InCore)
def {name}(
    x: pl.Tensor[
        [M, N], pl.FP32, pl.TensorView(valid_shape=[M, {valid}], layout=pl.TensorLayout.ND)
    ],
    out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
) -> pl.Tensor[[M, N], pl.FP32]:
    t = pl.load(x, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
    return pl.store(t, [0, 0], out)
"""

_WS_CALLER = """\

def test_calls_{name}_{n}():
    @pl.program
    class Caller:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            x: pl.Tensor[[M, N], pl.FP32],
            n: pl.Scalar[pl.INDEX],
            out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        ) -> pl.Tensor[[M, N], pl.FP32]:
            a = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
            return {name}(a, out)

    assert Caller is not None
"""


def pl_workspace(folder: Path, files: int = 500, size: int = 27_000) -> list[Path]:
    """Write ``files`` pl test modules of about ``size`` bytes each below ``folder`` (in
    subfolders of 50), shaped like pypto's test suite: programs inside test functions and
    test methods (a third of the modules build types without kernels; a quarter has pl.at
    scopes, a quarter slices with a valid_shape, as in pypto at e2d0f78); one test in every
    40th module has a TensorView kernel (unbound ``VALID`` in every 80th: VS001); every 100th
    module holds a module-level kernel (unbound in every 200th) that the next two modules
    import and call; every 50th module's outlined scope reads a sliced valid_shape (VS007)."""
    written: list[Path] = []
    libraries: list[tuple[int, str, str]] = []  # (first module, module, kernel)
    for n in range(files):
        sub = folder / f"suite_{n // 50:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        parts: list[str] = []
        imports = ""
        library = libraries[-1] if libraries and n - libraries[-1][0] <= 2 else None
        if library is not None:
            imports = f"from {library[1]} import {library[2]}\n"
            parts.append(_WS_CALLER.format(name=library[2], n=n))
        if n % 100 == 0:
            name = f"lib_kernel_{n}"
            parts.append(_WS_LIBRARY.format(name=name, valid="VALID" if n % 200 == 0 else "N"))
            libraries.append((n, f"test_module_{n:03d}", name))
        t = 0
        kernels = n % 3 != 2  # a third of pypto's pl modules define no kernel
        while sum(map(len, parts)) < size:
            if not kernels:
                parts.append(_WS_BUILDER.format(n=n, t=t))
            elif t % 6 == 5 and n % 4 == 0:  # pl.at scopes in a quarter of the modules
                scope = (
                    "a = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, VALID])"
                    if n % 50 == 0 and t == 5
                    else "a = x"
                )
                parts.append(_WS_CLASS.format(n=f"{n}_{t}", scope=scope))
            else:
                view = ""
                if t == 0 and n % 40 == 0:
                    valid = "VALID" if n % 80 == 0 else "N"
                    view = f", pl.TensorView(valid_shape=[M, {valid}], layout=pl.TensorLayout.ND)"
                slice_ = (  # a valid_shape in a quarter of the modules
                    "a = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])"
                    if n % 4 == 1
                    else "a = pl.slice(x, [16, 128], [0, 0])"
                )
                parts.append(_WS_TEST.format(n=n, t=t, view=view, slice=slice_))
            t += 1
        path = sub / f"test_module_{n:03d}.py"
        path.write_text(_WS_HEAD.format(n=n, imports=imports) + "".join(parts))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("kind", choices=["mlir", "mlir-generic", "pl"])
    parser.add_argument("--size", type=float, default=4.96, help="MB (mlir) or lines/1000 (pl)")
    args = parser.parse_args(argv)
    if args.kind == "pl":
        sys.stdout.write(pl_module(int(args.size * 1000)))
    else:
        generic = args.kind == "mlir-generic"
        sys.stdout.write(mlir_module(layers_for(int(args.size * 1e6), generic), generic))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
