"""The streaming reader (``passlint.streaming``) costs linear time and bounded memory on every
shape of input it reads: the CPU time of a run at 4n is at most ~2.2x per doubling that at n
(``linear_time``), and what it holds at once grows with the names it reads only (the file
is read a window at a time; a name costs an entry of an array, or of a dict).

The shapes: the body of a model dump (one-line ops, one after the other), holes cut by a
line kept in the text at every other line, many small functions, names numbered far apart,
a name used by every line of a hole but defined outside it, a line of megabytes in a body,
and a hole line whose alias is defined at the end of the file.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest
from linear_time import assert_doubling_linear

from passlint.memo import Memo
from passlint.streaming import analyze_streamed

MEMO = Memo()
HEAD = "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"
TAIL = "  return %arg0 : tensor<4xf32>\n}\n"
ADD = "  %{n} = stablehlo.add %{p}, %arg1 : tensor<4xf32>\n"


def run(text: bytes) -> object:
    return analyze_streamed("s.mlir", text, None, MEMO)


def _fresh() -> None:
    MEMO.clear()


def dump(n: int) -> bytes:
    return (
        HEAD + "".join(ADD.format(n=i, p=i - 1 if i else "arg0") for i in range(n)) + TAIL
    ).encode()


SHAPES: dict[str, Callable[[int], bytes]] = {
    "a dump's body": dump,
    "holes cut at every other line": lambda n: (
        HEAD
        + "".join(
            ADD.format(n=i, p=i - 1 if i else "arg0")
            + f'  %k{i} = "x.y"(%{i}) ({{\n  }}) : (tensor<4xf32>) -> tensor<4xf32>\n'
            for i in range(n // 2)
        )
        + TAIL
    ).encode(),
    "many small functions": lambda n: "".join(
        HEAD.replace("@main", f"@f{i}") + ADD.format(n=0, p="arg0") + TAIL for i in range(n // 3)
    ).encode(),
    "names numbered far apart": lambda n: (
        HEAD
        + "".join(ADD.format(n=i * 100_003, p=(i - 1) * 100_003 if i else "arg0") for i in range(n))
        + TAIL
    ).encode(),
    "a name defined outside every hole": lambda n: (
        HEAD
        + '  %x = "x.y"() ({\n  }) : () -> tensor<4xf32>\n'
        + "".join(f"  %{i} = stablehlo.add %x, %arg1 : tensor<4xf32>\n" for i in range(n))
        + TAIL
    ).encode(),
    "a line of megabytes in a body": lambda n: (
        HEAD
        + ADD.format(n=0, p="arg0")
        + "  %big = stablehlo.constant dense<["
        + ", ".join(["1.0"] * (n * 8))
        + f"]> : tensor<{n * 8}xf32>\n"
        + TAIL
    ).encode(),
    "aliases defined at the end": lambda n: (
        "".join(dump(n).decode().replace(" : tensor<4xf32>\n", " : tensor<4xf32> loc(#l)\n", n))
        + '#l = loc("x.py":1:1)\n'
    ).encode(),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_linear_time(shape: str) -> None:
    assert_doubling_linear(SHAPES[shape], run, 256, before=_fresh)


def held(text: bytes) -> int:
    """The most the reader holds at once (traced) while it reads ``text``."""
    _fresh()
    tracemalloc.start()
    try:
        assert run(text) is not None
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# Bytes held per byte of input, at most, between 8 and 16 MB of a shape: a window and its
# lines (the same at any size), and an entry per name: 8 bytes for a numbered name (an
# array), about 140 for one that is not or whose number is far beyond the lines read (a dict).
PER_BYTE = {"a dump's body": 0.2, "names numbered far apart": 2.5}


@pytest.mark.parametrize("shape", PER_BYTE)
def test_memory_grows_with_the_names_only(shape: str) -> None:
    small, large = SHAPES[shape](150_000), SHAPES[shape](300_000)
    assert len(large) > 15_000_000
    held(SHAPES[shape](1000))  # (what a first run loads: the parser's tables)
    grown = (held(large) - held(small)) / (len(large) - len(small))
    assert grown < PER_BYTE[shape], f"{grown:.2f} bytes held per byte of input"
