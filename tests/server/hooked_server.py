"""`passlint serve` with an instrumented analysis, for the scheduling tests.

A document containing ``SLOW(<seconds>)`` is analysed that much slower; one containing
``CRASH`` makes the analysis raise, as a bug in a pass would. The command
``passlint.test.parses`` answers how many times this process parsed MLIR text,
``passlint.test.texts`` how many texts holding a marker its objects refer to,
``passlint.test.collect`` runs the garbage collector. The command
``passlint.test.raise`` and the notification ``passlint/testRaise`` fail as a bug in a
handler would.
"""

from __future__ import annotations

import gc
import re
import sys
import time
from typing import Any

from passlint import pipeline
from passlint.analysis.mlir import parser

_real_analyze = pipeline.analyze_document


def analyze(path: str, text: str, *args: Any, **kwargs: Any) -> Any:
    if "CRASH" in text:
        raise RuntimeError("simulated crash inside a pass")
    slow = re.search(r"SLOW\(([0-9.]+)\)", text)
    if slow:
        time.sleep(float(slow.group(1)))
    return _real_analyze(path, text, *args, **kwargs)


pipeline.analyze_document = analyze

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

    @server.command("passlint.test.texts")
    def texts(ls: PasslintServer, *args: Any) -> int:
        """How many distinct texts holding ``args[0]`` this process's objects refer to,
        garbage in reference cycles included (no collection first)."""
        marker = args[0]
        found = {
            id(referent)
            for holder in gc.get_objects()
            for referent in gc.get_referents(holder)
            if type(referent) is str and len(referent) > 1000 and marker in referent
        }
        return len(found)

    @server.command("passlint.test.collect")
    def collect(ls: PasslintServer, *args: Any) -> int:
        """Free the garbage in reference cycles now, as the collector would later."""
        return gc.collect()

    @server.command("passlint.test.raise")
    def fail(ls: PasslintServer, *args: Any) -> None:
        raise RuntimeError("simulated bug in a handler\nwith a second line")

    @server.feature("passlint/testRaise")
    def fail_quietly(ls: PasslintServer, params: Any) -> None:
        raise RuntimeError("simulated bug in a notification handler")

    sys.exit(run(sys.argv[1:]))
