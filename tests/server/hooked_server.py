"""`passlint serve` with an instrumented analysis, for the scheduling tests.

A document containing ``SLOW(<seconds>)`` is analysed that much slower; one containing
``CRASH`` makes the analysis raise, as a bug in a pass would. The command
``passlint.test.parses`` answers how many times this process parsed MLIR text.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

from passlint.analysis import engine
from passlint.analysis.mlir import parser

_real_analyze = engine.analyze_document


def analyze(path: str, text: str, *args: Any, **kwargs: Any) -> Any:
    if "CRASH" in text:
        raise RuntimeError("simulated crash inside a pass")
    slow = re.search(r"SLOW\(([0-9.]+)\)", text)
    if slow:
        time.sleep(float(slow.group(1)))
    return _real_analyze(path, text, *args, **kwargs)


engine.analyze_document = analyze

_real_parse = parser.parse_file
PARSES = [0]


def parse_file(*args: Any, **kwargs: Any) -> Any:
    PARSES[0] += 1
    return _real_parse(*args, **kwargs)


parser.parse_file = parse_file

if __name__ == "__main__":
    from passlint.server.app import run
    from passlint.server.server import PasslintServer, server

    @server.command("passlint.test.parses")
    def parses(ls: PasslintServer, *args: Any) -> int:
        return PARSES[0]

    sys.exit(run(sys.argv[1:]))
