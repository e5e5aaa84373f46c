"""PL100's fix removes a stale suppression and nothing else: the rest of the comment stays
a comment, a comment line goes with its own line break."""

from __future__ import annotations

import pytest

from passlint import pipeline
from passlint.analysis.edits import apply_edits
from passlint.config import Settings

PL = "import pypto.language as pl\n"
MLIR_MAIN = "func.func @main() {\n  return\n}\n"


def fixed(path: str, text: str) -> str:
    settings = Settings(extend_select=("PL100",))
    (finding,) = [f for f in pipeline.analyze(path, text, settings) if f.code == "PL100"]
    assert finding.fix is not None
    return apply_edits(text, finding.fix.edits)


@pytest.mark.parametrize(
    ("text", "after"),
    [
        (
            PL + "x = 1  # passlint: ignore[VS001] (kept for now)\n",
            PL + "x = 1  # (kept for now)\n",
        ),
        (PL + "# passlint: ignore[VS001] why\nx = 1\n", PL + "# why\nx = 1\n"),
        (PL + "# passlint: ignore[VS001]\nx = 1\n", PL + "x = 1\n"),
        (PL + "x = 1  # passlint: ignore[VS001]\n", PL + "x = 1\n"),
        (PL + "x = 1  # passlint: ignore[VS001]", PL + "x = 1"),
        (
            PL.replace("\n", "\r\n") + "# passlint: ignore[VS001]\r\nx = 1\r\n",
            PL.replace("\n", "\r\n") + "x = 1\r\n",
        ),
    ],
)
def test_pl(text: str, after: str) -> None:
    assert fixed("k.py", text) == after
    assert pipeline.analyze("k.py", after, Settings(extend_select=("PL100",))) == []


def test_mlir_keeps_the_rest_of_the_comment() -> None:
    text = MLIR_MAIN.replace("  return\n", '  return // passlint: ignore[TL001] "quoted"\n')
    assert fixed("m.mlir", text) == MLIR_MAIN.replace("  return\n", '  return // "quoted"\n')
