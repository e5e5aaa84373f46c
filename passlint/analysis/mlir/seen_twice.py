"""A bounded cache for results keyed by text, that keeps a result from the second time its
key is seen.

Test suites repeat lines and statements verbatim, so the line cuts and the templates by
statement text pay off there; a model dump's lines are all distinct (each names its own SSA
values), and keeping each one's result would only hold megabytes no lookup ever reads again.
The first time a key is seen only its hash is kept.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class SeenTwice(Generic[Key, Value]):
    """``get`` a result; ``offer`` one just computed, with its size (in any unit): it is
    kept if its key was offered before (``sighted`` then ``keep``, when computing it costs
    more for the keeping). Past ``limit`` (sizes held), or past ``SEEN_LIMIT``
    keys seen once, that part starts afresh."""

    SEEN_LIMIT = 20_000  # hashes of keys seen once (about 1 MB)

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0
        self.kept: dict[Key, Value] = {}
        self.seen: set[int] = set()

    def get(self, key: Key) -> Value | None:
        return self.kept.get(key)

    def offer(self, key: Key, value: Value, size: int) -> None:
        if self.sighted(key):
            self.keep(key, value, size)

    def sighted(self, key: Key) -> bool:
        """Was ``key`` seen before? (This sighting is recorded.)"""
        marker = hash(key)
        if marker in self.seen:
            return True
        if len(self.seen) >= self.SEEN_LIMIT:
            self.seen.clear()
        self.seen.add(marker)
        return False

    def keep(self, key: Key, value: Value, size: int) -> None:
        """Keep ``value`` for ``key`` (starting afresh past the bound)."""
        if self.held + size > self.limit:
            self.kept.clear()
            self.held = 0
        self.kept[key] = value
        self.held += size

    def clear(self) -> None:
        self.kept.clear()
        self.seen.clear()
        self.held = 0
