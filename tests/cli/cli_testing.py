"""Helpers for the CLI tests: run `python -m passlint` in a subprocess; fixture paths."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "cli"
TREE = DATA / "tree"
TREE_FIXED = DATA / "tree_fixed"

INPUT_MLIR = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    return %arg0 : tensor<4xf32>\n  }\n}\n"
)
CLEAN_MLIR = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    %0 = stablehlo.sine %arg0 : tensor<4xf32>\n    return %0 : tensor<4xf32>\n  }\n}\n"
)


def passlint(
    *args: str,
    cwd: str | os.PathLike[str],
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m passlint ARGS`` in ``cwd`` with a plain, non-terminal environment."""
    result = passlint_bytes(*args, cwd=cwd, stdin=stdin, env=env)
    return subprocess.CompletedProcess(
        result.args,
        result.returncode,
        result.stdout.decode("utf-8"),
        result.stderr.decode("utf-8"),
    )


def passlint_bytes(
    *args: str,
    cwd: str | os.PathLike[str],
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``passlint``, with stdout and stderr as the bytes written."""
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "passlint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=environment,
        timeout=120,
    )


def assert_no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout
