"""The workspace index over a shared disk side: a changed, added or deleted file updates it,
and after any sequence of changes (on disk, reported; or unsaved) it answers as an index
built from scratch does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from passlint.analysis.pl.index import WorkspaceIndex, workspace_index
from passlint.analysis.workspace import SharedFiles, Workspace

HEAD = "import pypto.language as pl\n"
SHARED = SharedFiles()  # a session's disk sides, as a server process keeps them


def answers(index: WorkspaceIndex, root: Path) -> dict[str, object]:
    """What cross-file resolution asks of an index, over every module and kernel name."""
    out: dict[str, object] = {"paths": index.paths()}
    for name in ("k0", "k1", "k2"):
        out[f"naming {name}"] = index.files_naming(name)
        for module in sorted(root.rglob("*.py")):
            out[f"importers {name} {module.name}"] = index.importers(name, str(module))
    return out


def scratch(root: Path) -> WorkspaceIndex:
    return WorkspaceIndex(Workspace([root]))


def test_changed_added_and_deleted_files_update_the_shared_index(tmp_path: Path) -> None:
    kernels, user = tmp_path / "kernels.py", tmp_path / "user.py"
    kernels.write_text(HEAD + "def k0(x): ...\n")
    user.write_text(HEAD + "from kernels import k0\nk0(1)\n")
    generation = 1

    def live() -> WorkspaceIndex:
        return workspace_index(Workspace([tmp_path], SHARED.of([tmp_path], generation)))

    assert [Path(p).name for p in live().importers("k0", str(kernels))] == ["user.py"]
    other = tmp_path / "other.py"  # added
    other.write_text(HEAD + "import kernels\nkernels.k0(2)\n")
    generation += 1
    SHARED.changed([other], generation)
    assert [Path(p).name for p in live().importers("k0", str(kernels))] == ["other.py", "user.py"]
    user.write_text(HEAD + "x = 1\n")  # changed
    generation += 1
    SHARED.changed([user], generation)
    assert [Path(p).name for p in live().importers("k0", str(kernels))] == ["other.py"]
    other.unlink()  # deleted
    generation += 1
    SHARED.changed([other], generation)
    assert live().importers("k0", str(kernels)) == []
    assert answers(live(), tmp_path) == answers(scratch(tmp_path), tmp_path)


def test_a_change_no_one_reported_is_not_seen_until_reported(tmp_path: Path) -> None:
    """The shared disk side is read once: what the editor does not report is not re-read
    (a worker process that missed reports forgets everything on the next generation)."""
    user = tmp_path / "user.py"
    user.write_text(HEAD + "from kernels import k0\n")
    files = SHARED.of([tmp_path], 100)
    assert workspace_index(Workspace([tmp_path], files)).files_naming("k0")
    user.write_text(HEAD)
    assert workspace_index(Workspace([tmp_path], files)).files_naming("k0")  # not reported
    files = SHARED.of([tmp_path], 101)  # a later generation: read afresh
    assert workspace_index(Workspace([tmp_path], files)).files_naming("k0") == []


def _module(rng: random.Random) -> str:
    """A small pypto module that may define, import and call kernels ``k0``-``k2``."""
    lines = [HEAD if rng.random() < 0.9 else "import os\n"]
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(5)
        name = f"k{rng.randrange(3)}"
        other = f"m{rng.randrange(6)}"
        if kind == 0:
            lines.append(f"def {name}(x): ...\n")
        elif kind == 1:
            lines.append(f"from {other} import {name}\n")
        elif kind == 2:
            lines.append(f"import {other}\n{other}.{name}(1)\n")
        elif kind == 3:
            lines.append(f"from . import {other}\n")
        else:
            lines.append(f"# {name} in a comment, {other} too\n")
    return "".join(lines)


@pytest.mark.parametrize("seed", range(4))
def test_random_changes_keep_the_index_equal_to_a_scan_from_scratch(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    generation = 1000 * (seed + 1)
    workspace_paths = [root / f"m{i}.py" for i in range(4)] + [
        root / "pkg" / "__init__.py",
        root / "pkg" / "m5.py",
    ]
    for _ in range(25):
        path = rng.choice(workspace_paths)
        if path.exists() and rng.random() < 0.3:
            path.unlink()
        else:
            path.write_text(_module(rng))
        generation += 1
        SHARED.changed([path], generation)
        live = Workspace([root], SHARED.of([root], generation))
        workspace_index(live)  # built now: an unsaved edit below updates it in place
        if rng.random() < 0.5:  # an unsaved edit of an open document, on top
            open_path = rng.choice(workspace_paths)
            text = _module(rng)
            live.set_overlay(str(open_path), text)
            fresh = Workspace([root])
            fresh.set_overlay(str(open_path), text)
        else:
            fresh = Workspace([root])
        assert answers(workspace_index(live), root) == answers(workspace_index(fresh), root)


NAMES = [f"k{i}" for i in range(24)] + ["kä", "m-1", "pkg", "x"]


def _many_names(rng: random.Random) -> str:
    """A pypto module that defines, calls and mentions some of ``NAMES``."""
    lines = [HEAD]
    for _ in range(rng.randrange(1, 6)):
        name = rng.choice(NAMES)
        lines.append(
            rng.choice(
                [f"def {name}(x): ...\n", f"y = {name}(1)\n", f"# {name}x {name}.\n", f"a.{name}\n"]
            )
        )
    return "".join(lines)


@pytest.mark.parametrize("seed", range(3))
def test_an_index_that_knows_many_names_follows_unsaved_edits(tmp_path: Path, seed: int) -> None:
    """After more names than it searches one by one (then it reads every file's words once),
    each unsaved edit updates what it knows in place: the answers of an index built afresh."""
    rng = random.Random(seed)
    paths = [tmp_path / f"m{i}.py" for i in range(8)]
    for path in paths:
        path.write_text(_many_names(rng))
    live = WorkspaceIndex(Workspace([tmp_path]))
    overlays: dict[Path, str | None] = {}
    for _ in range(12):
        for name in NAMES:
            live.files_naming(name)
        path = rng.choice(paths)
        text = _many_names(rng) if rng.random() < 0.8 else None
        overlays[path] = text
        live.file_changed(str(path), text)
        fresh = Workspace([tmp_path])
        for changed, overlay in overlays.items():
            if overlay is None:
                changed.unlink(missing_ok=True)
            else:
                fresh.set_overlay(str(changed), overlay)
        expected = WorkspaceIndex(fresh)
        assert {n: live.files_naming(n) for n in NAMES} == {
            n: expected.files_naming(n) for n in NAMES
        }
