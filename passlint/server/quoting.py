"""How the server quotes a document's own words (names, symbols, expressions, file names)
in what the editor shows: hover, inlay hints, document symbols, completion details.

A quote is a bounded excerpt (``excerpt``: a 50 MB name shows its first characters and
``...``), with every character that could steer or break the layout written as a visible
escape (``terminal_safe``: ``\\n``, ``\\x1b``, ``\\u202e``...). In Markdown a quote is a code
span, and a backtick inside it is written ``\\x60``: it would end the span.
"""

from __future__ import annotations

from passlint.analysis.pl.excerpt import EXCERPT, excerpt
from passlint.report.escape import terminal_safe


def shown(text: str, limit: int = EXCERPT) -> str:
    """``text`` as plain text for the editor: at most ``limit`` of its characters (and
    ``...``), hidden and controlling characters escaped."""
    return terminal_safe(excerpt(text, limit))


def escaped(text: str) -> str:
    """A sentence passlint wrote (quoting its input in excerpts already), its hidden and
    controlling characters escaped."""
    return terminal_safe(text)


def code(text: str, limit: int = EXCERPT) -> str:
    """``text`` as a Markdown code span of ``shown`` text."""
    return "`" + shown(text, limit).replace("`", "\\x60") + "`"
