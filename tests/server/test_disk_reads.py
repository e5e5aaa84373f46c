"""What the server reads from disk itself goes through ``filesystem``: the other files of a
cross-file fix (``SnapshotFiles``) and configuration files (``settings``) are read only when
they are regular files, and only up to a bound; a FIFO, a device or a huge file gives no
text (or a configuration error), at once."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from passlint.config import ConfigError
from passlint.filesystem import METADATA_LIMIT
from passlint.server.convert import SnapshotFiles
from passlint.server.settings import SettingsStore, project_table


def at_once(read: object, *args: object) -> object:
    """``read(*args)``, which must return within 5 s (a FIFO opened for reading waits for
    a writer for good: the thread is left behind, a daemon, if it does)."""
    box: list[object] = []
    thread = threading.Thread(target=lambda: box.append(read(*args)), daemon=True)  # type: ignore[operator]
    thread.start()
    thread.join(5.0)
    assert box, f"{read} did not return"
    return box[0]


def test_other_files_of_a_fix_are_read_only_when_regular(tmp_path: Path) -> None:
    (tmp_path / "program.py").write_text("x = 1\r\n")
    os.mkfifo(tmp_path / "pipe.py")
    os.symlink("/dev/zero", tmp_path / "zero.py")
    (tmp_path / "big.py").write_text("#" * 200)
    files = SnapshotFiles({}, {}, {}, limit=100)
    assert at_once(files.source, str(tmp_path / "pipe.py")) is None
    assert at_once(files.source, str(tmp_path / "zero.py")) is None
    assert files.source(str(tmp_path / "big.py")) is None  # more than the limit
    program = files.source(str(tmp_path / "program.py"))
    assert program is not None and program.text == "x = 1\r\n"  # as it is on disk


def test_a_huge_or_broken_configuration_file_is_a_configuration_error(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.passlint]\n" + "#" * METADATA_LIMIT + "\n")
    with pytest.raises(ConfigError, match=f"more than {METADATA_LIMIT} bytes"):
        project_table(str(tmp_path))
    # (a pyproject.toml that is not UTF-8 makes config.find_config_file raise: not here)
    (tmp_path / "passlint.toml").write_bytes(b"select = ['\xff']\n")
    with pytest.raises(ConfigError, match="can't decode"):
        project_table(str(tmp_path))
    (tmp_path / "passlint.toml").unlink()
    store = SettingsStore()  # the server goes on with the defaults, and says why once
    store.settings_for(str(tmp_path / "k.py"))
    (error,) = store.take_errors()
    assert error.startswith(f"{pyproject}: ")


def test_a_fifo_named_like_a_configuration_file_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "passlint.toml")
    (tmp_path / "pyproject.toml").write_text("[tool.passlint]\nselect = ['VS']\n")
    table, origin = at_once(project_table, str(tmp_path))  # type: ignore[misc]
    assert origin == str(tmp_path / "pyproject.toml") and table == {"select": ["VS"]}
