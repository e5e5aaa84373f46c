"""What an analysis keeps alive once a newer version of the document is analysed (P9: a
multi-megabyte text kept by a cache is megabytes the server never gives back)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from passlint.analysis.mlir.ir import Operation
from passlint.analysis.mlir.parser import parse_file
from passlint.quick import quick_analyze

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import mlir_module


def _kept_by_operations(text: str) -> list[Operation]:
    gc.collect()
    return [r for r in gc.get_referrers(text) if isinstance(r, Operation)]


@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("inserted", [" =  ", " = "])  # the body grows / keeps its length
def test_quick_answer_of_a_new_version_releases_the_old_text(generic: bool, inserted: str) -> None:
    old = mlir_module(3, generic=generic)
    assert quick_analyze("/m.mlir", old)
    # Nothing of the answer is kept: later versions may reuse it (QuickMemo) for long.
    assert _kept_by_operations(old) == []
    # An edit in @main's body: the parse of @main's header is reused where it can be.
    at = old.index(" = ", len(old) // 2)
    new = old[:at] + inserted + old[at + 3 :]
    assert quick_analyze("/m.mlir", new)
    assert _kept_by_operations(old) == []


@pytest.mark.parametrize("generic", [False, True])
def test_a_released_ir_is_freed_without_the_collector(generic: bool) -> None:
    """A batch check releases each file's IR (``ParsedFile.release``): reference counting
    frees it all, so the collector has no cycles of it to traverse."""
    text = mlir_module(3, generic=generic)
    gc.collect()
    gc.disable()
    try:
        parsed = parse_file(text)
        assert sum(len(top.walk()) for chunk in parsed.chunks for top in chunk.operations) > 50
        parsed.release()
        del parsed
        assert gc.collect() == 0
    finally:
        gc.enable()
