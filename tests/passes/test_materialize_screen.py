"""The batch screen (``screen.py``): a file it leaves alone has no finding, so a screened
batch run gives exactly the findings of the full analysis, over every pl file of the test
data, a generated workspace shaped like pypto's, and texts made to slip past it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from passlint.analysis.findings import Finding
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.workspace import Workspace
from passlint.config import Settings
from passlint.passes.materialize_valid_shape_symbols.dry_run import (
    check_text,
    files_to_screen,
    screen_files,
)
from passlint.passes.materialize_valid_shape_symbols.screen import parses, screen
from passlint.runner import Job, _screened, check_files, make_workspace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import pl_workspace

DATA = Path(__file__).resolve().parents[1] / "data"


def findings(root: Path, screened: bool) -> list[Finding]:
    """Every finding of a batch run over ``root``'s Python files."""
    memo = PlMemo()
    workspace = Workspace([root], screen=screened)
    out: list[Finding] = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        out += check_text(str(path), text, workspace, memo)
    return out


def test_screened_findings_equal_the_full_analysis_over_the_test_data() -> None:
    full = findings(DATA, screened=False)
    assert full  # the data holds findings of every kind
    assert findings(DATA, screened=True) == full


def test_screened_findings_equal_the_full_analysis_over_a_generated_workspace(
    tmp_path: Path,
) -> None:
    pl_workspace(tmp_path, files=120, size=6_000)
    full = findings(tmp_path, screened=False)
    assert {f.code for f in full} == {"VS001", "VS007"}
    assert findings(tmp_path, screened=True) == full


def test_a_batch_run_screens_and_finds_the_same(tmp_path: Path) -> None:
    """Through the runner (64+ Python files: screened), in one process and in two."""
    paths = [str(p) for p in pl_workspace(tmp_path, files=70, size=4_000)]
    job = Job(Settings(), (str(tmp_path),))
    batch = [r.findings for r in check_files(paths, job, workers=1)]
    parallel = [r.findings for r in check_files(paths, job, workers=2)]
    one_by_one = [check_files([p], job, workers=1)[0].findings for p in paths]
    assert batch == one_by_one == parallel
    assert any(batch)


def test_screens_made_by_forked_workers_are_those_made_here(tmp_path: Path) -> None:
    pl_workspace(tmp_path, files=70, size=4_000)
    job = Job(Settings(), (str(tmp_path),), screen=True)
    workspace = make_workspace(job)
    here = dict(screen_files(workspace, files_to_screen(workspace)))
    assert _screened(workspace, job, workers=2) == here
    assert any(item is not None and item.own for item in here.values())


SLIPPERY = {
    "view variable": """
import pypto.language as pl
V = pl.dynamic("V")
VIEW = pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)

@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[16, 128], pl.FP32, VIEW], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]):
    return out
""",
    "late scalar": """
import pypto.language as pl
N = pl.dynamic("N")

@pl.function(type=pl.FunctionType.AIV)
def k(x: pl.Tensor[[N, 128], pl.FP32], N: pl.Scalar[pl.INDEX]):
    return x
""",
    "multi-line decorator and header": """
import pypto.language as pl
V = pl.dynamic("V")

def build():
    @pl.function(
        type=pl.FunctionType.Spmd,
    )
    def k(
        x: pl.Tensor[
            [16, 128],
            pl.FP32,
            pl.TensorView(valid_shape=[16, V]),  # a comment ) with a bracket
        ],
    ):
        return x
    return k
""",
    "a def in a string between type and kernel": '''
import pypto.language as pl
V = pl.dynamic("V")

@pl.function(type=pl.FunctionType.InCore, doc="""
def decoy(x):
""")
def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V])]):
    return x
''',
    "outlined scope with a positional valid shape": """
import pypto.language as pl
R = pl.dynamic("R")

@pl.function(type=pl.FunctionType.Orchestration)
def main(x: pl.Tensor[[R, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):
    a = pl.slice(x, [16, 128], [0, 0], [16, n])
    with pl.at(level=pl.Level.CORE_GROUP):
        b = pl.add(a, a)
    return b
""",
    "outlined scope whose extent comes from a parameter's view": """
import pypto.language as pl
N = pl.dynamic("N")

@pl.function(type=pl.FunctionType.Orchestration)
def main(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, N])]):
    with pl.at(level=pl.Level.CORE_GROUP):
        b = pl.add(x, x)
    return b
""",
    "aliased kernel type": """
import pypto.language as pl
from pypto.language.FunctionType import InCore as CORE
V = pl.dynamic("V")

@pl.function(type=CORE)
def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V])]):
    return x
""",
    "shape name bound after the kernel": """
import pypto.language as pl

@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[M, 128], pl.FP32]):
    return x
M = pl.dynamic("M")
""",
    "shape name bound in a string": '''
import pypto.language as pl
"""
M = pl.dynamic("M")
"""

@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[M, 128], pl.FP32]):
    return x
''',
    "shape name a keyword at column 0": """
import pypto.language as pl
settings = dict(
M = pl.dynamic("M"))

@pl.function(type=pl.FunctionType.InCore)
def k(x: pl.Tensor[[M, 128], pl.FP32]):
    return x
""",
    "shape name the builder binds after the kernel": """
import pypto.language as pl

def build(rows):
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[rows, cols], pl.FP32]):
        return x
    cols = 4
    return k
""",
    "shape name in the builder's docstring only": '''
import pypto.language as pl

def build(rows):
    """
    cols = 4
    """
    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[rows, cols], pl.FP32]):
        return x
    return k
''',
}


