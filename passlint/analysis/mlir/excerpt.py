"""How a message quotes its input: a short excerpt, never the whole text.

A name, a token or a type written in a message (a diagnostic, a hover, a fix's title) is
quoted through ``excerpt``: a 50 MB token made a 52-million-character message before."""

from __future__ import annotations

LONGEST = 40  # characters of a quote, at most


def excerpt(text: str, longest: int = LONGEST) -> str:
    """``text``, or its first characters and ``...`` when it has more than ``longest``."""
    return text if len(text) <= longest else text[: longest - 3] + "..."
