"""Large blocks of memory straight from the operating system and back (glibc's malloc).

glibc serves a request of 128 KiB or more with a mapping of its own, returned to the system
when freed, but raises that threshold to the size of each such block freed (up to 32 MiB).
After the first multi-megabyte text is freed, the next texts, pickled jobs and IRs' large
lists come from the heap instead, whose freed blocks stay resident until the heap's top is
free. A fixed threshold (as setting ``MALLOC_MMAP_THRESHOLD_`` would) keeps it from rising:
the analysis process of the 7.7 MB generic module peaks 6 MB lower.

The server uses it too. The price is that each large block comes in fresh pages: faulting
in a 7.7 MB text (and the slices an edit is built from) costs a few milliseconds at each
edit (P6's edit went from 6-12 to 11-18 ms, P2's from 7-11 to 7-17 ms, against a goal of
50). Without it, the server's heap kept the holes of the versions an edit burst went
through: P6's server peaked at 138 MB, 116 MB with it; P1/P2's at 101-110 MB, 85-89 MB with
it.

Faulting those pages in is most of an edit's cost on a 100 MB module: the new text's
copy takes 56 ms in 4 KiB pages and 9-10 ms in 2 MiB ones. glibc (2.35 and later) backs
its blocks with transparent huge pages when the tunable ``glibc.malloc.hugetlb=1`` is set,
and tunables are read only when a program starts: where the kernel gives huge pages only to
memory that asks for them (``[madvise]``), the server starts itself again with the tunable
set (P11's edit went from 102 to 40 ms; the memory rows stayed within their noise).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping

MMAP_THRESHOLD = 256 * 1024
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)


def map_large_blocks() -> bool:
    """Fix this process's mapping threshold; False where the C library has no ``mallopt``
    (not glibc)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))


HUGE_PAGE_TUNABLE = "glibc.malloc.hugetlb"
THP_MODE_FILE = "/sys/kernel/mm/transparent_hugepage/enabled"


def huge_page_environment(
    thp_modes: str, libc_version: str, environment: Mapping[str, str]
) -> dict[str, str] | None:
    """The environment to start the server again in so that glibc asks for huge pages, or
    None where that would change nothing: the kernel's mode (the text of THP_MODE_FILE,
    the chosen one in brackets) is not ``madvise``, the C library (``os.confstr``'s
    ``CS_GNU_LIBC_VERSION``, as ``glibc 2.36``) is not glibc 2.35 or later, or the
    environment already says how glibc should use huge pages."""
    if "[madvise]" not in thp_modes.split():
        return None
    name, _, version = libc_version.partition(" ")
    numbers = version.split(".")[:2]
    if name != "glibc" or len(numbers) != 2 or not all(n.isdigit() for n in numbers):
        return None
    if (int(numbers[0]), int(numbers[1])) < (2, 35):
        return None
    tunables = environment.get("GLIBC_TUNABLES", "")
    if HUGE_PAGE_TUNABLE + "=" in tunables:
        return None
    setting = f"{HUGE_PAGE_TUNABLE}=1"
    return {**environment, "GLIBC_TUNABLES": f"{tunables}:{setting}" if tunables else setting}


def restart_with_huge_pages() -> None:
    """Replace this process by the same command run with huge pages asked for (see
    ``huge_page_environment``); returns where there is nothing to do or it cannot be done.
    Call it before the process has read or written anything its client sent."""
    if not sys.platform.startswith("linux") or not sys.executable or not sys.orig_argv:
        return
    try:
        with open(THP_MODE_FILE, encoding="ascii") as modes:
            thp_modes = modes.read()
        libc_version = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (OSError, ValueError):
        return
    environment = huge_page_environment(thp_modes, libc_version, os.environ)
    if environment is None:
        return
    sys.stderr.flush()
    try:
        os.execve(sys.executable, sys.orig_argv, environment)
    except OSError:
        return