@pytest.mark.parametrize("name", SLIPPERY)
def test_the_screen_does_not_miss_texts_made_to_slip_past_it(tmp_path: Path, name: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(SLIPPERY[name])
    full = check_text(str(path), SLIPPERY[name], Workspace([tmp_path]), PlMemo())
    assert full, name  # each has a finding
    own = screen(SLIPPERY[name])
    assert own is None or own.own
    screened = Workspace([tmp_path], screen=True)
    assert check_text(str(path), SLIPPERY[name], screened, PlMemo()) == full


CALLER = """\
import pypto.language as pl
from kernels import k


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]):
        return k()
"""


def test_a_caller_of_a_flagged_kernel_of_another_file_is_analysed(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text(SLIPPERY["view variable"])
    (tmp_path / "caller.py").write_text(CALLER)
    caller = CALLER
    own = screen(caller)
    assert own is not None and not own.own  # analysed as a caller, not for its own text
    full = findings(tmp_path, screened=False)
    assert {(Path(f.path).name, f.code) for f in full} >= {("caller.py", "VS004")}
    assert findings(tmp_path, screened=True) == full


def test_an_extent_declared_only_inside_a_scope_is_not_captured() -> None:
    """The screen reads a function up to its scope: what the scope's body declares is not
    what it captures (and the full analysis agrees: no finding)."""
    text = (
        "import pypto.language as pl\n\n"
        "@pl.function(type=pl.FunctionType.Orchestration)\n"
        "def main(x: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
        "    with pl.at(level=pl.Level.CORE_GROUP):\n"
        "        a = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])\n"
        "    return a\n"
    )
    own = screen(text)
    assert own is not None and not own.own
    assert check_text("m.py", text, None) == []


def test_syntax_errors_and_deep_nesting_are_analysed() -> None:
    assert not parses("m.py", "import pypto.language as pl\ndef f(:\n")
    deep = "import pypto.language as pl\nx = " + "-" * 950 + "1\n"
    assert not parses("m.py", deep)  # nested deeper than the analysis follows
    assert parses("m.py", "import pypto.language as pl\nx = " + "-" * 50 + "1\n")


def test_relative_paths_find_their_screens_and_callers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`passlint check .` names files relative to the working folder; the workspace lists
    them absolute: a caller of a flagged kernel must be recognised either way."""
    (tmp_path / "kernels.py").write_text(SLIPPERY["view variable"])
    caller = CALLER
    (tmp_path / "caller.py").write_text(caller)
    monkeypatch.chdir(tmp_path)
    workspace = Workspace([tmp_path], screen=True)
    relative = check_text("caller.py", caller, workspace)
    assert relative == check_text("caller.py", caller, Workspace([tmp_path]))
    assert [f.code for f in relative] == ["VS004"]


def test_a_caller_of_a_module_the_screen_cannot_tell_is_analysed(tmp_path: Path) -> None:
    """A module that spells its kernel types through an alias is analysed, and so is every
    file that imports it (its kernels are not known from its text)."""
    (tmp_path / "kernels.py").write_text(SLIPPERY["aliased kernel type"])
    (tmp_path / "caller.py").write_text(CALLER)
    full = findings(tmp_path, screened=False)
    assert {(Path(f.path).name, f.code) for f in full} >= {("caller.py", "VS004")}
    assert findings(tmp_path, screened=True) == full
