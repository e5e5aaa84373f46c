"""Worker processes live only as long as the process they work for.

A worker (of `passlint check`, or the language server's analysis process) calls
``serve_until_gone(pid)`` when it starts: it leaves Ctrl-C to that process and ends itself the
moment that process has ended, however it ended (killed included), so no worker is left
holding the caller's pipes or memory. Linux tells the end through a pidfd at once; elsewhere
the worker looks once a second.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time

_POLL_SECONDS = 1.0


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def serve_until_gone(pid: int) -> None:
    """In a worker: ignore SIGINT (the process ``pid`` decides), end at SIGTERM as any
    process does (a forked worker would inherit its parent's handler) and exit when ``pid``
    ends."""
    if pid == os.getpid():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # not Linux, or a kernel without pidfds
        handle = -1
    threading.Thread(target=_watch, args=(pid, handle), name="passlint-parent", daemon=True).start()


def _watch(pid: int, handle: int) -> None:
    if handle >= 0:
        select.select([handle], [], [])  # readable once the process has ended
    else:
        while alive(pid):
            time.sleep(_POLL_SECONDS)
    os._exit(1)
