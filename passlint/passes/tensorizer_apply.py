"""TensorizerLegalization in apply mode: the module text after the whole pass."""

from __future__ import annotations


def legalize_text(text: str, pipeline: str = "auto") -> str:
    """The legalized module (placeholder until apply mode lands)."""
    return text
