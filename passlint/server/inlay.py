"""Inlay hints: the output name after each op (or input) that produces an output of @main.

An output named in place shows ``→ name`` after the op the pass names; an output the pass
copies shows ``→ copy 'name'`` after the constant or input it copies (a value returned twice
shows it at its later slot in the return).
"""

from __future__ import annotations

from dataclasses import dataclass

from passlint.passes.tensorizer_legalization import Output
from passlint.server.models import MlirModel


@dataclass(frozen=True)
class Hint:
    offset: int
    label: str
    tooltip: str


def mlir_hints(model: MlirModel, start: int, end: int) -> list[Hint]:
    """Hints whose offset lies in ``[start, end]``, in text order."""
    grouped: dict[int, list[tuple[str, Output]]] = {}
    for index in model.chunks:
        if index.chunk.end < start or index.chunk.start > end:
            continue
        for output in index.analysis.outputs:
            placed = output.case.inlay_place(output)
            if placed is not None and start <= placed[0] <= end:
                grouped.setdefault(placed[0], []).append((placed[1], output))
    hints = []
    for offset in sorted(grouped):
        entries = grouped[offset]
        label = "→ " + ", ".join(text for text, _ in entries)
        tooltip = "\n".join(
            f"output {output.slot} '{output.name}' ({output.case.name})" for _, output in entries
        )
        hints.append(Hint(offset, label, tooltip))
    return hints
