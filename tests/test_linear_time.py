"""The doubling measure itself (``linear_time``): it passes a linear run and fails a quadratic
one at the sizes it finds."""

from __future__ import annotations

import pytest
from linear_time import assert_doubling_linear


def _linear(items: list[int]) -> int:
    return sum(item * 3 for item in items)


def _quadratic(items: list[int]) -> int:
    return sum(sum(items[:index]) for index in range(0, len(items), 4))


def test_a_linear_run_passes() -> None:
    assert_doubling_linear(lambda n: list(range(n)), _linear, 1024)


def test_a_quadratic_run_fails() -> None:
    with pytest.raises(AssertionError, match="doubling the input cost"):
        assert_doubling_linear(lambda n: list(range(n)), _quadratic, 64, repeats=1)
