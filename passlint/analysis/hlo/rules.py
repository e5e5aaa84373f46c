"""The HLO front end's rule (E010, a syntax error), declared once; the module imports
nothing of the parser, so the catalog reads it without loading the front end."""

from __future__ import annotations

from passlint.analysis.findings import Severity
from passlint.analysis.rules import Rule, by_code

HLO_SYNTAX_ERROR = Rule(
    code="E010",
    name="hlo-syntax-error",
    severity=Severity.ERROR,
    summary="The HLO text does not parse: a malformed module header, computation, "
    "instruction, shape or attribute, an unclosed bracket, string or comment, an "
    "instruction defined twice, or an operand naming no instruction of its computation.",
    why="XLA's HLO parser rejects the module, and nothing after the error can be trusted by "
    "the passes; passlint goes on at the next line so every broken instruction is reported.",
    example="HloModule m\n\nENTRY main {\n  ROOT x = f32[2] parameter(0\n}",
)

HLO_SYNTAX_RULES = by_code(HLO_SYNTAX_ERROR)
