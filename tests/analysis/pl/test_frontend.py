"""The pl front end: pl-source detection, model extraction, name resolution, extents."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from passlint.analysis.pl.extents import ExtentReader
from passlint.analysis.pl.frontend import build_module, parse_text
from passlint.analysis.pl.model import Module, SyntaxProblem
from passlint.analysis.pl.resolve import RDynamic, Resolver, RFunction, RInt, ROther, RView
from passlint.analysis.workspace import Workspace

DATA = Path(__file__).resolve().parents[2] / "data" / "pl"


def model(text: str, path: str = "m.py") -> Module:
    tree = parse_text(path, textwrap.dedent(text))
    assert isinstance(tree, ast.Module)
    module = build_module(path, textwrap.dedent(text), tree)
    assert module is not None
    return module


def cases() -> Module:
    path = DATA / "valid_shape_cases.py"
    return model(path.read_text(), str(path))


@pytest.mark.parametrize(
    "header",
    [
        "import pypto.language as pl",
        "from pypto import language as pl",
        "import pypto.language.distributed as pld",
        "from pypto.language import Tensor",
        "import pypto.language",
    ],
)
def test_pl_source_detection(header: str) -> None:
    tree = parse_text("m.py", header + "\n")
    assert isinstance(tree, ast.Module)
    assert build_module("m.py", header + "\n", tree) is not None


@pytest.mark.parametrize("header", ["import numpy as np", "import pypto", "from pypto import ir"])
def test_non_pl_sources_are_skipped(header: str) -> None:
    tree = parse_text("m.py", header + "\n")
    assert isinstance(tree, ast.Module)
    assert build_module("m.py", header + "\n", tree) is None


def test_syntax_error_has_character_position() -> None:
    problem = parse_text("m.py", "import pypto.language as pl\nx = (é + \n")
    assert isinstance(problem, SyntaxProblem)
    assert problem.span[0] >= len("import pypto.language as pl\n")


def test_programs_function_types_and_params() -> None:
    module = cases()
    assert [p.name for p in module.programs] == ["Cases"]
    types = {f.name: f.func_type for f in module.functions}
    assert types["k_a"] == "InCore" and types["k_c"] == "AIV" and types["g_k"] == "Group"
    assert types["main"] == "Orchestration"
    kernels = [f.name for f in module.kernels]
    assert kernels == ["k_a", "k_b", "k_c", "k_e", "k_f", "k_g", "k_h", "k_l", "k_m", "k_n"]
    k_a = module.programs[0].methods["k_a"]
    assert k_a.has_self
    assert [(p.name, p.index, p.kind, p.direction) for p in k_a.params] == [
        ("x", 0, "tensor", "in"),
        ("out", 1, "tensor", "out"),
    ]
    x = k_a.params[0]
    assert x.tensor is not None and x.tensor.view is not None
    assert [ast.unparse(e) for e in x.tensor.shape or ()] == ["Q", "BLK"]
    assert ast.unparse(x.tensor.dtype) == "pl.FP32"  # type: ignore[arg-type]
    assert [ast.unparse(e) for e in x.tensor.view.valid_shape or ()] == ["Q", "VALID"]
    assert ast.unparse(x.tensor.view.layout) == "pl.TensorLayout.ND"  # type: ignore[arg-type]
    k_c = module.programs[0].methods["k_c"]
    assert [(p.name, p.kind) for p in k_c.params] == [("VALID", "scalar"), ("x", "tensor")]
    assert ast.unparse(k_c.params[0].dtype) == "pl.INDEX"  # type: ignore[arg-type]


def test_untyped_and_opaque_and_jit_functions() -> None:
    module = model(
        """
        import pypto.language as pl

        @pl.function
        def opaque(x: pl.Tensor[[4], pl.FP32]): ...

        @pl.function(type=pl.FunctionType.InCore)
        @pl.jit
        def jitted(x: pl.Tensor[[4], pl.FP32]): ...

        def plain(x): ...
        """
    )
    functions = {f.name: f for f in module.functions}
    assert functions["opaque"].func_type == "Opaque" and not functions["opaque"].is_device_kernel
    assert functions["jitted"].is_jit and not functions["jitted"].is_device_kernel
    assert not functions["plain"].decorated


def test_view_variable_dynamic_names_and_module_ints() -> None:
    module = cases()
    scope = module.scope
    assert scope.dynamics["n"].symbol == "REMOTE_N" and scope.dynamics["n"].name == "n"
    assert scope.dynamics["VALID"].symbol == "VALID"
    assert scope.ints == {"T": 16}
    assert set(scope.views) == {"VIEW"}
    k_m = module.programs[0].methods["k_m"]
    ref = k_m.params[0].tensor.view_ref  # type: ignore[union-attr]
    assert isinstance(ref, ast.Name) and ref.id == "VIEW"
    resolver = Resolver(module, None)
    found = resolver.resolve("VIEW", module, None)
    assert isinstance(found, RView)
    assert [ast.unparse(e) for e in found.view.valid_shape or ()] == ["16", "VALID"]


def test_distributed_tensor_and_inout_unwrapping() -> None:
    module = model(
        """
        import pypto.language as pl
        import pypto.language.distributed as pld

        @pl.function(type=pl.FunctionType.InCore)
        def k(x: pl.InOut[pld.DistributedTensor[[8], pl.FP32, pl.TensorView(valid_shape=[4])]],
              y: pl.Tile[[8], pl.FP32]): ...
        """
    )
    x, y = module.functions[0].params
    assert (x.kind, x.direction) == ("tensor", "inout")
    assert y.kind == "other"


def test_call_sites_of_every_form() -> None:
    module = cases()
    main = module.programs[0].methods["main"]
    forms = [(c.form, c.target_kind, c.target_name, len(c.args)) for c in main.calls]
    assert forms == [
        ("call", "self", "k_g", 2),
        ("call", "self", "k_g", 2),
        ("call", "self", "k_m", 1),
        ("call", "self", "k_n", 1),
        ("submit", "self", "k_h", 1),
    ]
    module = model(
        """
        import pypto.language as pl
        import kernels as kk

        @pl.function(type=pl.FunctionType.Orchestration)
        def f(a, b):
            kk.k(a)
            k(pl.no_dep(pl.no_dep(a)), b=b)
            pl.spmd_submit(k, *a)
            pl.load(a)
        """
    )
    calls = module.functions[0].calls
    assert [(c.form, c.target_kind, c.target_name, c.module_alias) for c in calls] == [
        ("call", "module", "k", "kk"),
        ("call", "name", "k", None),
        ("spmd_submit", "name", "k", None),
    ]
    assert ast.unparse(calls[1].args[0]) == "a" and ast.unparse(calls[1].keywords["b"]) == "b"
    assert calls[2].starred


def test_name_resolution_order(tmp_path: Path) -> None:
    (tmp_path / "other.py").write_text(
        "import pypto.language as pl\nX = pl.dynamic('FROM_OTHER')\nY = 3\n"
    )
    text = textwrap.dedent(
        """
        import pypto.language as pl
        from other import X, Y
        Z = pl.dynamic("GLOBAL_Z")

        def build():
            Z = pl.dynamic("LOCAL_Z")

            @pl.function(type=pl.FunctionType.InCore)
            def k(x: pl.Tensor[[4], pl.FP32]):
                Z: int = 3
                return x
        """
    )
    path = str(tmp_path / "main.py")
    module = model(text, path)
    resolver = Resolver(module, Workspace([tmp_path]))
    kernel = next(f for f in module.functions if f.name == "k")
    local = resolver.resolve("Z", module, kernel.parent)
    assert isinstance(local, RDynamic) and local.dynamic.symbol == "LOCAL_Z"
    glob = resolver.resolve("Z", module, None)
    assert isinstance(glob, RDynamic) and glob.dynamic.symbol == "GLOBAL_Z"
    imported = resolver.resolve("X", module, kernel.parent)
    assert isinstance(imported, RDynamic) and imported.dynamic.symbol == "FROM_OTHER"
    assert resolver.resolve("Y", module, None) == RInt(3)
    assert isinstance(resolver.resolve("len", module, None), ROther)
    assert isinstance(resolver.resolve("build", module, None), RFunction)
    assert resolver.resolve("NOWHERE", module, None) is None


def test_imports_outside_the_workspace_are_not_read(tmp_path: Path) -> None:
    inside = tmp_path / "ws"
    inside.mkdir()
    (tmp_path / "secret.py").write_text("import pypto.language as pl\nS = pl.dynamic('S')\n")
    module = model("import pypto.language as pl\nfrom secret import S\n", str(inside / "m.py"))
    found = Resolver(module, Workspace([inside])).resolve("S", module, None)
    assert isinstance(found, ROther)


def extents_of(text: str, name: str) -> tuple[list[str] | None, list[str] | None]:
    """Valid and physical extents of the last argument passed to ``k`` in ``main``."""
    module = model(text)
    main = next(f for f in module.functions if f.name == "main")
    call = main.calls[-1]
    reader = ExtentReader(Resolver(module, None))
    found = reader.of_argument(call.args[-1], main, module)
    assert found is not None, name

    def texts(dims: object) -> list[str] | None:
        return None if dims is None else [d.text if d else "?" for d in dims]  # type: ignore[attr-defined]

    return texts(found.valid), texts(found.shape)


HEAD = """
import pypto.language as pl
VIEW = pl.TensorView(valid_shape=[3, 5])
@pl.function(type=pl.FunctionType.Orchestration)
def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX],
         viewed: pl.Tensor[[8, 8], pl.FP32, VIEW],
         inline: pl.Tensor[[8, 8], pl.FP32, pl.TensorView(valid_shape=[n, 2])]):
