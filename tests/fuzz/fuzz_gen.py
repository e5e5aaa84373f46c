"""Hypothesis strategies: grammar-aware MLIR modules and pl sources, and random mutations
(deletion, duplication, character flips, truncation, splicing: fuzz_mutate's classic
kinds) of the fixtures in tests/data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from fuzz_mutate import CLASSIC, INTERESTING, MAX_LENGTH, mutate_once
from hypothesis import strategies as st

T = TypeVar("T")

DATA = Path(__file__).resolve().parents[1] / "data"

Draw = Callable[[st.SearchStrategy[Any]], Any]


def _fixtures(folder: str, pattern: str) -> list[str]:
    return [
        path.read_text(encoding="utf-8")
        for path in sorted((DATA / folder).rglob(pattern))
        if path.stat().st_size < 100_000
    ]


MLIR_FIXTURES = _fixtures("mlir", "*.mlir") + _fixtures("server/mlir", "*.mlir")
PL_FIXTURES = _fixtures("pl", "*.py") + _fixtures("server/pl", "*.py")

# -- MLIR ----------------------------------------------------------------------------------

DTYPES = ["f32", "f16", "bf16", "i32", "i1", "i64", "ui8", "complex<f32>", "f8E4M3FN"]
UNARY = [
    "stablehlo.abs",
    "stablehlo.sine",
    "stablehlo.tanh",
    "mhlo.negate",
    "stablehlo.exponential",
]
BINARY = ["stablehlo.add", "stablehlo.multiply", "mhlo.add", "stablehlo.maximum"]
NAMES = ["main", "helper", "my.op", "my.scale", "decomp", '"quoted name"', "main_0"]


@st.composite
def mlir_type(draw: Draw) -> str:
    kind = draw(st.sampled_from(["tensor", "tensor", "tensor", "scalar", "tuple", "alias"]))
    dtype = draw(st.sampled_from(DTYPES))
    if kind == "scalar":
        return f"tensor<{dtype}>"
    if kind == "tuple":
        return f"tuple<tensor<{dtype}>, tensor<2x{dtype}>>"
    if kind == "alias":
        return "!my.type"
    dims = draw(st.lists(st.sampled_from(["0", "1", "2", "4", "8", "128", "?"]), max_size=3))
    encoding = draw(st.sampled_from(["", "", ", #enc", ', {mhlo.sharding = "{replicated}"}']))
    return f"tensor<{'x'.join([*dims, dtype])}{encoding}>"


@st.composite
def attribute_value(draw: Draw, depth: int = 0) -> str:
    choices = [
        "1 : i32",
        "true",
        "unit",
        '"text"',
        '"esc\\"aped"',
        "@my.op",
        "#mhlo<fusion_kind kLoop>",
        "#loc3",
        "dense<1.000000e+00> : tensor<4xf32>",
        "dense<[1, 2]> : tensor<2xi32>",
        'dense<"0x0000803F"> : tensor<1xf32>',
        "array<i64: 1, 2>",
        "-3.5e+02 : f64",
        "0x7FC00000 : f32",
        '"résumé ✓ \U0001d54f"',
    ]
    if depth < 2:
        kind = draw(st.integers(0, 4))
        if kind == 0:
            items = draw(st.lists(attribute_value(depth + 1), max_size=3))
            return "[" + ", ".join(items) + "]"
        if kind == 1:
            return str(draw(attribute_dict(depth + 1)))
    return str(draw(st.sampled_from(choices)))


@st.composite
def attribute_dict(draw: Draw, depth: int = 0) -> str:
    keys = [
        "output_names",
        "mhlo.frontend_attributes",
        "FusionKind",
        "jax.result_info",
        "decomposition",
        "version",
        "composite_attributes",
        "sym_visibility",
        "a.b",
    ]
    entries = []
    for key in draw(st.lists(st.sampled_from(keys), max_size=3, unique=True)):
        if draw(st.booleans()) and depth < 2:
            entries.append(f"{key} = {draw(attribute_value(depth + 1))}")
        else:
            entries.append(key)
    return "{" + ", ".join(entries) + "}"


class _Scope:
    """The SSA names defined so far in one function body, with their types."""

    def __init__(self, args: list[tuple[str, str]]) -> None:
        self.values = list(args)
        self.constants: list[tuple[str, str]] = []
        self.counter = 0

    def fresh(self, draw: Draw) -> str:
        self.counter += 1
        style = draw(st.sampled_from(["num", "num", "cst", "named", "weird"]))
        if style == "cst":
            return f"%cst_{self.counter}"
        if style == "named":
            return f"%output{self.counter}_copy" if draw(st.booleans()) else f"%v{self.counter}"
        if style == "weird":
            return f"%x$.{self.counter}"
        return f"%{self.counter}"


@st.composite
def operand(draw: Draw, scope: _Scope) -> tuple[str, str]:
    if not scope.values or draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from(["%undefined", "%arg9", "%0#3"])), "tensor<4xf32>"
    return draw(st.sampled_from(scope.values))  # type: ignore[no-any-return]


@st.composite
def operation(draw: Draw, scope: _Scope, indent: str, depth: int) -> list[str]:
    kind = draw(
        st.sampled_from(
            [
                "unary",
                "binary",
                "constant",
                "constant",
                "copy",
                "fusion",
                "composite",
                "multi",
                "call",
                "comment",
                "loc",
                "generic",
            ]
        )
    )
    loc = draw(st.sampled_from(["", "", "", " loc(#loc1)", ' loc("file.py":3:4)']))
    if kind == "comment":
        text = draw(
            st.sampled_from(
                [
                    "// a comment",
                    "// passlint: ignore[TL001]",
                    "// passlint: ignore[TL002, XX9]",
                    "// é ✓ \U0001d54f",
                    "",
                ]
            )
        )
        return [indent + text]
    if kind == "loc":
        split = depth == 0 and draw(st.integers(0, 3)) == 0
        return ["// -----"] if split else [indent + "// loc only"]
    name = scope.fresh(draw)
    if kind == "unary":
        value, type_ = draw(operand(scope))
        op = draw(st.sampled_from(UNARY))
        scope.values.append((name, type_))
        return [f"{indent}{name} = {op} {value} : {type_}{loc}"]
    if kind == "binary":
        (a, type_), (b, _) = draw(operand(scope)), draw(operand(scope))
        op = draw(st.sampled_from(BINARY))
        scope.values.append((name, type_))
        return [f"{indent}{name} = {op} {a}, {b} : {type_}{loc}"]
    if kind == "constant":
        type_ = draw(mlir_type())
        dialect = draw(st.sampled_from(["stablehlo", "mhlo", "arith"]))
        payload = draw(
            st.sampled_from(
                [
                    "dense<0.000000e+00>",
                    "dense<[1.0, 2.0]>",
                    "dense<1>",
                    'dense<"0xDEADBEEF">',
                    "dense_resource<blob1>",
                    "dense<>",
                    "0.5",
                ]
            )
        )
        scope.values.append((name, type_))
        scope.constants.append((name, type_))
        if draw(st.booleans()):
            return [
                f'{indent}{name} = "{dialect}.constant"() <{{value = {payload} : {type_}}}>'
                f" : () -> {type_}{loc}"
            ]
        return [f"{indent}{name} = {dialect}.constant {payload} : {type_}{loc}"]
    if kind == "copy":
        value, type_ = draw(operand(scope))
        scope.values.append((name, type_))
        if draw(st.booleans()):
            return [f'{indent}{name} = "mhlo.copy"({value}) : ({type_}) -> {type_}{loc}']
        return [f"{indent}{name} = mhlo.copy {value} : {type_}{loc}"]
    if kind == "composite":
        value, type_ = draw(operand(scope))
        target = draw(st.sampled_from(NAMES))
        scope.values.append((name, type_))
        return [
            f'{indent}{name} = stablehlo.composite "my.op" {value} {{decomposition = @{target}'
            f"}} : ({type_}) -> {type_}{loc}"
        ]
    if kind == "multi":
        value, type_ = draw(operand(scope))
        count = draw(st.integers(1, 3))
        scope.values.extend((f"{name}#{i}", type_) for i in range(count))
        results = ", ".join([type_] * count)
        return [f'{indent}{name}:{count} = "my.split"({value}) : ({type_}) -> ({results}){loc}']
    if kind == "call":
        value, type_ = draw(operand(scope))
        scope.values.append((name, type_))
        callee = draw(st.sampled_from(NAMES))
        return [f"{indent}{name} = func.call @{callee}({value}) : ({type_}) -> {type_}{loc}"]
    if kind == "generic":
        value, type_ = draw(operand(scope))
        attrs = draw(attribute_dict())
        scope.values.append((name, type_))
        return [f'{indent}{name} = "my.op"({value}) {attrs} : ({type_}) -> {type_}{loc}']
    # fusion: a region with its own block arguments and a terminator
    value, type_ = draw(operand(scope))
    fusion = draw(st.sampled_from(["mhlo.fusion", "stablehlo.case", "mhlo.while"]))
    kind_attr = draw(
        st.sampled_from(
            ["", " <{fusion_kind = #mhlo<fusion_kind kLoop>}>", ' {FusionKind = "ScheduleFusion"}']
        )
    )
    inner = _Scope([(f"%p{depth}", type_)])
    inner.counter = scope.counter + 100
    lines = [
        f'{indent}{name} = "{fusion}"({value}){kind_attr} ({{',
        f"{indent}^bb0(%p{depth}: {type_}):",
    ]
    if depth < 3:
        for _ in range(draw(st.integers(0, 3))):
            lines += draw(operation(inner, indent + "  ", depth + 1))
    result, _ = draw(operand(inner))
    lines.append(f"{indent}  mhlo.return {result} : {type_}")
    lines.append(f"{indent}}}) : ({type_}) -> {type_}{loc}")
    scope.values.append((name, type_))
    return lines


@st.composite
def function(draw: Draw, name: str, indent: str) -> list[str]:
    arg_types = draw(st.lists(mlir_type(), max_size=3))
    args = [(f"%arg{i}", t) for i, t in enumerate(arg_types)]
    scope = _Scope(args)
    body: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        body += draw(operation(scope, indent + "  ", 0))
    returned = draw(st.lists(operand(scope), max_size=4))
    if scope.constants and draw(st.booleans()):
        returned.append(draw(st.sampled_from(scope.constants)))
    if returned and draw(st.integers(0, 3)) == 0:
        returned.append(returned[0])  # returned twice
    types = [t for _, t in returned]
    result = types[0] if len(types) == 1 else "(" + ", ".join(types) + ")"
    attrs = ""
    if draw(st.integers(0, 2)) == 0:
        count = draw(st.integers(0, len(returned) + 1))
        names = [draw(st.sampled_from(['"a"', '"b"', '"out"', '"a"'])) for _ in range(count)]
        attrs = f" attributes {{output_names = [{', '.join(names)}]}}"
    visibility = draw(st.sampled_from(["", "", "public ", "private "]))
    signature = ", ".join(f"{a}: {t}" for a, t in args)
    terminator = draw(st.sampled_from(["return", "func.return", "stablehlo.return"]))
    ret = (
        f"{terminator} {', '.join(v for v, _ in returned)} : {', '.join(types)}"
        if returned
        else terminator
    )
    return [
        f"{indent}func.func {visibility}@{name}({signature}) -> {result}{attrs} {{",
        *body,
        f"{indent}  {ret}",
        f"{indent}}}",
    ]


@st.composite
def mlir_module(draw: Draw) -> str:
    """A module of functions (usually with @main), mostly well formed."""
    wrapped = draw(st.booleans())
    indent = "  " if wrapped else ""
    lines: list[str] = []
    if draw(st.integers(0, 3)) == 0:
        lines.append('#loc1 = loc("model.py":1:2)')
    if wrapped:
        lines.append(f"module @jit_f attributes {draw(attribute_dict())} {{")
    names = ["main", *draw(st.lists(st.sampled_from(NAMES[1:]), max_size=2, unique=True))]
    if draw(st.integers(0, 5)) == 0:
        names = names[1:]
    for name in names:
        lines += draw(function(name, indent))
    if wrapped:
        lines.append("}")
    if draw(st.integers(0, 4)) == 0:
        lines += ["// -----", *draw(function("main", ""))]
    newline: str = draw(st.sampled_from(["\n", "\n", "\n", "\r\n"]))
    end: str = draw(st.sampled_from([newline, ""]))
    return newline.join(lines) + end


# -- pl ------------------------------------------------------------------------------------

KERNEL_TYPES = ["InCore", "AIV", "AIC", "Group", "Orchestration", "InCore"]
SYMBOLS = ["VALID", "V2", "Q", "BLK", "N"]


@st.composite
def valid_entry(draw: Draw, symbols: list[str], params: list[str]) -> str:
    kind = draw(st.integers(0, 9))
    if kind <= 4 and symbols:
        return str(draw(st.sampled_from(symbols)))
    if kind == 5 and symbols:
        return f"{draw(st.sampled_from(symbols))} * 2"
    if kind == 6 and params:
        return str(draw(st.sampled_from(params)))
    if kind == 7:
        return "UNDEFINED"
    return str(draw(st.sampled_from(["16", "128", "T", "8"])))


@st.composite
def tensor_annotation(draw: Draw, symbols: list[str], params: list[str]) -> str:
    rank = draw(st.integers(1, 2))
    dims = [draw(st.sampled_from(["16", "128", *symbols[:2]])) for _ in range(rank)]
    dtype = draw(st.sampled_from(["pl.FP32", "pl.FP16", "pl.INT8"]))
    parts = [f"[{', '.join(dims)}]", dtype]
    view = draw(st.integers(0, 3))
    if view >= 1:
        entries = ", ".join(draw(valid_entry(symbols, params)) for _ in range(rank))
        layout = draw(st.sampled_from(["", ", layout=pl.TensorLayout.ND"]))
        parts.append(f"pl.TensorView(valid_shape=[{entries}]{layout})")
    elif view == 0 and draw(st.booleans()):
        parts.append("VIEW")
    tensor = f"pl.Tensor[{', '.join(parts)}]"
    wrapper = draw(st.sampled_from(["", "", "pl.Out", "pl.InOut"]))
    return f"{wrapper}[{tensor}]" if wrapper else tensor


@st.composite
def kernel(draw: Draw, name: str, symbols: list[str], method: bool, indent: str) -> list[str]:
    params: list[str] = ["self"] if method else []
    scalars: list[str] = []
    for i in range(draw(st.integers(0, 3))):
        if draw(st.integers(0, 3)) == 0:
            scalar = draw(st.sampled_from([*symbols, "n", "w"]))
            if scalar not in scalars:
                scalars.append(scalar)
                params.append(f"{scalar}: pl.Scalar[pl.INDEX]")
                continue
        params.append(f"x{i}: {draw(tensor_annotation(symbols, scalars))}")
    kind = draw(st.sampled_from(KERNEL_TYPES))
    decorator = draw(
        st.sampled_from(
            [
                f"@pl.function(type=pl.FunctionType.{kind})",
                "@pl.function",
                "@pl.jit",
                "@staticmethod",
            ]
        )
    )
    multiline = draw(st.booleans())
    joiner = (",\n" + indent + "        ") if multiline else ", "
    body = draw(
        st.sampled_from(
            ["return x0", "pass", "...", "return self", "y = x0\n" + indent + "    return y"]
        )
    )
    return [
        f"{indent}{decorator}",
        f"{indent}def {name}({joiner.join(params)}):",
        f"{indent}    {body}",
    ]


@st.composite
def call_site(draw: Draw, kernels: list[str], method: bool, indent: str) -> list[str]:
    callee = draw(st.sampled_from(kernels))
    ref = f"self.{callee}" if method else callee
    args = []
    for _ in range(draw(st.integers(0, 3))):
        args.append(
            draw(
                st.sampled_from(
                    [
                        "a",
                        "src",
                        "pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])",
                        "pl.slice(src, [16, 128], [0, 0], valid_shape=[vm, 16])",
                        "src[0:w, 0:8]",
                        "pl.no_dep(a)",
                        "pl.create_tensor([16, 128], pl.FP32, valid_shape=[4, n])",
                        "n",
                        "b=src",
                        "*rest",
                        "**kw",
                    ]
                )
            )
        )
    form = draw(st.sampled_from(["call", "call", "submit", "spmd", "manual"]))
    if form == "submit":
        return [f"{indent}h, _tid = pl.submit({', '.join([ref, *args])})"]
    if form == "spmd":
        return [f"{indent}r = pl.spmd_submit({', '.join([ref, *args])})"]
    if form == "manual":
        return [f"{indent}with pl.manual_scope():", f"{indent}    r = {ref}({', '.join(args)})"]
    return [f"{indent}r = {ref}({', '.join(args)})"]


@st.composite
def pl_source(draw: Draw) -> str:
    """A pl module: dynamic symbols, kernels (in a @pl.program class or free), call sites."""
    lines = [
        draw(st.sampled_from(["import pypto.language as pl", "from pypto import language as pl"]))
    ]
    symbols = draw(st.lists(st.sampled_from(SYMBOLS), min_size=0, max_size=3, unique=True))
    for symbol in symbols:
        spelled = draw(st.sampled_from([symbol, symbol, symbol + "_other"]))
        lines.append(f'{symbol} = pl.dynamic("{spelled}")')
    lines.append("T = 16")
    if draw(st.booleans()) and symbols:
        lines.append(f"VIEW = pl.TensorView(valid_shape=[16, {symbols[0]}])")
    method = draw(st.booleans())
    indent = "    " if method else ""
    if method:
        lines += ["", "", "@pl.program", "class Program:"]
    names = [f"k{i}" for i in range(draw(st.integers(1, 3)))]
    for name in names:
        lines += ["", *draw(kernel(name, symbols, method, indent))]
    lines += ["", f"{indent}@pl.function(type=pl.FunctionType.Orchestration)"]
    self_ = "self, " if method else ""
    lines.append(
        f"{indent}def main({self_}src: pl.Tensor[[16, 128], pl.FP32], "
        "n: pl.Scalar[pl.INDEX], vm: pl.Scalar[pl.INDEX], w: pl.Scalar[pl.INDEX]):"
    )
    lines.append(f"{indent}    a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])")
    for _ in range(draw(st.integers(0, 4))):
        lines += draw(call_site(names, method, indent + "    "))
    lines.append(f"{indent}    return a")
    if draw(st.integers(0, 4)) == 0:
        lines.append(
            draw(
                st.sampled_from(
                    [
                        "# passlint: ignore[VS001]",
                        "x = 1  # passlint: ignore[VS001, VS009]",
                        "# é ✓ \U0001d54f",
                    ]
                )
            )
        )
    newline: str = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return newline.join(lines) + "\n"


# -- mutation ------------------------------------------------------------------------------


class _Drawn:
    """fuzz_mutate's choices as hypothesis draws (so failures shrink)."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        value: int = self.draw(st.integers(low, high))
        return value

    def pick(self, options: Sequence[T]) -> T:
        value: T = self.draw(st.sampled_from(options))
        return value

    def character(self) -> str:
        value: str = self.draw(st.one_of(st.sampled_from(INTERESTING), st.characters()))
        return value


@st.composite
def mutated(draw: Draw, corpus: list[str], generated: st.SearchStrategy[str]) -> str:
    """A fixture (or a generated text), changed by 1-4 of fuzz_mutate's classic mutations."""
    text: str = draw(st.one_of(st.sampled_from(corpus), generated))
    choose = _Drawn(draw)
    for _ in range(draw(st.integers(1, 4))):
        text = mutate_once(text, corpus, choose, CLASSIC)
    return text[:MAX_LENGTH]


def mutated_mlir() -> st.SearchStrategy[str]:
    return mutated(MLIR_FIXTURES, mlir_module())


def mutated_pl() -> st.SearchStrategy[str]:
    return mutated(PL_FIXTURES, pl_source())
