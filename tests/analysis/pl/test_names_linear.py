"""Linear time on the name shapes of the provenance model: doubling the input at most about
doubles the CPU time of its analysis (``linear_time``), from empty caches: many symbols made
by a helper, one call making many symbols (each name reads the call's remembered value),
a long helper called many times, a helper of many unknown branches called many times, many
keywords into ``**kwargs`` and nested comprehensions (the resolver's step budget), and many names the
parser makes under postponed annotations."""

from __future__ import annotations

from collections.abc import Callable

import linear_time
import pytest

from passlint.analysis.pl.memo import PlMemo
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

MEMO = PlMemo()  # each timed run starts from a cleared memo
HEAD = "import pypto.language as pl\n\n\ndef dims(*names):\n    return tuple(pl.dynamic(n) for n in names)\n\n"
KERNEL = (
    "\n@pl.function(type=pl.FunctionType.InCore)\n"
    "def k{i}(x: pl.Tensor[[64], pl.FP32, pl.TensorView(valid_shape=[{names}])]):\n"
    "    return x\n"
)


def many_helper_bindings(n: int) -> str:
    """A symbol made by the helper for each of ``n`` kernels."""
    bindings = "".join(f'(S{i},) = dims("S{i}")\n' for i in range(n))
    return HEAD + bindings + "".join(KERNEL.format(i=i, names=f"S{i}") for i in range(n))


def one_call_many_symbols(n: int) -> str:
    """One call unpacked into ``n`` names, each read by a kernel of its own."""
    names = ", ".join(f"S{i}" for i in range(n))
    strings = ", ".join(f'"S{i}"' for i in range(n))
    binding = f"{names}, = dims({strings})\n" if n == 1 else f"{names} = dims({strings})\n"
    return HEAD + binding + "".join(KERNEL.format(i=i, names=f"S{i}") for i in range(n))


def long_helper_called_often(n: int) -> str:
    """A helper of ``n`` statements, called by ``n`` bindings."""
    body = "".join(f"    v{j} = {j}\n" for j in range(n))
    helper = f"def dim(name):\n{body}    return pl.dynamic(name)\n\n"
    bindings = "".join(f'S{i} = dim("S{i}")\n' for i in range(n))
    kernels = "".join(KERNEL.format(i=i, names=f"S{i}") for i in range(n))
    return "import pypto.language as pl\n\n" + helper + bindings + kernels


def branching_helper_called_often(n: int) -> str:
    """A helper of ``n`` branches whose condition is unknown (each re-binds the returned
    local), called by ``n`` bindings."""
    branches = "".join("    if flag:\n        s = pl.dynamic(name)\n" for _ in range(n))
    helper = f"def dim(name, flag):\n    s = pl.dynamic(name)\n{branches}    return s\n\n"
    bindings = "".join(f'S{i} = dim("S{i}", os.environ.get("F"))\n' for i in range(n))
    kernels = "".join(KERNEL.format(i=i, names=f"S{i}") for i in range(n))
    return "import os\n\nimport pypto.language as pl\n\n" + helper + bindings + kernels


def many_kwargs(n: int) -> str:
    """One call passing ``n`` keywords into ``**kw``, each read by the helper."""
    keys = ", ".join(f'"k{j}"' for j in range(n))
    keywords = ", ".join(f'k{j}="S{j}"' for j in range(n))
    names = ", ".join(f"S{i}" for i in range(n))
    helper = "def dims(keys, **kw):\n    return tuple(pl.dynamic(kw[k]) for k in keys)\n\n"
    binding = f"{names}, = dims(({keys},), {keywords})\n"
    kernels = "".join(KERNEL.format(i=i, names=f"S{i}") for i in range(n))
    return "import pypto.language as pl\n\n" + helper + binding + kernels


def nested_comprehension(n: int) -> str:
    """A helper whose value is a comprehension over a comprehension of ``n`` names."""
    strings = ", ".join(f'"S{i}"' for i in range(n))
    helper = "def grid(*ns):\n    return [[pl.dynamic(a) for b in ns] for a in ns]\n\n"
    return (
        "import pypto.language as pl\n\n"
        + helper
        + f"S = grid({strings})\n"
        + KERNEL.format(i=0, names="S")
    )


def postponed_names(n: int) -> str:
    """``n`` kernels reading names nothing defines, with postponed annotations."""
    head = "from __future__ import annotations\n\nimport pypto.language as pl\n"
    return head + "".join(KERNEL.format(i=i, names=f"U{i}") for i in range(n))


SHAPES: dict[str, tuple[Callable[[int], str], int, int]] = {
    # shape: (make, a size, the VS001 findings at that size)
    "many symbols made by a helper": (many_helper_bindings, 200, 200),
    "one call making many symbols": (one_call_many_symbols, 200, 200),
    "a long helper called often": (long_helper_called_often, 200, 200),
    "a nested comprehension": (nested_comprehension, 200, 0),
    "many keyword arguments": (many_kwargs, 200, 200),
    "many names the parser makes": (postponed_names, 200, 200),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_name_shape_costs_linear_time(shape: str) -> None:
    make, n, found = SHAPES[shape]

    def run(text: str) -> object:
        return check_text("k.py", text, None, MEMO)

    text = make(n)
    findings = check_text("k.py", text, None)
    # each kernel's view has no layout (VS009), which pypto's parser supplies when postponed
    layoutless = 0 if "from __future__ import annotations" in text else text.count("TensorView(")
    assert [f.code for f in findings if f.code != "VS009"] == ["VS001"] * found
    assert [f.code for f in findings if f.code == "VS009"] == ["VS009"] * layoutless
    linear_time.assert_doubling_linear(make, run, n, before=MEMO.clear)


def test_a_branching_helper_called_often_costs_linear_time_within_the_step_budget() -> None:
    # Each call runs the helper's branches (Python does that work too): past the resolver's
    # step budget (provenance.py: BASE_STEPS, STEPS_PER_CHARACTER) the later calls are left
    # unknown -- silence -- so the cost stays linear.
    small = check_text("k.py", branching_helper_called_often(20), None)
    assert [f.code for f in small] == ["VS009", "VS001"] * 20  # VS009: views without a layout
    n = 400
    found = check_text("k.py", branching_helper_called_often(n), None)
    assert len([f for f in found if f.code == "VS009"]) == n
    assert 0 < len([f for f in found if f.code == "VS001"]) < n

    def run(text: str) -> object:
        return check_text("k.py", text, None, MEMO)

    linear_time.assert_doubling_linear(branching_helper_called_often, run, n, before=MEMO.clear)
