"""DiskFiles reads a file whole in one read, and still whole when it grew after its size was
taken."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from passlint.analysis.workspace import DiskFiles


def test_files_are_read_whole(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_bytes(b"x = 1\n" * 50_000)
    (tmp_path / "empty.py").write_bytes(b"")
    files = DiskFiles([tmp_path])
    listed = sorted(files.python_files())
    assert [files.data_listed(path) for path in listed] == [b"x = 1\n" * 50_000, b""]


def test_a_file_that_grew_while_read_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(b"y = 2\n" * 30_000)
    real = os.fstat

    def smaller(handle: int) -> os.stat_result:
        found = real(handle)
        return os.stat_result((*found[:6], 10, *found[7:]))  # st_size taken before it grew

    monkeypatch.setattr(os, "fstat", smaller)
    assert DiskFiles([tmp_path]).data_listed(str(path.resolve())) == b"y = 2\n" * 30_000


def test_the_listing_and_its_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing skips hidden and cache folders and does not enter linked folders; a
    linked file is read when it points inside the roots, never outside them; only links
    are resolved (no system call per file to tell them)."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "pkg").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "__pycache__").mkdir()
    outside.mkdir()
    (root / "pkg" / "k.py").write_bytes(b"k = 1\n")
    (root / ".hidden" / "h.py").write_bytes(b"")
    (root / "__pycache__" / "c.py").write_bytes(b"")
    (outside / "secret.py").write_bytes(b"secret = 1\n")
    os.symlink(root / "pkg" / "k.py", root / "inside_link.py")
    os.symlink(outside / "secret.py", root / "outside_link.py")
    os.symlink(outside, root / "linked_folder")
    files = DiskFiles([root])
    listed = sorted(files.python_files())
    resolved = root.resolve()
    assert listed == [str(resolved / n) for n in ("inside_link.py", "outside_link.py", "pkg/k.py")]
    monkeypatch.setattr(os.path, "islink", lambda path: pytest.fail(f"islink({path})"))
    assert [files.data_listed(path) for path in listed] == [b"k = 1\n", None, b"k = 1\n"]


def test_a_link_read_after_the_listing_was_forgotten(tmp_path: Path) -> None:
    """A path listed before ``forget`` is still checked for a link out of the roots."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.py").write_bytes(b"secret = 1\n")
    os.symlink(outside / "secret.py", root / "link.py")
    files = DiskFiles([root])
    [listed] = files.python_files()
    files.forget()
    assert files.data_listed(listed) is None
