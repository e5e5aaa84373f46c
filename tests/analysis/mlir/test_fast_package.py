"""The fast paths live in ``passlint.analysis.mlir.fast``, reached through the memo: a parse
without a memo imports none of them (the reference pipeline), the plain modules import
none of them at run time, and ``analysis/mlir`` holds no module-level cache (its only
``functools.cache`` builds the program's constants)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from mlir_testing import CONSTRUCTS, DATA

import passlint.analysis.mlir as mlir_package

MLIR = Path(mlir_package.__file__).parent
FAST = "passlint.analysis.mlir.fast"
# The module that reaches the fast package at run time: the memo (its interface). @main's
# outline, the TL pass's quick path, is one of the fast paths itself.
REACHING_FAST = {"memo.py"}

REFERENCE_RUN = f"""
import sys
from pathlib import Path

from passlint.analysis.mlir.parser import parse_chunk, parse_file

for path in sorted(Path({str(DATA)!r}).glob("*.mlir")) + sorted(Path({str(CONSTRUCTS)!r}).glob("*.mlir")):
    text = path.read_text(encoding="utf-8")
    parse_file(text)
    parse_chunk(text, 0, len(text), whole=False)
loaded = sorted(name for name in sys.modules if name.startswith({FAST!r}) or name.endswith(".memo"))
assert not loaded, loaded
print("ok")
"""


def test_a_parse_without_a_memo_imports_nothing_of_the_fast_package() -> None:
    done = subprocess.run(
        [sys.executable, "-c", REFERENCE_RUN], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


def _runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports outside ``if TYPE_CHECKING:``."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_the_plain_modules_import_nothing_of_the_fast_package_at_run_time() -> None:
    plain = [path for path in sorted(MLIR.glob("*.py")) if path.name not in REACHING_FAST]
    assert len(plain) > 15
    for path in plain:
        fast = {name for name in _runtime_imports(path) if name.startswith(FAST)}
        assert not fast, (path.name, fast)


def test_no_module_level_cache_in_the_front_end() -> None:
    """No ``functools`` cache decorates a function of ``analysis/mlir`` but through
    ``program_constant`` (values built from the program alone, never from an input)."""
    for path in sorted(MLIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    name = getattr(target, "id", getattr(target, "attr", ""))
                    assert name not in ("cache", "lru_cache", "cached_property"), (
                        path.name,
                        node.name,
                    )
