"""bench/snapshot.py: a record of what passlint says about a tree, compared before and after a
change (issue 28's byte-identical check)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from snapshot import compare, main, record_tree

DATA = Path(__file__).resolve().parents[1] / "data"


def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    shutil.copy(DATA / "pl" / "softmax_prepare.py", root / "kernels.py")
    (root / "main.mlir").write_text(
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  return %arg0 : tensor<4xf32>\n}\n",
        encoding="utf-8",
    )
    return root


def test_a_record_holds_the_findings_fixes_and_legalized_output(tmp_path: Path) -> None:
    record = record_tree(tree(tmp_path))
    codes = sorted(f["code"] for f in record["check"]["json"]["findings"])
    assert codes == ["TL001", "VS001"]
    assert all("fix" in f for f in record["check"]["json"]["findings"])
    assert list(record["legalize"]) == ["main.mlir"]
    assert record["legalize"]["main.mlir"]["exit"] == 0


def test_compare_names_each_difference_and_the_cli_exits_1(tmp_path: Path) -> None:
    root = tree(tmp_path)
    before = tmp_path / "before.json"
    assert main(["record", str(before), str(root)]) == 0
    assert compare(json.loads(before.read_text()), json.loads(before.read_text())) == []
    (root / "main.mlir").write_text(
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = mhlo.copy %arg0 : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
        encoding="utf-8",
    )
    after = tmp_path / "after.json"
    assert main(["record", str(after), str(root)]) == 0
    differences = compare(json.loads(before.read_text()), json.loads(after.read_text()))
    assert [line.split(" bytes ")[0] for line in differences] == [
        f"{root}: check gone: main.mlir:2:10 TL001",
        f"{root}: legalize main.mlir: exit 0, 205",
    ], differences
    assert main(["compare", str(before), str(after)]) == 1
