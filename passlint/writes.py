"""Writing fixed texts back to disk: all the files of one run as one unit, or none of them.

Each new text is first written to a temporary file beside its target, synced to disk and
given the target's mode and owner; only when every one is ready are they renamed over their
targets, in one burst during which SIGINT, SIGTERM and SIGHUP wait. Should a rename fail
there, the files already replaced get their old text back. A file passlint must not replace
is refused before anything is written: one the user cannot write (no write permission, an
immutable file), one whose owner the replacement could not keep, one with several hard
links (a new file would part them), or one that changed on disk since it was read.

Temporary files are named ``.NAME.PID.RANDOM.passlint``: a run killed before it could remove
its own leaves them behind, and the next run that writes in that folder removes those whose
process is gone (``remove_leftovers``).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from passlint.filesystem import read_regular
from passlint.lifetime import alive

_LEFTOVER = re.compile(r"\..+\.(\d{1,10})\.[^.]+\.passlint")
_DEFERRED = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@dataclass
class WriteOutcome:
    """Which files were written, and why the others were not (one line each)."""

    written: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # real path -> reason


def why_not_writable(real: str) -> str | None:
    """Why passlint will not replace the file at the real path ``real`` (None: it may)."""
    try:
        info = os.stat(real)
    except OSError as error:
        return f"cannot read it: {error.strerror or error}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
        return "it is read-only for you"
    folder = os.path.dirname(real) or "."
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is read-only for you"
    uid = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
    if info.st_uid != uid and uid != 0:
        return "it belongs to another user, and a rewritten file would belong to you"
    if info.st_nlink > 1:
        return f"it has {info.st_nlink} hard links, which a rewritten file would part"
    return None


def write_texts(new: Mapping[str, str], old: Mapping[str, str]) -> WriteOutcome:
    """Replace each file (by real path) in ``new`` by its text, all or none; ``old`` holds the
    text each one had when it was read, which it must still have."""
    outcome = WriteOutcome()
    for real in new:
        reason = why_not_writable(real) or _changed_since(real, old[real])
        if reason is not None:
            outcome.failed[real] = reason
    if outcome.failed:
        return _none_written(new, outcome)
    for folder in dict.fromkeys(os.path.dirname(real) or "." for real in new):
        remove_leftovers(folder)
    staged: dict[str, str] = {}  # real path -> its temporary file
    done: list[str] = []
    with signals_deferred() as caught:  # staging stops at a signal; the renames do not
        try:
            for real, text in new.items():
                if caught:
                    break
                staged[real] = _stage(real, text)
            if not caught:
                for real, temporary in staged.items():
                    os.replace(temporary, real)
                    done.append(real)
        except OSError as error:
            outcome.failed[real] = str(error.strerror or error)
            _restore(done, old)
            done = []
        finally:
            for real, temporary in staged.items():
                if real not in done:
                    with contextlib.suppress(OSError):
                        os.unlink(temporary)
    if len(done) < len(new):
        return _none_written(new, outcome)
    for folder in dict.fromkeys(os.path.dirname(real) or "." for real in done):
        _sync_folder(folder)
    outcome.written = done
    return outcome


def _none_written(new: Mapping[str, str], outcome: WriteOutcome) -> WriteOutcome:
    """Every file of ``new`` left as it was: those without a reason of their own wait for
    the ones that have one."""
    blocked = ", ".join(sorted(outcome.failed))
    for real in new:
        outcome.failed.setdefault(
            real, f"held back, as {blocked} could not be written (a run's fixes go together)"
        )
    outcome.written = []
    return outcome


def _changed_since(real: str, text: str) -> str | None:
    try:
        now = read_regular(real, len(text.encode("utf-8")) + 1)
    except OSError:
        return "it changed on disk since passlint read it"
    if now != text.encode("utf-8"):
        return "it changed on disk since passlint read it"
    return None


def _stage(real: str, text: str) -> str:
    """A temporary file beside ``real`` holding ``text``, on disk, with the mode and owner of
    ``real``."""
    info = os.stat(real)
    folder, name = os.path.split(real)
    handle, temporary = tempfile.mkstemp(
        dir=folder or ".", prefix=f".{name[:64]}.{os.getpid()}.", suffix=".passlint"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fchmod(out.fileno(), stat.S_IMODE(info.st_mode))
            if hasattr(os, "fchown") and (info.st_uid, info.st_gid) != _owner(out.fileno()):
                os.fchown(out.fileno(), info.st_uid, info.st_gid)
            os.fsync(out.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _owner(handle: int) -> tuple[int, int]:
    info = os.fstat(handle)
    return info.st_uid, info.st_gid


def _restore(done: list[str], old: Mapping[str, str]) -> None:
    """Put the old text back into the files already replaced (best effort: each one is
    staged and renamed as the new text was)."""
    for real in done:
        with contextlib.suppress(OSError):
            os.replace(_stage(real, old[real]), real)


def _sync_folder(folder: str) -> None:
    """Put a folder's renames on disk (where the platform can open a folder)."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def remove_leftovers(folder: str) -> list[str]:
    """Remove the temporary files a killed run left in ``folder`` (those of a process that
    is still running are its own); the names removed."""
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _LEFTOVER.fullmatch(name)
        if match is None or alive(int(match.group(1))):
            continue
        path = os.path.join(folder, name)
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(path).st_mode):
                os.unlink(path)
                removed.append(name)
    return removed


@contextlib.contextmanager
def signals_deferred() -> Iterator[list[int]]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends, then deliver the first one; the
    block sees those caught so far (only the main thread can hold them; elsewhere the block
    runs as it is and sees none). A signal the process ignores (``nohup``, a background job)
    stays ignored: it neither stops the block nor reaches it."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    previous = {}
    for number in _DEFERRED:
        if signal.getsignal(number) is signal.SIG_IGN:
            continue
        previous[number] = signal.signal(number, lambda got, _frame: caught.append(got))
    try:
        yield caught
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            signal.raise_signal(caught[0])
