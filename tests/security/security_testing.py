"""Helpers for the security tests: a workspace with files that must never be executed,
imported or read, and `python -m passlint` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
AUDITED = Path(__file__).resolve().parent / "audited.py"

# Executing (or importing) any of these files writes the marker file named by
# PASSLINT_MARKER: the tests check it never appears.
RUNS_CODE = (
    "import os\n"
    "with open(os.environ['PASSLINT_MARKER'], 'a') as marker:\n"
    "    marker.write(__name__ + ' was executed\\n')\n"
)

KERNELS = """\
import pypto.language as pl

import pkg
from side_effect import k as imported_kernel
from linked_file import S as S_FILE
from linked_dir.secret import S as S_DIR
from ..outside.secret import S as S_UP
from outside.secret import S as S_ABS

VALID = pl.dynamic("VALID")


@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]):
    return x


@pl.function(type=pl.FunctionType.InCore)
def k_outside(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[S_FILE, S_DIR], layout=pl.TensorLayout.ND)],
              y: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[S_UP, S_ABS], layout=pl.TensorLayout.ND)]):
    return x
"""

PROGRAM = """\
import pypto.language as pl

from kernels import k


@pl.function(type=pl.FunctionType.Orchestration)
def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):
    return k(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]))
"""

SECRET = RUNS_CODE + 'import pypto.language as pl\nS = pl.dynamic("S")\n'


def make_tree(base: Path) -> tuple[Path, Path]:
    """``base/ws`` (the workspace) and ``base/outside`` (never to be read).

    The workspace holds kernels importing from files that run code at their top level, a
    symlink to a file outside, a symlink to the outside folder, and imports that climb out.
    """
    ws, outside = base / "ws", base / "outside"
    (ws / "pkg").mkdir(parents=True)
    outside.mkdir()
    (ws / "kernels.py").write_text(KERNELS)
    (ws / "program.py").write_text(PROGRAM)
    # the fixture writes its marker after `import pypto.language`: ours writes it first
    (ws / "side_effect.py").write_text(RUNS_CODE + (DATA / "pl" / "side_effect.py").read_text())
    (ws / "pkg" / "__init__.py").write_text(RUNS_CODE + "import pypto.language as pl\n")
    (outside / "secret.py").write_text(SECRET)
    (outside / "__init__.py").write_text(RUNS_CODE)
    (outside / "caller.py").write_text(PROGRAM)
    os.symlink(outside / "secret.py", ws / "linked_file.py")
    os.symlink(outside, ws / "linked_dir")
    return ws, outside


def environment(marker: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PASSLINT_MARKER"] = str(marker)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # so a __pycache__ could only come from us
    return env


def run(args: list[str], cwd: Path, marker: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment(marker),
        timeout=120,
    )


def pycache_dirs(root: Path) -> list[Path]:
    return [path for path in root.rglob("__pycache__")]
