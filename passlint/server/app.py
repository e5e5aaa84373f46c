"""`passlint serve`: start the language server on stdio or TCP."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run(argv: Sequence[str]) -> int:
    """Run the server with its own options (placeholder until the server lands)."""
    print("passlint: the language server is not available yet", file=sys.stderr)
    return 2
