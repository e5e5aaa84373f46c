"""Which configuration file governs a path (``passlint.config_files``), asked of each
folder once: a check of 10,000 files in a few folders looks at those folders and their
parents, not at the disk per file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from passlint import config_files
from passlint.config_files import ConfigLookup, find_config_file


def test_each_folder_is_looked_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "passlint.toml").write_text("")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "pyproject.toml").write_text("[tool.passlint]\n")
    folders = [tmp_path / "a" / "x", tmp_path / "a" / "y", tmp_path / "b" / "z"]
    for folder in folders:
        folder.mkdir(parents=True)
    looked_at: list[Path] = []
    real_config_in = config_files.config_in

    def counting(folder: Path, workspace: Sequence[str] = ()) -> Path | None:
        looked_at.append(folder)
        return real_config_in(folder, workspace)

    monkeypatch.setattr(config_files, "config_in", counting)
    lookup = ConfigLookup()
    for index in range(10_000):
        folder = folders[index % 3]
        expected = tmp_path / ("b/pyproject.toml" if folder.parent.name == "b" else "passlint.toml")
        assert lookup.for_file(str(folder / f"m{index}.mlir")) == expected
    assert sorted(looked_at) == sorted({*folders, tmp_path / "a", tmp_path / "b", tmp_path})
    assert lookup.for_folder(str(tmp_path / "b")) == tmp_path / "b" / "pyproject.toml"
    assert len(looked_at) == 6  # (b was answered on the way up from b/z)


def test_the_uncached_lookup_follows_the_same_rule(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.passlint]\n")
    (tmp_path / "sub" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # not ours
    assert find_config_file(tmp_path / "sub") == tmp_path / "pyproject.toml"
    (tmp_path / "sub" / "pyproject.toml").write_text("[tool.passlint]\n")
    assert find_config_file(tmp_path / "sub") == tmp_path / "sub" / "pyproject.toml"
    (tmp_path / "sub" / "passlint.toml").write_text("")  # wins over the pyproject.toml beside it
    assert find_config_file(tmp_path / "sub" / "k.mlir") == tmp_path / "sub" / "passlint.toml"
    assert ConfigLookup().for_file(str(tmp_path / "sub" / "k.mlir")) == find_config_file(
        tmp_path / "sub"
    )
