"""Short quotes of the source's own words (names, symbols, expressions) for messages: a
message quotes at most a short excerpt of a token, however long the token is."""

from __future__ import annotations

EXCERPT = 60  # characters quoted of a longer word, before the "..."


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text``, or its first ``limit`` characters and ``...`` when it is longer."""
    return text if len(text) <= limit else text[:limit] + "..."
