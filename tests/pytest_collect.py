"""pytest's own node ids of a test source: the file collected by pytest (``--collect-only
-q``) with a stand-in for ``pypto.language`` whose ``pl.dynamic`` returns an object without
``__name__``, as pypto's ``DynVar``. The ids passlint names cases by are checked against
these."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

_STAND_IN = textwrap.dedent(
    """
    class DynVar:
        def __init__(self, name):
            self.name = name


    def dynamic(name):
        return DynVar(name)
    """
)

_PYTEST = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
_PYTEST += ["-p", "no:asyncio", "-o", "addopts="]


def pytest_ids(tmp_path: Path, source: str) -> dict[str, list[str]]:
    """Per test (``test_k``, ``TestX::test_k``) the ids of its cases, in pytest's order."""
    (tmp_path / "pypto").mkdir(exist_ok=True)
    (tmp_path / "pypto" / "__init__.py").write_text("")
    (tmp_path / "pypto" / "language.py").write_text(_STAND_IN)
    (tmp_path / "test_source.py").write_text(source)
    done = subprocess.run(
        [*_PYTEST, "test_source.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    found: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        if "::" in line and "[" in line:
            name, _, rest = line.split("::", 1)[1].partition("[")
            found.setdefault(name, []).append(rest[:-1])
    assert found, done.stdout + done.stderr
    return found
