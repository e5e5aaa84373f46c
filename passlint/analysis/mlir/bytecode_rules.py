"""The rule of MLIR bytecode jaxlib cannot read (E012), declared once, and its finding; the
module imports nothing of jaxlib, so the catalog reads it without loading the bindings."""

from __future__ import annotations

from passlint.analysis.findings import Finding, Position, Range, Severity
from passlint.analysis.rules import Rule, by_code

BYTECODE_UNREADABLE = Rule(
    code="E012",
    name="mlir-bytecode-unreadable",
    severity=Severity.ERROR,
    summary="A `*.mlirbc` file is not MLIR bytecode jaxlib's MLIR reader can read: it does "
    "not start with `ML\\xefR`, it is cut short, it was written by a newer MLIR, or it uses a "
    "dialect or a StableHLO portable artifact version this jaxlib does not know.",
    why="Bytecode is read by MLIR's own reader (jaxlib's bindings), never in part: nothing of "
    "a module it cannot read can be trusted, so no pass runs on it. The message quotes MLIR's "
    "diagnostics.",
    no_fix="none in the file; write it again (`module.operation.write_bytecode`, or "
    "`jax.export`'s serialization), or install the jax and jaxlib that wrote it.",
)

BYTECODE_RULES = by_code(BYTECODE_UNREADABLE)


def unreadable_finding(path: str, reason: str) -> Finding:
    """The one E012 finding of bytecode jaxlib cannot read, at 0:0 (a binary file has no
    lines)."""
    rule = BYTECODE_UNREADABLE
    message = (
        f"The MLIR bytecode cannot be read; write it again, or read it with the jaxlib that "
        f"wrote it. MLIR's reader says: {reason}."
    )
    nowhere = Range(Position(0, 0), Position(0, 0))
    return Finding(rule.code, rule.severity, path, nowhere, message)
