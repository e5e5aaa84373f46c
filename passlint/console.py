"""What the command line tells people besides its reports: its exit codes and one-line
messages on stderr (shared by `passlint check` and the other commands)."""

from __future__ import annotations

import sys

from passlint.report.escape import terminal_safe

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def say(message: str) -> None:
    """One line for people on stderr, with what could steer a terminal escaped."""
    print(f"passlint: {terminal_safe(message)}", file=sys.stderr)
