"""The name index of the rebinding rule (``rebinding.NameReads``): a name's readers are
looked up when first asked about, from the functions whose text spells it and the
parameters and statements that hold it; the answer is the one a walk of every decorated
function gives (annotations and body, nested definitions their own), with or without the
memo a session keeps."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from linear_time import assert_doubling_linear

from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import Function, Module
from passlint.analysis.pl.resolve import load_module
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text
from passlint.passes.materialize_valid_shape_symbols.rebinding import NameReads

DATA = Path(__file__).parent.parent / "data" / "pl"

MODULE = '''import pypto.language as pl

N = pl.dynamic("N")
M = pl.dynamic("M")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def reads_n(self, a: pl.Tensor[[N, 64], pl.FP32]) -> pl.Tensor[[N, 64], pl.FP32]:
        return a

    @pl.function(type=pl.FunctionType.InCore)
    def spells_n_only(self, a: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        """N in a docstring, self.N, f(N=1) and a nested def reading N are not reads."""
        note = "N"  # N
        value = self.N
        pl.call(N=1)

        def inner(x=N):
            return N

        lam = lambda: N  # noqa: E731
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[M, 64], pl.FP32]):
        y = [M + 1 for _ in range(2)]
        return self.reads_n(x)


@pl.function(type=pl.FunctionType.InCore)
def standalone(a: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[N, 64], pl.FP32]:
    return pl.reshape(a, [N, 64])
'''


def walked(module: Module, name: str, program: object) -> list[str]:
    """The readers by a walk of every decorated function: the specification."""
    found: list[str] = []
    for function in module.functions:
        if not function.decorated or (program is not None and function.owner is not program):
            continue
        args = function.node.args
        roots: list[ast.AST] = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        roots += function.node.body
        roots += [function.node.returns] if function.node.returns is not None else []
        if name in names_in(roots):
            found.append(function.name)
    return found


def names_in(roots: list[ast.AST]) -> set[str]:
    names: set[str] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            names.add(node.id)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return names


def readers(reads: NameReads, name: str, program: object) -> list[str]:
    return [f.name for f in reads.readers(name, program)]  # type: ignore[arg-type]


def loaded(path: str, text: str) -> Module:
    module = load_module(path, text)
    assert isinstance(module, Module)
    return module


def test_readers_are_the_functions_reading_the_name() -> None:
    module = loaded("m.py", MODULE)
    program = module.programs[0]
    reads = NameReads(module)
    assert readers(reads, "N", None) == ["reads_n", "standalone"]
    assert readers(reads, "N", program) == ["reads_n"]
    assert readers(reads, "M", program) == ["main"]
    assert readers(reads, "pl", None) == ["reads_n", "spells_n_only", "main", "standalone"]
    assert readers(reads, "absent", None) == []


def test_a_text_not_spelling_names_as_python_reads_them_is_walked() -> None:
    """``ﬁ`` (U+FB01) is read as ``fi``: the text does not spell the name the tree holds."""
    text = MODULE.replace("value = self.N", "value = ﬁ")
    module = loaded("m.py", text)
    assert not module.names_as_written
    assert readers(NameReads(module), "fi", None) == ["spells_n_only"]


@pytest.mark.parametrize("memo", [False, True], ids=["plain", "memo"])
def test_fixtures_agree_with_the_walk(memo: bool) -> None:
    """Every name of every pl fixture, asked of every program and of the module."""
    paths = sorted(DATA.rglob("*.py"))
    assert len(paths) > 20
    session = PlMemo() if memo else None
    for path in paths:
        text = path.read_text(encoding="utf-8")
        module = load_module(str(path), text, session)
        if not isinstance(module, Module):
            continue
        reads = NameReads(module, session)
        names = {n.id for n in ast.walk(module.tree) if isinstance(n, ast.Name)}
        for program in [None, *module.programs]:
            for name in sorted(names):
                assert readers(reads, name, program) == walked(module, name, program), (
                    path,
                    name,
                )


def test_names_of_one_function_are_found_once_per_name() -> None:
    module = loaded("m.py", MODULE)
    reads = NameReads(module)
    first = reads.readers("N", None)
    assert reads.readers("N", None) is first
    assert all(isinstance(f, Function) for f in first)


def test_a_text_not_spelling_names_as_written_is_walked_once() -> None:
    """n kernels reading n symbols in a text that spells a name otherwise (``ﬁ``): every
    function is walked once for all names, not once per name."""
    kernel = (
        "\n@pl.function(type=pl.FunctionType.InCore)\n"
        "def k{i}(x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[V{i}])]):\n"
        "    return x\n"
    )

    def build(n: int) -> str:
        dynamics = "".join(f'V{i} = pl.dynamic("V{i}")\n' for i in range(n))
        kernels = "".join(kernel.format(i=i) for i in range(n))
        return "import pypto.language as pl\n# ﬁ\n" + dynamics + kernels

    memo = PlMemo()
    assert not loaded("m.py", build(2)).names_as_written
    assert_doubling_linear(
        build, lambda t: check_text("m.py", t, None, memo), 64, before=memo.clear
    )
