"""The rule codes raised away from their rule's declaration, as checked names: the MLIR
parser's modules raise ``codes.E005`` (a typo is an attribute error mypy reports), while the
rule with its explanation is in ``analysis/mlir/syntax_findings.py``; the server's internal
error is PL002. Every other code is spelled once, as its ``Rule``'s ``code=``, and its
raiser names the rule (``MISSING_MAIN.code``). A test checks each constant against the
catalog, ``passlint.catalog``."""

from __future__ import annotations

from typing import Final

E001: Final = "E001"
E003: Final = "E003"
E004: Final = "E004"
E005: Final = "E005"
E006: Final = "E006"
E007: Final = "E007"
E008: Final = "E008"
E009: Final = "E009"
PL002: Final = "PL002"
