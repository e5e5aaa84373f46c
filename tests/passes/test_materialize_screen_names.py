"""The screen's sure names (``screen_names``): a shape name bound once, at module level,
as a ``pl.dynamic`` symbol or an int (any other binding of the name anywhere sends the file
to the full analysis), or a parameter or plain assignment of the function around the
kernel above it, lets a kernel's header pass the screen without the full analysis."""

from __future__ import annotations

import re

import pytest
from linear_time import assert_doubling_linear

from passlint.passes.materialize_valid_shape_symbols.screen import screen
from passlint.passes.materialize_valid_shape_symbols.screen_names import SureNames

IMPORT = "import pypto.language as pl\n"
ASKED = ("M", "N", "rows")  # the names the kernels' headers read


def sure(text: str) -> set[str]:
    names = SureNames(text, lambda offset: True, ASKED)
    return {name for name in ("M", "N") if names.before(name, len(text))}


def test_module_level_symbols_and_ints_are_sure() -> None:
    text = IMPORT + 'M = pl.dynamic("M")  # rows\nN = 64\n'
    assert sure(text) == {"M", "N"}  # (module level: any single assignment)
    assert not SureNames(text, lambda offset: True, ASKED).before("M", len(IMPORT))  # not yet bound


def test_only_the_names_asked_are_looked_up_as_globals() -> None:
    text = IMPORT + 'M = pl.dynamic("M")\nN = 64\n'
    names = SureNames(text, lambda offset: True, ["N"])
    assert names.before("N", len(text)) and not names.before("M", len(text))


def test_a_name_right_after_a_non_ascii_letter_may_end_another() -> None:
    # ``éM`` is a name of its own; in ``_éM`` the M is looked at as a name too (the screen
    # finds names by their spelling), which only makes M unsure: the file is analysed.
    assert sure(IMPORT + 'M = pl.dynamic("M")\néM = 3\n') == {"M"}
    assert sure(IMPORT + 'M = pl.dynamic("M")\n_éM = 3\n') == set()


def test_reads_keep_a_name_sure() -> None:
    text = IMPORT + (
        'M = pl.dynamic("M")\n'
        "def build(x: pl.Tensor[[M, 128], pl.FP32], n=M):\n"
        "    t = pl.create_tensor([M, 128], dtype=pl.FP32)\n"
        "    for i in pl.range(M):\n"
        "        t = pl.add(t, f(M))\n"
        "    return {M: t}, (M, t)\n"
    )
    assert sure(text) == {"M"}


@pytest.mark.parametrize(
    "binding",
    [
        "M = 3",
        "M += 1",
        "a, M = 1, 2",
        "[a, M] = 1, 2",
        "M: int = 3",
        "M: int",
        "(M := 3)",
        "for M in range(3): pass",
        "for a, M in []: pass",
        "with open('f') as M: pass",
        "import os as M",
        "from os import path as M",
        "from os import (\n    sep,\n    M,\n)",
        "def M(): pass",
        "class M: pass",
        "def build(x, M): pass",
        "def build(\n    x,\n    M: int = 3,\n): pass",
        "def build(*M): pass",
        "f = lambda M: M",
        "global M",
        "del M",
        "try:\n    pass\nexcept Exception as M:\n    pass",
    ],
)
def test_any_other_binding_makes_a_name_unsure(binding: str) -> None:
    text = IMPORT + 'M = pl.dynamic("M")\nN = 4\n' + binding + "\n"
    assert sure(text) == {"N"}, binding


@pytest.mark.parametrize(
    "definition",
    [
        'M = pl.dynamic("M")',
        "M = some_module.rows(4)",
        "M, N = 16, 128",
        "(M, N) = 16, 128",
        "M = N = 64",
        "M: int = 64",
        "M = (\n    64\n)",
    ],
)
def test_any_single_assignment_at_module_level_binds_a_global(definition: str) -> None:
    names = SureNames(IMPORT + definition + "\n", lambda offset: True, ASKED)
    end = len(IMPORT + definition) + 1
    assert names.before("M", end)
    assert names.before("N", end) is ("N" in definition)


@pytest.mark.parametrize(
    "text",
    [
        IMPORT + 'if True:\n    M = pl.dynamic("M")\n',  # not at module level, maybe not run
        IMPORT + 'x = f(\nM = pl.dynamic("M"))\n',  # a keyword argument
        IMPORT + 'M = pl.dynamic("M")\nfrom os import *\n',
        IMPORT + "M.rows = 3\nM[0] = 3\n",  # reads
        IMPORT + "M: int\n",  # annotated, not bound
    ],
)
def test_other_definitions_are_not_sure(text: str) -> None:
    assert sure(text) == set()


