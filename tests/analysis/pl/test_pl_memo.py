"""The pl side's one memo: what it keeps, what ``forget_statements`` and ``clear`` drop, and
that the pl modules keep no cache of their own (module-level names are constants)."""

from __future__ import annotations

import ast
from pathlib import Path

from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import Module
from passlint.analysis.pl.resolve import load_module
from passlint.passes.materialize_valid_shape_symbols.cache import UnitMemo
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

PACKAGE = Path(__file__).resolve().parents[3] / "passlint"
DATA = Path(__file__).resolve().parents[2] / "data" / "pl"


def test_the_memo_keeps_modules_pieces_models_and_units_and_clear_drops_them() -> None:
    memo = PlMemo()
    text = (DATA / "valid_shape_cases.py").read_text()
    findings = check_text("m.py", text, None, memo)
    module = load_module("m.py", text, memo)
    assert isinstance(module, Module)
    assert load_module("m.py", text, memo) is module  # kept by path and text
    assert memo.pieces.pieces and memo.models.functions and memo.part(UnitMemo).units
    memo.forget_statements()  # what a batch run drops after each text: all but the modules
    assert not memo.pieces.pieces and not memo.pieces.classes
    assert not memo.models.functions and not memo.models.imports
    assert not memo.part(UnitMemo).units
    assert load_module("m.py", text, memo) is module
    memo.clear()
    assert not memo.modules
    assert load_module("m.py", text, memo) is not module
    assert check_text("m.py", text, None, memo) == findings == check_text("m.py", text, None)


def test_without_a_memo_nothing_is_kept() -> None:
    text = (DATA / "valid_shape_cases.py").read_text()
    assert load_module("m.py", text) is not load_module("m.py", text)


def test_the_pl_side_has_no_module_level_cache() -> None:
    """Every module-level name the pl modules bind is a constant (UPPER_CASE) or a type: a
    cache lives in ``PlMemo``."""
    folders = [PACKAGE / "analysis" / "pl", PACKAGE / "passes" / "materialize_valid_shape_symbols"]
    files = [p for folder in folders for p in sorted(folder.glob("*.py"))]
    files.append(PACKAGE / "analysis" / "workspace.py")
    found = []
    for path in files:
        for stmt in ast.parse(path.read_text()).body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else []
            if isinstance(stmt, ast.AnnAssign):
                targets = [stmt.target]
            for target in targets:
                name = target.id if isinstance(target, ast.Name) else ""
                if name.lstrip("_")[:1].islower() and not name.startswith("__"):
                    found.append(f"{path.name}: {name}")
    assert found == []
