"""One memo per run, made by the face: no module of the package holds one (nor the server's
converted diagnostics), and two `passlint check` runs in one process each analyse with a
memo of their own."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import passlint
from passlint import runner
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.pl.memo import PlMemo
from passlint.config import Settings
from passlint.memo import Memo
from passlint.runner import Job, check_files
from passlint.server.jobs import ConvertedFindings

MODULE = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n"
)
KERNEL = "import pypto.language as pl\n\n\n@pl.function\ndef k(x: pl.Tensor[[4], pl.FP32]):\n    return x\n"


def _every_module() -> list[str]:
    names = [passlint.__name__]
    for found in pkgutil.walk_packages(passlint.__path__, f"{passlint.__name__}."):
        if not found.name.endswith(".__main__"):  # (importing it runs the command line)
            names.append(found.name)
    return names


def test_no_module_of_the_package_holds_a_memo() -> None:
    held = []
    for name in _every_module():
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, Memo | MlirMemo | PlMemo | ConvertedFindings):
                held.append(f"{name}.{attribute}")
    assert len(_every_module()) > 100  # (every module was imported)
    assert held == []


def test_a_memo_clears_both_sides() -> None:
    memo = Memo()
    runner.check_text(
        "m.mlir", MODULE, Job(Settings(), ()), runner.make_workspace(Job(Settings(), ())), memo
    )
    assert memo.mlir.shapes
    memo.clear()
    assert not memo.mlir.shapes and not memo.pl.modules


@pytest.fixture
def run_memos(monkeypatch: pytest.MonkeyPatch) -> list[Memo]:
    """The memos the check runs make, in order."""
    made: list[Memo] = []

    def recorded() -> Memo:
        made.append(Memo())
        return made[-1]

    monkeypatch.setattr(runner, "Memo", recorded)
    return made


def test_two_check_runs_do_not_share_a_memo(tmp_path: Path, run_memos: list[Memo]) -> None:
    first, second = tmp_path / "a.mlir", tmp_path / "k.py"
    first.write_text(MODULE, encoding="utf-8")
    second.write_text(KERNEL, encoding="utf-8")
    job = Job(Settings(), (str(tmp_path),))
    assert all(r.checked and not r.error for r in check_files([str(first)], job, workers=1))
    (memo,) = run_memos
    kept = (dict(memo.mlir.shapes), dict(memo.pl.modules))
    assert kept[0] and not kept[1]
    assert all(r.checked and not r.error for r in check_files([str(second)], job, workers=1))
    assert len(run_memos) == 2 and run_memos[1] is not memo
    assert (dict(memo.mlir.shapes), dict(memo.pl.modules)) == kept  # the second run's are its own
    assert run_memos[1].pl.modules and not run_memos[1].mlir.shapes
