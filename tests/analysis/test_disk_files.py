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