"""


@pytest.mark.parametrize(
    ("body", "valid", "shape"),
    [
        ("a = pl.slice(src, [16, 64], [0, 0], valid_shape=[16, n])", ["16", "n"], ["16", "64"]),
        ("a = pl.slice(src, [16, 64], [0, 0], [4, n])", ["4", "n"], ["16", "64"]),
        ("a = pl.slice(src, [16, 64], [0, 0])", None, ["16", "64"]),
        ("a = src[0:8, 32:96]", None, ["8", "64"]),
        ("a = src[4:n]", None, ["n - 4", "128"]),
        ("a = src[:, 0:n]", None, ["16", "n"]),
        ("a = pl.tensor.view(src, [32, 64])", None, ["32", "64"]),
        ("a = pl.set_validshape(src, 16, n)", ["16", "n"], ["16", "128"]),
        ("a = pl.tensor.set_validshape(src, 1, 2)", ["1", "2"], ["16", "128"]),
        ("a = pl.create_tensor([4, n], pl.FP32)", None, ["4", "n"]),
        ("a = pl.create_tensor([4, 4], pl.FP32, valid_shape=[2, n])", ["2", "n"], ["4", "4"]),
        ("a = src", None, ["16", "128"]),
        ("a = viewed", ["3", "5"], ["8", "8"]),
        ("a = inline", ["n", "2"], ["8", "8"]),
        ("a = src[0:8, 0:8]\n    a = pl.set_validshape(a, 2, n)", ["2", "n"], ["8", "8"]),
        ("a: pl.Tensor[[1], pl.FP32] = pl.slice(src, [2, 2], [0, 0])", None, ["2", "2"]),
        # a window over a partly valid source (pypto src/ir/op/type_inference.cpp:626,
        # InferWindowReadValidShape; the texts are what the real pass passes, checked)
        ("a = viewed[0:4, 0:8]", ["3", "5"], ["4", "8"]),
        ("a = pl.slice(inline, [4, 8], [0, 0])", ["pl.min(n, 4)", "2"], ["4", "8"]),
        ("a = pl.slice(inline, [4, 8], [2, 0], valid_shape=[1, 8])", ["1", "2"], ["4", "8"]),
        ("a = inline[2:6, 0:8]", ["pl.min(pl.max(n - 2, 0), 4)", "2"], ["4", "8"]),
    ],
)
def test_extent_sources(body: str, valid: list[str] | None, shape: list[str] | None) -> None:
    text = HEAD + f"    {body}\n    return k(pl.no_dep(a))\n"
    assert extents_of(text, body) == (valid, shape)


def test_assignment_after_the_call_is_ignored_and_unknown_values_are_none() -> None:
    text = HEAD + (
        "    a = pl.slice(src, [2, 2], [0, 0], valid_shape=[1, n])\n"
        "    r = k(a)\n"
        "    a = pl.slice(src, [4, 4], [0, 0])\n"
    )
    assert extents_of(text, "before") == (["1", "n"], ["2", "2"])
    module = model(HEAD + "    a, b = f()\n    return k(a)\n")
    main = module.functions[0]
    reader = ExtentReader(Resolver(module, None))
    assert reader.of_argument(main.calls[-1].args[0], main, module) is None


def test_assignment_expressions_bind_names_with_unknown_values() -> None:
    module = model(
        """
        import pypto.language as pl

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):
            a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])
            if (a := pl.create_tensor([16, 128], pl.FP32)) is not None:
                b = a
            c = pl.slice(src, [16, 128], [0, 0])
            return c
        """
    )
    (main,) = module.functions
    names = [(a.name, a.value is not None) for a in main.assignments]
    assert names == [("a", True), ("a", False), ("b", True), ("c", True)]