def test_a_definition_in_a_string_is_not_sure() -> None:
    text = IMPORT + '"""\nM = pl.dynamic("M")\n"""\n'
    start = text.index("M =")
    names = SureNames(text, lambda offset: not start - 4 <= offset <= start + 30, ASKED)
    assert not names.before("M", len(text))


BUILDER = """\
import pypto.language as pl

def build(rows, *, cols: int = 4):
    depth = rows * 2
    a, b = 1, 2
    holder.attr = 3
    if rows:
        wide = 8
    gone = 1
    del gone

    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x):
            return x
    late = 5
    return P
"""


@pytest.mark.parametrize(
    ("name", "is_sure"),
    [
        ("rows", True),
        ("cols", True),
        ("depth", True),
        ("a", True),
        ("b", True),
        ("holder", False),  # read, not bound
        ("wide", False),  # in a nested block: maybe not bound
        ("gone", False),  # deleted
        ("late", False),  # bound after the kernel
        ("P", False),
        ("other", False),
    ],
)
def test_the_function_around_a_kernel_binds_its_parameters_and_plain_assignments(
    name: str, is_sure: bool
) -> None:
    kernel = BUILDER.index("        def k(")
    assert SureNames(BUILDER, lambda offset: True, [name]).before(name, kernel) is is_sure


def test_a_header_closed_on_a_line_of_its_own_opens_the_body_of_its_def() -> None:
    # The style black writes a long signature in: ``) -> T:`` is no statement, so it does
    # not stand for the block the body's lines are in.
    text = IMPORT + (
        "def build(\n"
        "    shape: tuple[int, int] = (32, 32),\n"
        ") -> object:\n"
        "    rows, cols = shape\n"
        "    table = [\n"
        "        1,\n"
        "    ]\n"
        "    depth = 2\n"
        "\n"
        "    @pl.program\n"
        "    class P:\n"
        "        @pl.function(type=pl.FunctionType.InCore)\n"
        "        def k(self, x: pl.Tensor[[rows, cols, depth], pl.FP32]):\n"
        "            return x\n"
        "    return P\n"
    )
    kernel = text.index("        def k(")
    names = SureNames(text, lambda offset: True, ["rows", "cols", "depth", "table"])
    assert all(names.before(name, kernel) for name in ("rows", "cols", "depth", "table"))


def _builder_of(kernels: int) -> str:
    """A module-level symbol read everywhere, and one builder holding ``kernels`` kernels
    whose shapes read its parameters and locals."""
    body = "".join(
        f"    @pl.function(type=pl.FunctionType.InCore)\n"
        f"    def k{n}(x: pl.Tensor[[rows, M, local{n % 7}], pl.FP32]) -> pl.Tensor[[M], pl.FP32]:\n"
        f"        return pl.add(x, pl.full([M, rows], dtype=pl.FP32))\n"
        for n in range(kernels)
    )
    locals_ = "".join(f"    local{n} = {n}\n" for n in range(7))
    return IMPORT + 'M = pl.dynamic("M")\n\ndef build(rows):\n' + locals_ + body


def test_sure_names_cost_linear_time() -> None:
    def run(text: str) -> None:
        names = SureNames(text, lambda offset: True, ASKED)
        for match in re.finditer(r"    def k\d+", text):
            assert names.before("rows", match.start()) and names.before("M", match.start())

    assert_doubling_linear(_builder_of, run, 200)


def test_a_header_reading_many_names_costs_linear_time() -> None:
    """The screen asks about every name a kernel's header reads: one pattern of them all
    would cost their number times the text."""

    def build(n: int) -> str:
        names = [f"{chr(65 + i % 26)}{chr(97 + i // 26 % 26)}{i}" for i in range(n)]
        globals_ = "".join(f"{name} = {i}\n" for i, name in enumerate(names))
        shape = ", ".join(names)
        return (
            IMPORT
            + globals_
            + "@pl.function(type=pl.FunctionType.InCore)\n"
            + f"def k(x: pl.Tensor[[{shape}], pl.FP32]):\n    return x\n"
        )

    assert_doubling_linear(build, screen, 400)
