"""``-o/--output-file PATH``: the report goes to a file instead of standard output.

The path is the user's own and is written as given, with the folders it needs created (as
ruff does), on every run that gets past reading its options: what would have gone to
standard output goes there, even when that is nothing. Messages for people stay on stderr.
The report is written whole when the check ends, to a temporary file beside PATH that is
then renamed over it: a reader never sees half a report, and a file with several hard
links is replaced, not written through. A new file is made with the umask's mode, an
existing one keeps its mode.

Unlike ruff, a symbolic link at PATH that leads to a regular file (or to nothing) is not
followed: it is refused before anything is checked (exit 2), since a link planted in a
checkout (``gl-code-quality-report.json -> ~/.ssh/authorized_keys``) would have the report
replace a file the user never named. A device or FIFO at PATH, or a link to one
(``/dev/null``, ``/dev/stdout`` when it is a pipe), is written to as it is.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from passlint.filesystem import kind_of

# What the temporary file's name ends with: ``writes.remove_leftovers`` knows these names.
_SUFFIX = ".passlint"


class OutputFile:
    """The file ``-o`` names (``prepare`` first, then ``write``)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._through = False  # a device, FIFO or terminal: written to, never replaced
        self._mode: int | None = None  # an existing regular file's mode

    def prepare(self) -> str | None:
        """Why the report cannot go to the path (None: it can); creates missing folders."""
        try:
            own = os.lstat(self.path)
        except FileNotFoundError:
            own = None
        except OSError as error:
            return error.strerror or str(error)
        if own is not None and stat.S_ISLNK(own.st_mode):
            try:
                target = os.stat(self.path)
            except OSError:
                return "a symbolic link to nothing; not followed"
            if stat.S_ISREG(target.st_mode):
                real = os.path.realpath(self.path)
                return f"a symbolic link (to {real}); not followed, name the file itself"
            own = target
        if own is not None and stat.S_ISDIR(own.st_mode):
            return "a folder"
        if own is not None and not stat.S_ISREG(own.st_mode):
            self._through = True
            return None
        if own is not None:
            self._mode = stat.S_IMODE(own.st_mode)
        folder = os.path.dirname(self.path)
        try:
            if folder:
                os.makedirs(folder, exist_ok=True)
        except OSError as error:
            return f"cannot make its folder: {error.strerror or error}"
        return None

    def write(self, data: bytes) -> str | None:
        """Write the report; why it could not be (None: it was)."""
        try:
            if self._through:
                self._write_through(data)
            else:
                self._replace(data)
        except OSError as error:
            return error.strerror or str(error)
        return None

    def _write_through(self, data: bytes) -> None:
        handle = os.open(self.path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
        try:
            mode = os.fstat(handle).st_mode
            if stat.S_ISREG(mode) or stat.S_ISDIR(mode):  # (swapped since ``prepare``)
                raise OSError(f"{kind_of(mode)}, no longer what it was")
            _write_all(handle, data)
        finally:
            os.close(handle)

    def _replace(self, data: bytes) -> None:
        folder = os.path.dirname(self.path) or "."
        name = os.path.basename(self.path)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{name}.{os.getpid()}.", suffix=_SUFFIX, dir=folder
        )
        try:
            try:
                os.fchmod(handle, self._mode if self._mode is not None else _new_file_mode())
                _write_all(handle, data)
            finally:
                os.close(handle)
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def _write_all(handle: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view) :]


def _new_file_mode() -> int:
    """The mode ``open`` gives a new file: 0o666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
