"""Helpers shared by the MLIR front-end tests (imported by name; not a test module)."""

from __future__ import annotations

from pathlib import Path

from passlint.analysis.mlir.ir import Operation, ParsedFile

DATA = Path(__file__).resolve().parents[2] / "data" / "mlir"
CONSTRUCTS = DATA / "constructs"
SHARED_CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def lc(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def at(text: str, span: tuple[int, int] | None) -> str:
    assert span is not None
    return text[span[0] : span[1]]


def ops(parsed: ParsedFile) -> list[Operation]:
    """Every operation of every chunk, in textual order."""
    return [inner for chunk in parsed.chunks for op in chunk.operations for inner in op.walk()]


def op_named(parsed: ParsedFile, name: str, nth: int = 0) -> Operation:
    return [op for op in ops(parsed) if op.name == name][nth]


def op_defining(parsed: ParsedFile, result: str, nth: int = 0) -> Operation:
    return [op for op in ops(parsed) if any(r.name == result for r in op.results)][nth]
