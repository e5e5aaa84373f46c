"""Workspace module lookup for pl imports and the listing of Python files in the roots."""

from __future__ import annotations

from pathlib import Path

from passlint.analysis.workspace import Workspace
from passlint.pipeline import analyze


def test_find_module_next_to_the_importer_then_in_roots(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "kernels.py").write_text("")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "kernels.py").write_text("")
    importer = str(tmp_path / "app" / "main.py")
    workspace = Workspace([tmp_path])
    assert workspace.find_module("kernels", importer) == str(tmp_path / "app" / "kernels.py")
    assert workspace.find_module("pkg.kernels", importer) == str(tmp_path / "pkg" / "kernels.py")
    assert workspace.find_module("pkg", importer) == str(tmp_path / "pkg" / "__init__.py")
    assert workspace.find_module("kernels", str(tmp_path / "pkg" / "x.py"), level=1) == str(
        tmp_path / "pkg" / "kernels.py"
    )
    assert workspace.find_module("missing", importer) is None


def test_find_module_stays_inside_the_roots(tmp_path: Path) -> None:
    (tmp_path / "outside.py").write_text("")
    (tmp_path / "ws").mkdir()
    workspace = Workspace([tmp_path / "ws"])
    assert workspace.find_module("outside", str(tmp_path / "ws" / "m.py")) is None
    assert workspace.find_module("outside", str(tmp_path / "ws" / "m.py"), level=2) is None


def test_a_module_name_too_long_for_the_system_is_not_found(tmp_path: Path) -> None:
    """``import shared_999...`` (thousands of characters): the lookup's stat fails with
    ENAMETOOLONG, which is "no such module", not a crash (found by the fuzz target)."""
    workspace = Workspace([tmp_path])
    name = "shared_" + "9" * 5000
    assert workspace.find_module(name, str(tmp_path / "m.py")) is None
    text = f"import pypto.language as pl\nfrom {name} import K\n"
    (tmp_path / "m.py").write_text(text)
    assert analyze(str(tmp_path / "m.py"), text, None, workspace) == []


def test_python_files_skip_hidden_and_cache_folders_and_include_overlays(tmp_path: Path) -> None:
    for name in ("a.py", "sub/b.py", ".venv/c.py", "__pycache__/d.py", "sub/e.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    workspace = Workspace([tmp_path, tmp_path / "sub"])
    assert workspace.python_files() == [str(tmp_path / "a.py"), str(tmp_path / "sub" / "b.py")]
    workspace.set_overlay(str(tmp_path / "new.py"), "import pypto.language as pl\n")
    assert str(tmp_path / "new.py") in workspace.python_files()
    assert workspace.read(str(tmp_path / "new.py")) == "import pypto.language as pl\n"


def test_the_workspace_index_names_files_and_follows_unsaved_edits(tmp_path: Path) -> None:
    from passlint.analysis.pl.index import workspace_index

    (tmp_path / "kernels.py").write_text("import pypto.language as pl\ndef scale(x): ...\n")
    (tmp_path / "user.py").write_text("import pypto.language as pl\nfrom kernels import scale\n")
    (tmp_path / "plain.py").write_text("scale = 1\n")  # no pypto: never a pl caller
    workspace = Workspace([tmp_path])
    index = workspace_index(workspace)
    assert [Path(p).name for p in index.files_naming("scale")] == ["kernels.py", "user.py"]
    assert workspace_index(workspace) is index  # built once
    workspace.set_overlay(str(tmp_path / "user.py"), "import pypto.language as pl\n")
    assert workspace_index(workspace) is index  # updated in place, one file re-read
    assert [Path(p).name for p in index.files_naming("scale")] == ["kernels.py"]
    workspace.forget_files()
    assert workspace_index(workspace) is not index
