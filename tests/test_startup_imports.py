"""A `passlint check` of one language's files loads only that language's front end and pass:
the catalog reads every rule from modules that import nothing of the passes' analyses, and each side
of the run's memo is made with its front end. Loading the other side cost 0.09 s of CPU per
run (half the start-up of a check of a small file)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

from passlint.passes.materialize_valid_shape_symbols import checks

# In a subprocess: the modules of the package a `passlint check FILE` run has imported.
_LOADED = (
    "import json, sys\n"
    "from passlint.cli import main\n"
    "main(['check', sys.argv[1]])\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('passlint', 'lark')))))\n"
)

PL_SIDE = ("passlint.analysis.pl.", "passlint.passes.materialize_valid_shape_symbols.")
# The pl pass's rules, its standalone checks (declared with their detectors, which import
# only these light helpers of the front end at run time) and nothing else of its side.
PL_RULES = (
    "passlint.analysis.pl",
    "passlint.analysis.pl.excerpt",
    "passlint.analysis.pl.walk",
    "passlint.passes.materialize_valid_shape_symbols.rules",
    "passlint.passes.materialize_valid_shape_symbols.preconditions",
    "passlint.passes.materialize_valid_shape_symbols.check",
    "passlint.passes.materialize_valid_shape_symbols.checks",
    "passlint.passes.materialize_valid_shape_symbols.def_headers",  # (VS010's text test)
    *(
        f"passlint.passes.materialize_valid_shape_symbols.checks.{check.name}"
        for check in pkgutil.iter_modules(checks.__path__)
    ),
)
MLIR_SIDE = ("passlint.analysis.mlir.", "passlint.passes.tensorizer_legalization.", "lark")
MLIR_RULES = (
    "passlint.analysis.mlir.bytecode_rules",
    "passlint.analysis.mlir.syntax_findings",
    "passlint.passes.tensorizer_legalization.rules",
)


def _loaded(path: Path) -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", _LOADED, str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=path.parent,
    )
    assert run.returncode == 0, run.stderr
    loaded: list[str] = json.loads(run.stdout.splitlines()[-1])
    return loaded


def test_a_check_of_mlir_loads_nothing_of_the_pl_side(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a\n}\n")
    loaded = _loaded(path)
    assert "passlint.analysis.mlir.parser" in loaded  # it did analyse the file
    assert [m for m in loaded if m.startswith(PL_SIDE) and m not in PL_RULES] == []


def test_a_check_of_pl_loads_nothing_of_the_mlir_side(tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    path.write_text("import pypto.language as pl\n\n\ndef f(x):\n    return x\n")
    loaded = _loaded(path)
    assert "passlint.analysis.pl.frontend" in loaded  # it did analyse the file
    assert [m for m in loaded if m.startswith(MLIR_SIDE) and m not in MLIR_RULES] == []
