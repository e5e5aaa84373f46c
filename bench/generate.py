"""Workload generators for the benchmarks: transformer-like MLIR modules and pl modules.

``mlir_module(layers, generic=False)`` writes a JAX-style StableHLO export of a decoder stack
(~9 KB and ~100 statements per layer in pretty form), whose @main returns a computed value, an
input and a constant so the TL rules have something to say. ``generic=True`` writes the same
module in MLIR's generic form as `mlir-opt --mlir-print-op-generic` prints it (the module and
@main included). Both forms are valid MLIR by jaxlib's parser (``tests/bench``).
``pl_module(lines)`` writes a pl program of about that many lines;
``softmax_module(copies)`` repeats the shipped softmax kernel and its caller;
``pl_workspace(folder, files)`` writes a test suite shaped like pypto's (kernels nested in
test functions and test classes, module-level kernels imported and called by other files).
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

_T = "tensor<128x256xf32>"
_H = "tensor<128x4x64xf32>"
_A = "tensor<4x128x128xf32>"
_S = "tensor<f32>"
_W = "tensor<256x256xf32>"
_PRECISION = "precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]"


@dataclass(frozen=True)
class _Op:
    """One op of a layer, with what each form writes besides operands and types."""

    result: str
    name: str  # without the dialect
    operands: tuple[str, ...]
    operand_types: tuple[str, ...]
    result_type: str
    pretty: str = ""  # attributes as the pretty form writes them, after the operands
    generic: str = ""  # properties as the generic form writes them (inside `<{...}>`)


def _layer_ops(x: str, w: list[str], n: int) -> tuple[list[_Op], str]:
    """The ops of one decoder layer on input ``x`` (a ``_T``); SSA numbers from ``n``."""
    ops: list[_Op] = []
    counter = [n]

    def emit(
        name: str,
        operands: tuple[str, ...],
        operand_types: tuple[str, ...],
        result_type: str,
        pretty: str = "",
        generic: str = "",
        result: str | None = None,
    ) -> str:
        if result is None:
            result = f"%{counter[0]}"
            counter[0] += 1
        ops.append(_Op(result, name, operands, operand_types, result_type, pretty, generic))
        return result

    def constant(value: str, result: str) -> str:
        return emit("constant", (), (), _S, value, f"value = {value} : {_S}", result)

    def broadcast(operand: str, source: str, target: str, dims: str) -> str:
        array = f"array<i64: {dims}>" if dims else "array<i64>"
        pretty, generic = f"dims = [{dims}]", f"broadcast_dimensions = {array}"
        return emit("broadcast_in_dim", (operand,), (source,), target, pretty, generic)

    def dot(lhs: str, rhs: str, types: tuple[str, str], result_type: str, batching: bool) -> str:
        pretty = "contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT]"
        numbers = "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]"
        if batching:
            pretty = (
                "batching_dims = [1] x [1], contracting_dims = [2] x [2], "
                "precision = [DEFAULT, DEFAULT]"
            )
            numbers = (
                "lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], "
                "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]"
            )
        generic = f"dot_dimension_numbers = #stablehlo.dot<{numbers}>, {_PRECISION}"
        return emit("dot_general", (lhs, rhs), types, result_type, pretty, generic)

    zero = constant("dense<0.000000e+00>", f"%cst_{n}")
    r = emit("reduce", (x, zero), (_T, _S), "tensor<128xf32>", "dimensions = [1]", "1")
    b = broadcast(r, "tensor<128xf32>", "tensor<128x1xf32>", "0")
    width = constant("dense<2.560000e+02>", f"%cst_{n}_0")
    b2 = broadcast(width, _S, "tensor<128x1xf32>", "")
    d = emit("divide", (b, b2), ("tensor<128x1xf32>",) * 2, "tensor<128x1xf32>")
    d4 = broadcast(d, "tensor<128x1xf32>", _T, "0, 1")
    h = emit("subtract", (x, d4), (_T, _T), _T)
    heads = []
    for k in range(3):
        h = dot(h, w[k], (_T, _W), _T, batching=False)
        heads.append(emit("reshape", (h,), (_T,), _H))
    att = dot(heads[0], heads[1], (_H, _H), _A, batching=True)
    for _ in range(20):
        scale = constant("dense<8.000000e+00>", f"%cst_{n}_{counter[0]}")
        bs = broadcast(scale, _S, _A, "")
        att = emit("divide", (att, bs), (_A, _A), _A)
        att = emit("exponential", (att,), (_A,), _A)
    t = emit(
        "transpose",
        (att,),
        (_A,),
        "tensor<128x4x128xf32>",
        "dims = [1, 0, 2]",
        "permutation = array<i64: 1, 0, 2>",
    )
    o = emit("reshape", (t,), ("tensor<128x4x128xf32>",), "tensor<128x512xf32>")
    o = emit(
        "slice",
        (o,),
        ("tensor<128x512xf32>",),
        _T,
        "[0:128, 0:256]",
        "limit_indices = array<i64: 128, 256>, start_indices = array<i64: 0, 0>, "
        "strides = array<i64: 1, 1>",
    )
    out = emit("add", (x, o), (_T, _T), _T)
    return ops, out


def _pretty(op: _Op, indent: str) -> list[str]:
    args = ", ".join(op.operands)
    name = f"stablehlo.{op.name}"
    signature = f"({', '.join(op.operand_types)}) -> {op.result_type}"
    if op.name == "constant":
        return [f"{indent}{op.result} = {name} {op.pretty} : {op.result_type}"]
    if op.name == "reduce":
        return [
            f"{indent}{op.result} = {name}({op.operands[0]} init: {op.operands[1]}) "
            f"applies stablehlo.add across {op.pretty} : {signature}"
        ]
    if op.name == "slice":
        return [f"{indent}{op.result} = {name} {args} {op.pretty} : {signature}"]
    if len(set(op.operand_types)) == 1 and op.operand_types[0] == op.result_type:
        signature = op.result_type  # elementwise: one type
    attrs = f", {op.pretty}" if op.pretty else ""
    return [f"{indent}{op.result} = {name} {args}{attrs} : {signature}"]


def _generic(op: _Op, indent: str) -> list[str]:
    args = ", ".join(op.operands)
    name = f'"stablehlo.{op.name}"'
    signature = f"({', '.join(op.operand_types)}) -> {op.result_type}"
    if op.name == "reduce":
        a, b = f"%lhs{op.result[1:]}", f"%rhs{op.result[1:]}"
        total = f"%sum{op.result[1:]}"
        return [
            f"{indent}{op.result} = {name}({args}) <{{dimensions = array<i64: {op.generic}>}}> ({{",
            f"{indent}^bb0({a}: {_S}, {b}: {_S}):",
            f'{indent}  {total} = "stablehlo.add"({a}, {b}) : ({_S}, {_S}) -> {_S}',
            f'{indent}  "stablehlo.return"({total}) : ({_S}) -> ()',
            f"{indent}}}) : {signature}",
        ]
    props = f" <{{{op.generic}}}>" if op.generic else ""
    return [f"{indent}{op.result} = {name}({args}){props} : {signature}"]


def mlir_module(layers: int, generic: bool = False) -> str:
    """A module with ``layers`` decoder layers in @main."""
    weights = [f"%arg{i}" for i in range(1, 3 * layers + 1)]
    inputs = [_T] + [_W] * len(weights)
    arguments = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(inputs))
    outputs = [_T, _W, "tensor<4xf32>"]
    render = _generic if generic else _pretty
    body: list[str] = []
    x, n = "%arg0", 0
    for layer in range(layers):
        ops, x = _layer_ops(x, weights[3 * layer : 3 * layer + 3], n)
        n += len(ops)
        for op in ops:
            body.extend(render(op, "    "))
    constant = "dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>"
    returned = f"{x}, %arg1, %cst_out"
    if not generic:
        return "\n".join(
            [
                "module @jit_model attributes {mhlo.num_partitions = 1 : i32} {",
                f"  func.func public @main({arguments}) -> ({', '.join(outputs)}) {{",
                *body,
                f"    %cst_out = stablehlo.constant {constant}",
                f"    return {returned} : {', '.join(outputs)}",
                "  }",
                "}",
                "",
            ]
        )
    function_type = f"({', '.join(inputs)}) -> ({', '.join(outputs)})"
    return "\n".join(
        [
            '"builtin.module"() <{sym_name = "jit_model"}> ({',
            f'  "func.func"() <{{function_type = {function_type}, sym_name = "main", '
            'sym_visibility = "public"}> ({',
            f"  ^bb0({arguments}):",
            *body,
            f'    %cst_out = "stablehlo.constant"() <{{value = {constant}}}> : () -> tensor<4xf32>',
            f'    "func.return"({returned}) : ({", ".join(outputs)}) -> ()',
            "  }) : () -> ()",
            "}) {mhlo.num_partitions = 1 : i32} : () -> ()",
            "",
        ]
    )


def constant_module(size_bytes: int, hex_blob: bool) -> str:
    """@main adding a constant of about ``size_bytes`` to its input: one ``dense<"0x...">``
    blob, or one decimal ``dense<[...]>`` list (issue 14's memory rows)."""
    rng = random.Random(14)
    if hex_blob:
        count = size_bytes // 8
        value = '"0x' + "".join(f"{rng.getrandbits(32):08X}" for _ in range(count)) + '"'
    else:
        count = size_bytes // 15  # `-1.234567e-01, `
        value = "[" + ", ".join(f"{rng.uniform(-1, 1):.6e}" for _ in range(count)) + "]"
    t = f"tensor<{count}xf32>"
    return (
        f"func.func @main(%arg0: {t}) -> {t} {{\n"
        f"  %cst = stablehlo.constant dense<{value}> : {t}\n"
        f"  %0 = stablehlo.add %arg0, %cst : {t}\n"
        f"  return %0 : {t}\n}}\n"
    )


_LIT_HEADER = "// RUN: stablehlo-opt %s -verify-diagnostics -split-input-file | FileCheck %s\n"


def _lit_chunk(rng: random.Random, number: int) -> str:
    """One `// -----` chunk of an upstream-style lit test: CHECK lines and a function in
    pretty or generic form, some ops split over lines, a region, or an expected error."""
    dims = "x".join(str(rng.choice((1, 2, 3, 4, 8, 16))) for _ in range(rng.randint(1, 3)))
    element = rng.choice(("f32", "f16", "i32", "bf16"))
    t = f"tensor<{dims}x{element}>"
    name = f"@case_{number}"
    kind = rng.randrange(5)
    lines = [f"// CHECK-LABEL: func {name}", f"func.func {name}(%arg0: {t}, %arg1: {t}) -> {t} {{"]
    if kind == 0:  # a chain of elementwise ops
        value = "%arg0"
        for i in range(rng.randint(2, 12)):
            op = rng.choice(("add", "subtract", "multiply", "maximum", "minimum"))
            lines.append(f"  // CHECK: stablehlo.{op}")
            lines.append(f"  %{i} = stablehlo.{op} {value}, %arg1 : {t}")
            value = f"%{i}"
    elif kind == 1:  # the generic form, operands split over lines
        value = "%arg0"
        for i in range(rng.randint(2, 8)):
            op = rng.choice(("add", "multiply", "maximum"))
            lines.append(f'  %{i} = "stablehlo.{op}"({value},')
            lines.append(f"      %arg1) : ({t}, {t}) -> {t}")
            value = f"%{i}"
    elif kind == 2:  # a reduction with its body
        scalar = f"tensor<{element}>"
        zero = "0" if element == "i32" else "0.000000e+00"
        reduced = f"tensor<{dims.split('x', 1)[1] + 'x' if 'x' in dims else ''}{element}>"
        lines += [
            f"  %init = stablehlo.constant dense<{zero}> : {scalar}",
            f"  %r = stablehlo.reduce(%arg0 init: %init) across dimensions = [0] : ({t}, {scalar})"
            f" -> {reduced}",
            f"   reducer(%a: {scalar}, %b: {scalar}) {{",
            f"    %s = stablehlo.add %a, %b : {scalar}",
            f"    stablehlo.return %s : {scalar}",
            "  }",
        ]
        value = "%arg1"
    elif kind == 3:  # what the verifier rejects, as the tests expect it
        lines += [
            "  // expected-error @+1 {{requires the same shape for all operands and results}}",
            f"  %0 = stablehlo.add %arg0, %arg1 : ({t}, {t}) -> tensor<99x{element}>",
        ]
        value = "%arg0"
    else:  # a custom op of a test dialect, in generic form with attributes
        lines += [
            f'  %0 = "check.expect_eq"(%arg0, %arg1) {{tolerance = 1.0e-05 : f32}} '
            f": ({t}, {t}) -> {t}",
            f"  %1 = stablehlo.abs %0 : {t}",
        ]
        value = "%1"
    lines += [f"  func.return {value} : {t}", "}"]
    return "\n".join(lines) + "\n"


def lit_corpus(files: int, size_bytes: int, seed: int = 15) -> dict[str, str]:
    """``files`` lit-test files of about ``size_bytes`` in all, named by number: a stand-in
    for the upstream StableHLO/MHLO test files when no checkout is at hand."""
    rng = random.Random(seed)
    corpus: dict[str, str] = {}
    per_file = size_bytes // files
    for number in range(files):
        chunks: list[str] = []
        length, target = len(_LIT_HEADER), per_file * rng.uniform(0.3, 1.7)
        while length < target:
            chunks.append(_lit_chunk(rng, len(chunks)))
            length += len(chunks[-1]) + 9
        corpus[f"test_{number:03d}.mlir"] = _LIT_HEADER + "\n// -----\n\n".join(chunks)
    return corpus


def layers_for(size_bytes: int, generic: bool = False) -> int:
    """How many layers make a module of about ``size_bytes``."""
    per_layer = len(mlir_module(2, generic)) - len(mlir_module(1, generic))
    layers = max(1, round(size_bytes / per_layer))
    # Argument numbers grow longer with the layers: correct the estimate once.
    return max(1, round(layers * size_bytes / len(mlir_module(layers, generic))))


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
