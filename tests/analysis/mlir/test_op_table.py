"""Op knowledge in one declared table (issue 28, point 4): ``op_table.py`` holds the op names
the parser, the checks, the passes and the server tell apart, and no other module of the
package restates a list of them."""

from __future__ import annotations

import ast
from pathlib import Path

from passlint.analysis.mlir import op_table

PACKAGE = Path(op_table.__file__).resolve().parents[2]
TABLES = {
    name: value
    for name, value in vars(op_table).items()
    if name.isupper() and isinstance(value, frozenset)
}
NAMES = frozenset().union(*TABLES.values())


def test_the_tables_nest_as_the_ir_does() -> None:
    assert op_table.MODULE_OPS < op_table.ISOLATED_OPS
    assert op_table.FUNC_RETURN_OPS < op_table.TERMINATORS
    assert {"module", "return"} < op_table.BARE_OP_NAMES
    assert all("." in name for name in NAMES - op_table.BARE_OP_NAMES)


def restated_lists(source: str) -> list[int]:
    """The lines of the tuple, list and set displays of ``source`` that hold two or more op
    names of the table, one of them with a dialect (bare words such as ``module`` are names
    of other things too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            names = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in NAMES]
            if len(names) >= 2 and any("." in name for name in names):
                found.append(node.lineno)
    return found


def test_the_scan_finds_a_restated_list() -> None:
    source = 'A = frozenset(("module", "builtin.module"))\nB = ("return", "module")\n'
    assert restated_lists(source) == [1]


# The table itself, and completion's vocabulary (every op of the dialects, by name).
EXEMPT = {Path(op_table.__file__).resolve(), PACKAGE / "server" / "op_names.py"}


def test_no_module_restates_a_list_of_op_names() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.resolve() not in EXEMPT
        for line in restated_lists(path.read_text(encoding="utf-8"))
    ]
    assert found == []
