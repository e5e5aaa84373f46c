"""The project a file belongs to when nobody named a workspace (``passlint.roots``): the
nearest configuration file's folder, else the top of the git work tree, else none; never
the working folder or a parent by being one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from passlint.roots import project_root, roots_for


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_file_without_a_project_has_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = write(tmp_path / "home" / "downloads" / "k.py")
    monkeypatch.chdir(tmp_path / "home")
    assert project_root(str(kernel)) is None
    assert roots_for((), str(kernel)) == (str(kernel),)  # the file alone, not its folder


def test_the_nearest_configuration_file_gives_the_project(tmp_path: Path) -> None:
    write(tmp_path / "repo" / ".git" / "HEAD")
    write(tmp_path / "repo" / "pyproject.toml", "[project]\nname = 'x'\n")  # not passlint's
    write(tmp_path / "repo" / "sub" / "pyproject.toml", "[tool.passlint]\nselect = ['VS']\n")
    kernel = write(tmp_path / "repo" / "sub" / "deep" / "k.py")
    assert project_root(str(kernel)) == str(tmp_path / "repo" / "sub")
    write(tmp_path / "repo" / "sub" / "deep" / "passlint.toml")
    assert project_root(str(kernel)) == str(tmp_path / "repo" / "sub" / "deep")


def test_a_configuration_file_above_the_git_tree_wins(tmp_path: Path) -> None:
    write(tmp_path / "passlint.toml")
    write(tmp_path / "repo" / ".git" / "HEAD")
    kernel = write(tmp_path / "repo" / "k.py")
    assert project_root(str(kernel)) == str(tmp_path)


@pytest.mark.parametrize("git", ["folder", "file"])
def test_else_the_top_of_the_git_work_tree(tmp_path: Path, git: str) -> None:
    if git == "folder":
        write(tmp_path / "repo" / ".git" / "HEAD")
    else:  # a linked work tree (git worktree add) or a submodule: .git is a file
        write(tmp_path / "repo" / ".git", "gitdir: /elsewhere/.git/worktrees/repo\n")
    kernel = write(tmp_path / "repo" / "src" / "kernels" / "k.py")
    assert project_root(str(kernel)) == str(tmp_path / "repo")
    assert project_root(str(tmp_path / "repo" / "src")) == str(tmp_path / "repo")  # a folder
    assert roots_for((), str(kernel)) == (str(tmp_path / "repo"),)


def test_a_linked_file_belongs_to_the_project_it_lives_in(tmp_path: Path) -> None:
    write(tmp_path / "a" / ".git" / "HEAD")
    real = write(tmp_path / "a" / "k.py")
    os.symlink(real, tmp_path / "elsewhere.py")
    assert project_root(str(tmp_path / "elsewhere.py")) == str(tmp_path / "a")


def test_named_roots_win_and_are_real_paths(tmp_path: Path) -> None:
    write(tmp_path / "repo" / ".git" / "HEAD")
    kernel = write(tmp_path / "repo" / "k.py")
    os.symlink(tmp_path / "repo", tmp_path / "alias")
    named = (str(tmp_path / "alias"), str(tmp_path / "repo"))
    assert roots_for(named, str(kernel)) == (str(tmp_path / "repo"),)


def test_the_memo_answers_for_a_folder_once(tmp_path: Path) -> None:
    kernel = write(tmp_path / "repo" / "k.py")
    projects: dict[str, str | None] = {}
    assert roots_for((), str(kernel), projects) == (str(kernel),)
    assert projects == {str(tmp_path / "repo"): None}
    write(tmp_path / "repo" / ".git" / "HEAD")  # (seen again once the caller clears it)
    other = write(tmp_path / "repo" / "other.py")
    assert roots_for((), str(other), projects) == (str(other),)
    projects.clear()
    assert roots_for((), str(other), projects) == (str(tmp_path / "repo"),)
