"""The recipes of the docs as written: the fenced block after each ``<!-- recipe: NAME -->``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
EDITORS = REPO / "docs" / "editors.md"

_RECIPE = re.compile(r"<!-- recipe: ([\w.-]+) -->\n```[\w-]*\n(.*?)```\n", re.DOTALL)


def recipes(document: Path) -> dict[str, str]:
    """Every recipe of ``document`` by name."""
    return dict(_RECIPE.findall(document.read_text(encoding="utf-8")))


def recipe(document: Path, name: str) -> str:
    return recipes(document)[name]


def build_distributions(outdir: Path) -> tuple[Path, Path]:
    """The wheel and the sdist of this checkout, built as the install recipe builds them."""
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(outdir), str(REPO)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = outdir.glob("passlint-*-py3-none-any.whl")
    (sdist,) = outdir.glob("passlint-*.tar.gz")
    return wheel, sdist


def new_venv(folder: Path) -> Path:
    """A new virtual environment with nothing of passlint's; its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    return folder / "bin"


def env_with(*bins: Path) -> dict[str, str]:
    """This process's environment with ``bins`` first on PATH and no Python path of ours."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join([*(str(b) for b in bins), env.get("PATH", "")])
    return env
