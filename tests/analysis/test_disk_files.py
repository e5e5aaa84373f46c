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
    linked file counts by its real path when it points inside the roots (so a file reached
    twice is listed once), and is refused when it points outside them; only links are
    resolved (no system call per file to tell them)."""
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
    assert listed == [str(resolved / "pkg" / "k.py")]
    monkeypatch.setattr(os.path, "islink", lambda path: pytest.fail(f"islink({path})"))
    assert [files.data_listed(path) for path in listed] == [b"k = 1\n"]
    assert files.refused() == {
        str(resolved / "outside_link.py"): "links outside the workspace "
        f"(to {(outside / 'secret.py').resolve()})"
    }


def test_fifos_devices_and_large_files_are_refused_unread(tmp_path: Path) -> None:
    """A FIFO or a link to a device is never opened, and a file above the limit is read no
    further than the limit (the size is counted as read: ``stat`` says 0 for a device)."""
    os.mkfifo(tmp_path / "fifo.py")
    os.symlink("/dev/zero", tmp_path / "zero.py")
    (tmp_path / "large.py").write_bytes(b"x" * 101)
    (tmp_path / "small.py").write_bytes(b"x" * 100)
    files = DiskFiles([tmp_path], limit=100)
    listed = sorted(files.python_files())
    root = tmp_path.resolve()
    assert listed == [str(root / "large.py"), str(root / "small.py")]
    assert [files.data_listed(path) for path in listed] == [None, b"x" * 100]
    assert files.refused() == {
        str(root / "fifo.py"): "a FIFO, not a regular file",
        str(root / "zero.py"): "links outside the workspace (to /dev/zero)",
        str(root / "large.py"): "more than max-file-size (100 bytes)",
    }


def test_a_link_read_after_the_listing_was_forgotten(tmp_path: Path) -> None:
    """A path asked for after ``forget`` is still checked for a link out of the roots."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.py").write_bytes(b"secret = 1\n")
    os.symlink(outside / "secret.py", root / "link.py")
    files = DiskFiles([root])
    assert files.python_files() == set()
    files.forget()
    assert files.data_listed(str(root.resolve() / "link.py")) is None
