"""Fuzzing the pl front end, MaterializeValidShapeSymbols and its fixes (see fuzz_checks)."""

from __future__ import annotations

from fuzz_checks import check_document
from fuzz_gen import mutated_pl, pl_source
from hypothesis import given
from hypothesis import strategies as st

ROOT = "/fuzz"
PATH = "/fuzz/kernels.py"
PROGRAM = "/fuzz/program.py"


@given(pl_source())
def test_generated_sources(text: str) -> None:
    check_document("pl generated", PATH, {PATH: text}, ROOT)


@given(mutated_pl())
def test_mutated_fixtures(text: str) -> None:
    check_document("pl mutated", PATH, {PATH: text}, ROOT)


@st.composite
def program_calling(draw: st.DrawFn) -> str:
    """A second file importing the kernels (absolutely or relatively) and calling them."""
    names = draw(st.lists(st.sampled_from(["k0", "k1", "k2", "missing"]), min_size=1, unique=True))
    form = draw(st.sampled_from(["from kernels import", "from .kernels import"]))
    lines = [
        "import pypto.language as pl",
        f"{form} {', '.join(names)}",
        "",
        "@pl.function(type=pl.FunctionType.Orchestration)",
        "def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):",
        "    a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])",
    ]
    for name in draw(st.lists(st.sampled_from(names), max_size=4)):
        lines.append(f"    r = {name}({draw(st.sampled_from(['a', 'src', 'a, src', '']))})")
    lines.append("    return a")
    return "\n".join(lines) + "\n"


@given(pl_source(), program_calling())
def test_generated_cross_file(kernels: str, program: str) -> None:
    """Fixes that edit call sites in another file keep both files parsing and intact."""
    check_document("pl cross-file", PATH, {PATH: kernels, PROGRAM: program}, ROOT)
