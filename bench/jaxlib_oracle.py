"""jaxlib's MLIR parser (with the stablehlo, mhlo and chlo dialects) as an oracle.

``Oracle().verdicts(texts)`` classifies each text in a child process, so an input that
crashes the C++ parser (a test of the upstream checkout divides by zero in a verifier) is
reported as ``crash`` and the child is started again. Verdicts:

- ``ok``: parsed and verified;
- ``parse``: rejected by the parser (MLIR's own error message is kept);
- ``verify``: parsed, rejected by an op's verifier (``'dialect.op' op ...``), a check beyond
  the parser;
- ``unknown``: a custom form of an op or dialect jaxlib does not know;
- ``crash``: the parser process died.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

_CHILD = r"""
import json, re, sys
from jax._src.interpreters import mlir as jax_mlir
from jaxlib.mlir import ir
context = jax_mlir.make_ir_context()
context.allow_unregistered_dialects = True
for line in sys.stdin:
    text = json.loads(line)
    try:
        ir.Module.parse(text, context)
        kind, message, where = "ok", "", ""
    except ir.MLIRError as error:
        diagnostics = error.error_diagnostics
        message = diagnostics[0].message if diagnostics else str(error)
        where = str(diagnostics[0].location) if diagnostics else ""
        if re.match(r"'[\w.$-]+' op ", message):
            kind = "verify"
        elif re.search(r"is unknown|unregistered| not found for custom op", message):
            kind = "unknown"
        else:
            kind = "parse"
    except Exception as error:
        kind, message, where = "parse", str(error), ""
    sys.stdout.write(json.dumps([kind, message, where]) + "\n")
    sys.stdout.flush()
"""


@dataclass(frozen=True)
class Verdict:
    kind: str  # ok | parse | verify | unknown | crash
    message: str = ""
    where: str = ""

    @property
    def rejected(self) -> bool:
        return self.kind != "ok"


class _Child:
    """A long-lived child process running ``script`` (one JSON line in, one out), started
    again after a crash."""

    def __init__(self, script: str) -> None:
        self.script = script
        self._process: subprocess.Popen[str] | None = None

    def ask(self, text: str) -> Any:
        """The child's answer for ``text``, or None when the child died on it."""
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, "-c", self.script],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(text) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            process.wait()
            self._process = None
            return None
        return json.loads(line)

    def close(self) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait()
            self._process = None


class Oracle:
    """A long-lived child process running jaxlib's parser, restarted after a crash."""

    def __init__(self) -> None:
        self._child = _Child(_CHILD)

    def verdict(self, text: str) -> Verdict:
        answer = self._child.ask(text)
        if answer is None:
            return Verdict("crash")
        kind, message, where = answer
        return Verdict(kind, message, where)

    def verdicts(self, texts: list[str]) -> list[Verdict]:
        return [self.verdict(text) for text in texts]

    def close(self) -> None:
        self._child.close()


def available() -> bool:
    try:
        import jaxlib  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


_TIMER = r"""
import json, sys, time
from jax._src.interpreters import mlir as jax_mlir
from jaxlib.mlir import ir
context = jax_mlir.make_ir_context()
context.allow_unregistered_dialects = True
for line in sys.stdin:
    text = json.loads(line)
    start = time.perf_counter()
    try:
        ir.Module.parse(text, context)
        rejected = False
    except Exception:
        rejected = True
    sys.stdout.write(json.dumps([time.perf_counter() - start, rejected]) + "\n")
    sys.stdout.flush()
"""


@dataclass(frozen=True)
class ParseTime:
    """jaxlib's parse of many texts in one process: the seconds its parser took over all of
    them, how many it rejected, and how many crashed it (those are left out of the time)."""

    seconds: float
    texts: int
    rejected: int
    crashed: int


def parse_time(texts: list[str]) -> ParseTime:
    """Time jaxlib's parser on each text in a child process (restarted after a crash: a
    verifier of the upstream tests divides by zero), as ``mlir-opt --split-input-file``
    parses each chunk of a test file as its own buffer."""
    seconds, rejected, crashed = 0.0, 0, 0
    child = _Child(_TIMER)
    try:
        for text in texts:
            answer = child.ask(text)
            if answer is None:
                crashed += 1
                continue
            seconds += answer[0]
            rejected += answer[1]
    finally:
        child.close()
    return ParseTime(seconds, len(texts), rejected, crashed)
