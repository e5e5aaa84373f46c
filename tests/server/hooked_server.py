"""`passlint serve` with an instrumented analysis, for the scheduling tests.

A document containing ``SLOW(<seconds>)`` is analysed that much slower; one containing
``CRASH`` makes the analysis raise, as a bug in a pass would.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

from passlint.analysis import engine

_real_analyze = engine.analyze_document


def analyze(path: str, text: str, *args: Any, **kwargs: Any) -> Any:
    if "CRASH" in text:
        raise RuntimeError("simulated crash inside a pass")
    slow = re.search(r"SLOW\(([0-9.]+)\)", text)
    if slow:
        time.sleep(float(slow.group(1)))
    return _real_analyze(path, text, *args, **kwargs)


engine.analyze_document = analyze

if __name__ == "__main__":
    from passlint.server.app import run

    sys.exit(run(sys.argv[1:]))
