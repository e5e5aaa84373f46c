"""Linear time on every pl input shape: doubling the input at most about doubles the CPU time
of its analysis (the bound is 2.2x, issue 25).

Each shape is measured at a size whose analysis takes about 90 ms (50 ms at least) and at
twice that size, alternately, as the median of three runs of ``pipeline.analyze`` (the
workspace shape: a batch check of every file) from empty caches; and so is what the batch
screen reads of it (a batch run screens every file before it analyses any), as
``linear_time`` measures. The ratio allows for a doubled input that is not exactly twice as
long.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import linear_time
import pytest

from passlint import pipeline
from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.memo import Memo
from passlint.passes.materialize_valid_shape_symbols import screen
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text
from passlint.report.json_report import render_json
from passlint.report.sarif import render_sarif

HEAD = 'import pypto.language as pl\n\nV = pl.dynamic("V")\n'
KERNEL = """

@pl.function(type=pl.FunctionType.InCore)
def k{i}(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)]):
    return x


@pl.function(type=pl.FunctionType.Orchestration)
def main{i}(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):
{body}
"""
CALL = "k{i}(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]))"


def kernel(i: int, body: str | None = None) -> str:
    return KERNEL.format(i=i, body=body or "    return " + CALL.format(i=i))


DOCSTRING = '    """' + "Tiles a row.\n    " * 100 + '"""\n'


def many_kernels(n: int) -> str:
    """Kernels with docstrings, each called in the module."""
    return HEAD + "".join(kernel(i, DOCSTRING + "    return " + CALL.format(i=i)) for i in range(n))


def long_line(n: int) -> str:
    """Many calls on one line (which a comment makes longer still)."""
    calls = "; ".join(f"a{j} = " + CALL.format(i=0) for j in range(n))
    return HEAD + kernel(0, "    " + calls + "  # " + "x" * 1_000 * n)


def many_call_sites(n: int) -> str:
    return HEAD + kernel(0, "".join(f"    a{j} = " + CALL.format(i=0) + "\n" for j in range(n)))


def long_parameter_list(n: int) -> str:
    dynamics = "".join(f'V{j} = pl.dynamic("V{j}")\n' for j in range(n))
    params = ",\n    ".join(
        f"x{j}: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V{j}], layout=pl.TensorLayout.ND)]"
        for j in range(n)
    )
    return (
        HEAD
        + dynamics
        + f"\n\n@pl.function(type=pl.FunctionType.InCore)\ndef k(\n    {params},\n):\n    return x0\n"
    )


def long_parameter_line(n: int) -> str:
    """Parameters that bind nothing, on one line, before the one that reads a symbol."""
    params = ", ".join(f"x{j}: pl.Tensor[[16, 128], pl.FP32]" for j in range(n))
    view = "y: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)]"
    return (
        HEAD
        + f"\n\n@pl.function(type=pl.FunctionType.InCore)\ndef k({params}, {view}):\n    return y\n"
    )


def many_dynamic_symbols(n: int) -> str:
    dynamics = "".join(f'V{j} = pl.dynamic("V{j}")\n' for j in range(n))
    entries = ", ".join(f"V{j}" for j in range(n))
    tensor = f"pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[{entries}], layout=pl.TensorLayout.ND)]"
    return (
        HEAD
        + dynamics
        + f"\n\n@pl.function(type=pl.FunctionType.InCore)\ndef k(x: {tensor}):\n    return x\n"
    )


def unbound_symbols_called(n: int) -> str:
    """A kernel reading ``n`` unbound symbols, called twice (each call gets ``n`` extents)."""
    symbols = [f"S{i}" for i in range(n)]
    dynamics = "".join(f'{s} = pl.dynamic("{s}")\n' for s in symbols)
    shape = ", ".join("8" for _ in symbols)
    tensor = f"pl.Tensor[[{shape}], pl.FP32, pl.TensorView(valid_shape=[{', '.join(symbols)}], layout=pl.TensorLayout.ND)]"
    return (
        HEAD
        + dynamics
        + f"\n\n@pl.function(type=pl.FunctionType.InCore)\ndef k(x: {tensor}):\n    return x\n"
        + f"\n\n@pl.function(type=pl.FunctionType.Orchestration)\ndef main(x: {tensor}):\n"
        + "    k(x)\n    return k(x)\n"
    )


def sliced_inputs_called(n: int) -> str:
    """A kernel of ``n`` inputs, each reading its own unbound symbol, called twice with
    slices of tensors of static shape (OptimizeOrchTensors' strides decided per input)."""
    dynamics = "".join(f'V{j} = pl.dynamic("V{j}")\n' for j in range(n))
    params = ", ".join(
        f"x{j}: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V{j}], layout=pl.TensorLayout.ND)]"
        for j in range(n)
    )
    slices = "".join(
        f"    p{j} = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])\n" for j in range(n)
    )
    args = ", ".join(f"p{j}" for j in range(n))
    return (
        HEAD
        + dynamics
        + f"\n\n@pl.function(type=pl.FunctionType.InCore)\ndef k({params}):\n    return x0\n"
        + "\n\n@pl.function(type=pl.FunctionType.Orchestration)\n"
        + "def main(src: pl.Tensor[[64, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
        + slices
        + f"    a = k({args})\n    return k({args})\n"
    )


def deep_nesting(n: int) -> str:
    """``n`` kernels, each 40 functions deep (CPython allows 100 levels)."""
    out = [HEAD]
    for i in range(n):
        indent = ""
        for depth in range(40):
            out.append(f"\n{indent}def f{i}_{depth}():")
            indent += " "
        out.extend(f"{indent}{line}\n" if line else "\n" for line in kernel(i).split("\n"))
    return "".join(out)


def long_string(n: int) -> str:
    return many_kernels(1) + 'S = """' + "a (b) 'c' \\\\ \n" * n + '"""\n'


def huge_literal(n: int) -> str:
    return HEAD + kernel(0).replace("valid_shape=[16, n]", "valid_shape=[16, 0x" + "f" * n + "]")


def long_names(n: int) -> str:
    return (
        many_kernels(1)
        .replace("k0", "k" * n)
        .replace("V = pl.dynamic(", "V" * n + " = pl.dynamic(")
        .replace("[16, V]", "[16, " + "V" * n + "]")
    )


def non_ascii_line(n: int) -> str:
    """Many calls on one line with non-ASCII names (UTF-8 columns)."""
    calls = "; ".join(f"é{j} = " + CALL.format(i=0).replace("src", "données") for j in range(n))
    return HEAD + kernel(0, "    " + calls + "  # " + "é" * 1_000 * n).replace("src:", "données:")


def def_words(n: int) -> str:
    """A string of ``def`` and kernel-type words on one line between kernels (the screen
    looks for a ``def`` after each type and asks whether it starts its line)."""
    kernels = many_kernels(2)
    return kernels + 's = "' + "def x; InCore " * n + '"\n' + kernels.replace("k", "q")


def many_aliases(n: int) -> str:
    """Names imported from pypto.language, and as many statements in a DSL function."""
    imports = "from pypto.language import " + ", ".join(f"a{j}" for j in range(n)) + "\n"
    return imports + many_call_sites(n)


def many_scopes(n: int) -> str:
    """``pl.at`` scopes of one orchestration, each after an assignment (VS007 each: the
    sliced tensor's shape is dynamic, so OptimizeOrchTensors keeps the slices' views)."""
    body = "".join(
        f"    p{j} = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, n])\n"
        f"    with pl.at(level=pl.Level.CORE_GROUP, name_hint='f{j}'):\n"
        f"        t{j} = pl.load(p{j}, [0, 0], [16, 64])\n"
        for j in range(n)
    )
    head = "@pl.function(type=pl.FunctionType.Orchestration)\ndef main(x: pl.Tensor[[V, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
    return HEAD + head + body + "    return x\n"


def many_slices_in_a_scope(n: int) -> str:
    """One ``pl.at`` scope that reads many slices, of tensors of static and dynamic shape
    (OptimizeOrchTensors' strides decided for each captured slice)."""
    slices = "".join(
        f"    p{j} = pl.slice({'x' if j % 2 else 'y'}, [16, 64], [0, 0], valid_shape=[16, n])\n"
        for j in range(n)
    )
    reads = "".join(f"        t{j} = pl.load(p{j}, [0, 0], [16, 64])\n" for j in range(n))
    head = (
        "@pl.function(type=pl.FunctionType.Orchestration)\n"
        "def main(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[V, 64], pl.FP32], "
        "n: pl.Scalar[pl.INDEX]):\n"
    )
    scope = "    with pl.at(level=pl.Level.CORE_GROUP, name_hint='f'):\n"
    return HEAD + head + slices + scope + reads + "    return x\n"


def many_methods(n: int) -> str:
    """A program of many kernels, each called by its orchestration (``self.k(...)``)."""
    kernels = "".join(
        f"    @pl.function(type=pl.FunctionType.InCore)\n"
        f"    def k{j}(self, x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)]):\n"
        "        return x\n\n"
        for j in range(n)
    )
    calls = "".join(f"        a{j} = self." + CALL.format(i=j) + "\n" for j in range(n))
    main = (
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self, src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
    )
    return HEAD + "@pl.program\nclass P:\n" + kernels + main + calls + "        return src\n"


# shape: (the text of size n, n for its analysis, n for the batch screen)
SHAPES: dict[str, tuple[Callable[[int], str], int, int]] = {
    "many kernels": (many_kernels, 160, 580),
    "a long line": (long_line, 900, 2_600),
    "many call sites": (many_call_sites, 850, 4_400),
    "a long parameter list": (long_parameter_list, 1_200, 1_600),
    "a long parameter line": (long_parameter_line, 4_000, 2_300),
    "many pl.dynamic symbols": (many_dynamic_symbols, 2_400, 8_500),
    "many unbound symbols of a called kernel": (unbound_symbols_called, 1_500, 2_500),
    "sliced inputs of a called kernel": (sliced_inputs_called, 600, 1_200),
    "deep nesting": (deep_nesting, 80, 280),
    "a long string": (long_string, 50_000, 100_000),
    "a huge hex literal": (huge_literal, 6_400_000, 5_000_000),
    "long names": (long_names, 1_800_000, 1_000_000),
    "a long non-ASCII line": (non_ascii_line, 200, 2_000),
    "a line of def words": (def_words, 400_000, 5_000),
    "many pypto names imported": (many_aliases, 1_200, 4_100),
    "many pl.at scopes": (many_scopes, 900, 1_500),
    "many slices read in one pl.at scope": (many_slices_in_a_scope, 900, 1_500),
    "a program of many kernels": (many_methods, 500, 800),
}
MEMO = Memo()  # what a session keeps; each timed run starts from it cleared


def assert_linear(small: Callable[[], object], large: Callable[[], object], growth: float) -> None:
    """``linear_time.assert_linear`` from an empty memo (``growth``: how much larger the large
    input is)."""
    linear_time.assert_linear(small, large, growth, before=MEMO.clear)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_pl_input_shape_costs_linear_time(shape: str) -> None:
    make, n, _ = SHAPES[shape]
    small, large = make(n), make(2 * n)
    pipeline.analyze("k.py", small, memo=MEMO)  # (imports and the first run are not timed)
    assert_linear(
        lambda: pipeline.analyze("k.py", small, memo=MEMO),
        lambda: pipeline.analyze("k.py", large, memo=MEMO),
        len(large) / len(small),
    )


def test_the_summary_of_a_kernel_of_many_sliced_inputs_costs_linear_time() -> None:
    """``analyze_module`` (what hover and the differential read) says which of a kernel's
    symbols the pass still adds after ``pl.compile``'s pipeline: once per symbol."""
    small, large = sliced_inputs_called(600), sliced_inputs_called(1_200)
    analyze_module("k.py", small, None, MEMO.pl)
    assert_linear(
        lambda: analyze_module("k.py", small, None, MEMO.pl),
        lambda: analyze_module("k.py", large, None, MEMO.pl),
        len(large) / len(small),
    )


def screened(text: str) -> object:
    """What the batch screen reads of a text it is given (``screen.may_have_findings``)."""
    return screen.screen(text), screen.scopes_may_gain(text), screen.parses("k.py", text)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_pl_input_shape_costs_linear_time_in_the_batch_screen(shape: str) -> None:
    make, _, n = SHAPES[shape]
    small, large = make(n), make(2 * n)
    assert_linear(lambda: screened(small), lambda: screened(large), len(large) / len(small))


NOTES = "\n\n# " + "Tiles a row; the valid length comes from the caller. " * 2_000 + "\n"


def workspace(root: Path, files: int) -> list[Path]:
    """``files`` modules, each with a kernel that has an unbound symbol, called in its
    module and in the next one, which imports it, and a long comment (the index searches
    every file for each kernel's name)."""
    root.mkdir()
    paths = []
    for i in range(files):
        body = "    return " + CALL.format(i=i)
        if i:
            body = f"    a = m{i - 1}." + CALL.format(i=i - 1) + "\n" + body
        imports = f"import m{i - 1}\n" if i else ""
        path = root / f"m{i}.py"
        path.write_text(HEAD.replace("\n\n", f"\n{imports}\n", 1) + kernel(i, body) + NOTES)
        paths.append(path)
    return paths


def test_a_workspace_of_many_files_costs_linear_time(tmp_path: Path) -> None:
    sizes = (40, 80)
    trees = {size: workspace(tmp_path / str(size), size) for size in sizes}

    def check(size: int) -> Callable[[], object]:
        def run() -> object:
            batch = Workspace([tmp_path / str(size)], screen=True)
            return [check_text(str(p), p.read_text(), batch, MEMO.pl) for p in trees[size]]

        return run

    assert sum(len(f) for f in check(40)()) == 40  # a VS001 per kernel
    assert_linear(check(sizes[0]), check(sizes[1]), 2.0)


@pytest.mark.parametrize("report", [render_json, lambda found: render_sarif(found, ".")])
def test_the_report_of_many_unbound_symbols_grows_in_proportion(
    report: Callable[[list[Finding]], str],
) -> None:
    """A finding for each symbol repeated the kernel's whole fix and the extents of every
    call: 37 MB of JSON for 1,000 symbols, four times as much for twice as many."""
    sizes = []
    for n in (500, 1000):
        findings = pipeline.analyze("k.py", unbound_symbols_called(n))
        assert [f.code for f in findings] == ["VS001"]
        sizes.append(len(report(findings)))
    assert sizes[1] <= 2.2 * sizes[0], sizes
