"""The batch screen's tests (``screen``), named so that each VS rule can declare beside its
check the ones that let a file with its findings through (``Rule.screened``)."""

from __future__ import annotations

from enum import Enum


class Precondition(Enum):
    """One test of the screen, a point of ``screen``'s docstring; they run in this order."""

    HEADER = "a kernel's header may read a symbol"  # (``screen``'s ``own``, or it cannot tell)
    CALL = "the file may call a kernel some file's header test picked out"
    SCOPE = "a pl.at scope may gain a symbol"
    SYNTAX = "the text does not parse"
