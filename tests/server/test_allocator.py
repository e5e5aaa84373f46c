"""The server's memory settings: the mapping threshold and the restart with huge pages."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import pytest

from passlint.server.allocator import (
    HUGE_PAGE_TUNABLE,
    THP_MODE_FILE,
    huge_page_environment,
    map_large_blocks,
)

MADVISE = "always [madvise] never\n"


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_the_mmap_threshold_can_be_fixed() -> None:
    assert map_large_blocks()


def test_huge_pages_are_asked_for_where_the_kernel_waits_to_be_asked() -> None:
    assert huge_page_environment(MADVISE, "glibc 2.36", {"PATH": "/bin"}) == {
        "PATH": "/bin",
        "GLIBC_TUNABLES": "glibc.malloc.hugetlb=1",
    }


def test_other_tunables_are_kept() -> None:
    environment = {"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"}
    assert huge_page_environment(MADVISE, "glibc 2.35", environment) == {
        "GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"
    }


@pytest.mark.parametrize(
    "modes", ["[always] madvise never", "always madvise [never]", "", "madvise"]
)
def test_nothing_changes_where_the_kernel_does_not_wait_to_be_asked(modes: str) -> None:
    assert huge_page_environment(modes, "glibc 2.36", {}) is None


@pytest.mark.parametrize("libc", ["glibc 2.34", "glibc 1.99", "musl 1.2.4", "", "glibc x.y"])
def test_nothing_changes_where_the_c_library_has_no_such_tunable(libc: str) -> None:
    assert huge_page_environment(MADVISE, libc, {}) is None


def test_a_users_own_choice_is_kept_and_the_restart_happens_once() -> None:
    for value in ("glibc.malloc.hugetlb=0", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"):
        assert huge_page_environment(MADVISE, "glibc 2.36", {"GLIBC_TUNABLES": value}) is None


def _asks_for_huge_pages() -> bool:
    try:
        modes = Path(THP_MODE_FILE).read_text()
        libc = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (OSError, ValueError):
        return False
    return huge_page_environment(modes, libc, {}) is not None


@pytest.mark.skipif(not _asks_for_huge_pages(), reason="kernel or C library without the choice")
def test_the_served_process_runs_with_the_tunable_under_the_same_pid() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    process = subprocess.Popen(
        [sys.executable, "-m", "passlint", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=environment,
    )
    try:
        setting = f"{HUGE_PAGE_TUNABLE}=1".encode()
        deadline = time.monotonic() + 30
        while setting not in Path(f"/proc/{process.pid}/environ").read_bytes():
            assert time.monotonic() < deadline, "the server did not restart with huge pages"
            time.sleep(0.05)
    finally:
        assert process.stdin is not None
        process.stdin.close()  # the client is gone: the server ends
        process.wait(timeout=30)
