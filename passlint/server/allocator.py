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
"""

from __future__ import annotations

import ctypes
import sys

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
