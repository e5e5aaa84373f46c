"""Large blocks of memory straight from the operating system and back (glibc's malloc).

glibc serves a request of 128 KiB or more with a mapping of its own, returned to the system
when freed, but raises that threshold to the size of each such block freed (up to 32 MiB).
After the first multi-megabyte text is freed, the next texts, pickled jobs and results come
from the heap instead, whose freed blocks stay resident until the heap's top is free: the
server grew 20-35 MB more while a 7.7 MB module was edited, its worker 6 MB more (P9). A
fixed threshold (as setting ``MALLOC_MMAP_THRESHOLD_`` would) keeps it from rising; each
multi-megabyte text then costs one mapping, about a millisecond.
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
