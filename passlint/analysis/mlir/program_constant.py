"""Values the front end builds once, on first use, from the program alone (the statement
grammar, its LALR tables): the same for every input, so they are constants, not caches, and
no memo holds them."""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper, cache
from typing import TypeVar

Value = TypeVar("Value")


def program_constant(build: Callable[[], Value]) -> _lru_cache_wrapper[Value]:
    """``build`` (which takes no argument: it reads no input) called once, on first use; its
    result is returned ever after (``cache_clear`` builds it again, for a test that changes
    the program, such as the grammar's digest)."""
    return cache(build)
