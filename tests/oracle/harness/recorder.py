"""Record what pypto's real MaterializeValidShapeSymbols pass does to every program a
process builds. Runs under the oracle's Python (a built pypto), never under passlint's.

``install()`` patches pypto's DSL front end in two places that leave the decorators' own
frames alone (``@pl.program`` and ``@pl.function`` read their caller's frame for closure
variables, so they cannot be wrapped):

- the ``ir`` module as ``pypto.language.parser.decorator`` sees it, whose ``Program`` is
  the only constructor of a ``@pl.program`` class's Program: each one is recorded when it
  is built;
- ``ASTParser.parse_function``: a standalone ``@pl.function`` (no program) is recorded, and
  every error the DSL parser raises for a function is recorded with its span.

For each program the pass runs at once (in an empty PassContext): an event says whether
it rejected the program (message, span), left it unchanged, or which kernels gained which
leading parameters and which call/submit sites got which extents (printed by pypto's
printer). A program whose orchestration code holds ``with pl.at(...)`` (or another
outlined scope), or that the pass changes or rejects, also goes through the default
pipeline's passes up to and including OptimizeOrchTensors (the outlining passes make the
kernels; OptimizeOrchTensors replaces the view of an input fed a slice of a tensor of static
shape by strides, so the pass sees no valid_shape there; the passes after it, up to the
pass, left every corpus program's outcome as it was), then the pass, as ``pl.compile`` runs
it: that event names the outlined kernels and says what the pass then does to the kernels
written in the DSL.

With ``PASSLINT_ORACLE_ARGUMENTS`` set (the re-run of fixed files), each program event also
lists every call/submit of a program function with all its arguments, printed by pypto's
printer, and the callee's parameter names: what a fix inserted at a call, as the parser
built it.

Events are JSON lines appended to the file named by ``PASSLINT_ORACLE_EVENTS``.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import traceback
from collections.abc import Iterator
from typing import Any

EVENTS_ENV = "PASSLINT_ORACLE_EVENTS"
ARGUMENTS_ENV = "PASSLINT_ORACLE_ARGUMENTS"

_DEVICE_TYPES = frozenset({"InCore", "AIC", "AIV", "Spmd"})
_SPAN_IN_MESSAGE = re.compile(r"\[([^\s'\"\[]+\.py):(\d+)(?::(\d+))?\]")

_state: dict[str, Any] = {"installed": False, "context": None}


def set_context(text: str | None) -> None:
    """What is running (a test id, a module): stored with each event, for the reader."""
    _state["context"] = text


def install() -> None:
    if _state["installed"]:
        return
    _state["installed"] = True
    from pypto.language.parser import ast_parser, decorator

    decorator.ir = _RecordingIr(decorator.ir)
    original = ast_parser.ASTParser.parse_function

    def parse_function(self: Any, func_def: ast.FunctionDef, *args: Any, **kwargs: Any) -> Any:
        try:
            function = original(self, func_def, *args, **kwargs)
        except Exception as error:
            _guarded(_parser_error, self, func_def, error)
            raise
        if not self.global_vars:  # a program's methods share the program's GlobalVars
            _guarded(_standalone, function)
        return function

    ast_parser.ASTParser.parse_function = parse_function


class _RecordingIr:
    """``pypto_core.ir`` with a ``Program`` that records each program it builds."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def Program(self, *args: Any, **kwargs: Any) -> Any:
        program = self._real.Program(*args, **kwargs)
        _guarded(_program, program)
        return program


def _guarded(action: Any, *args: Any) -> None:
    """Recording must never change what the recorded code does."""
    try:
        action(*args)
    except Exception:
        _emit({"event": "recorder-error", "trace": traceback.format_exc(limit=8)})


def _emit(event: dict[str, Any]) -> None:
    path = os.environ.get(EVENTS_ENV)
    if not path:
        return
    event["context"] = _state["context"]
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(event) + "\n")


def emit_python_error(file: str, line: int | None, message: str) -> None:
    """Python stopped running ``file`` (at ``line``) before it built what follows."""
    _emit({"event": "python-error", "file": file, "line": line, "message": message[:500]})


# -- what the parser did --------------------------------------------------------------------


def _parser_error(parser: Any, func_def: ast.FunctionDef, error: Exception) -> None:
    where = parser.span_tracker.get_span(func_def)
    span = getattr(error, "span", None)
    _emit(
        {
            "event": "parser-error",
            "file": where.filename,
            "function": func_def.name,
            "function_line": where.begin_line,
            "in_program": bool(parser.global_vars),
            "type": type(error).__name__,
            "message": getattr(error, "message", None) or str(error),
            "line": span.get("begin_line") if isinstance(span, dict) else None,
            "column": span.get("begin_column") if isinstance(span, dict) else None,
        }
    )


def _standalone(function: Any) -> None:
    """A ``@pl.function`` outside any program: the pass sees it in whichever program it
    joins; alone, it is what the pass makes of a program holding just this function."""
    if function.func_type.name not in _DEVICE_TYPES:
        return
    from pypto.pypto_core import ir

    program = ir.Program([function], function.name, function.span)
    event = {"event": "function", **_function_place(function)}
    event.update(_outcome(program))
    _emit(event)


# -- what the pass does ---------------------------------------------------------------------


def _program(program: Any) -> None:
    span = program.span
    file, line = span.filename, span.begin_line
    if file.startswith("<"):  # parsed from text (printer round trips, pl.parse, JIT)
        _emit({"event": "text-program", "file": file})
        return
    event: dict[str, Any] = {
        "event": "program",
        "name": program.name,
        "file": file,
        "line": line,
        "functions": [_function_place(f) for f in program.functions.values()],
    }
    event.update(_outcome(program))
    if event["outcome"] != "unchanged" or _has_outlined_scopes(program):
        event["pipeline"] = _pipeline_outcome(program)
    if os.environ.get(ARGUMENTS_ENV):
        event["arguments"] = _arguments(program)
    _emit(event)


def _function_place(function: Any) -> dict[str, Any]:
    span = function.span
    return {
        "name": function.name,
        "type": function.func_type.name,
        "file": span.filename,
        "line": span.begin_line,
        "params": [p.name_hint for p in function.params],
    }


@contextlib.contextmanager
def _quiet_context() -> Iterator[None]:
    """No instruments and no verification: only the pass itself decides."""
    from pypto.pypto_core import passes

    with passes.PassContext([], verification_level=passes.VerificationLevel.NONE):
        yield


def _outcome(program: Any) -> dict[str, Any]:
    from pypto.pypto_core import passes

    try:
        with _quiet_context():
            after = passes.materialize_valid_shape_symbols()(program)
    except Exception as error:
        return {"outcome": "rejected", "error": _error(error)}
    return _changes(program, after)


def _error(error: Exception) -> dict[str, Any]:
    message = str(error)
    found = _SPAN_IN_MESSAGE.findall(message)
    place = found[0] if found else None
    return {
        "type": type(error).__name__,
        "message": message,
        "file": place[0] if place else None,
        "line": int(place[1]) if place else None,
        "column": int(place[2]) if place and place[2] else None,
    }


def _changes(before: Any, after: Any) -> dict[str, Any]:
    """Which kernels gained leading parameters, and what every call of them prepends."""
    if after.same_as(before):
        return {"outcome": "unchanged"}
    old = {f.name: f for f in before.functions.values()}
    kernels = []
    added: dict[str, int] = {}
    for function in after.functions.values():
        was = old.get(function.name)
        count = len(function.params) - (len(was.params) if was is not None else 0)
        if was is None or count <= 0:
            continue
        added[function.name] = count
        place = _function_place(was)
        place["added"] = [p.name_hint for p in function.params[:count]]
        kernels.append(place)
    if not kernels:
        return {"outcome": "unchanged"}
    return {"outcome": "changed", "kernels": kernels, "calls": _sites(after, added)}


def _sites(program: Any, added: dict[str, int]) -> list[dict[str, Any]]:
    """The calls of the kernels that gained parameters, with what the pass prepends."""
    calls = _calls(program, set(added))
    for call in calls:
        call["extents"] = call.pop("args")[: added[call["callee"]]]
    return calls


def _arguments(program: Any) -> list[dict[str, Any]]:
    """Every call of a function of the program, with all its arguments and the callee's
    parameter names (as the program was built: the pass does not run here)."""
    params = {f.name: [p.name_hint for p in f.params] for f in program.functions.values()}
    calls = _calls(program, set(params))
    for call in calls:
        call["params"] = params[call["callee"]]
    return calls


def _calls(program: Any, callees: set[str]) -> list[dict[str, Any]]:
    """The calls and submits of ``callees`` in ``program``, with every argument printed."""
    from pypto.pypto_core import ir

    sites: list[dict[str, Any]] = []

    class Sites(ir.IRVisitor):
        caller = ""

        def visit_call(self, op: Any) -> None:
            self.note(op, "call")
            super().visit_call(op)
            self.nested(op)

        def visit_submit(self, op: Any) -> None:
            self.note(op, "submit")
            super().visit_submit(op)
            self.nested(op)

        def nested(self, op: Any) -> None:
            """The calls among ``op``'s arguments (``pl.assemble(out, self.k(...), ...)``):
            the base visitor does not hand them back to these methods."""
            for arg in op.args:
                if isinstance(arg, ir.Call):
                    self.visit_call(arg)

        def note(self, op: Any, form: str) -> None:
            target = op.op
            if not isinstance(target, ir.GlobalVar) or target.name not in callees:
                return
            span = op.span
            sites.append(
                {
                    "callee": target.name,
                    "caller": self.caller,
                    "form": form,
                    "file": span.filename,
                    "line": span.begin_line,
                    "column": span.begin_column,
                    "args": [ir.python_print(arg) for arg in op.args],
                }
            )

    visitor = Sites()
    for function in program.functions.values():
        visitor.caller = function.name
        visitor.visit_stmt(function.body)
    return sites


# -- kernels the default pipeline outlines --------------------------------------------------


def _has_outlined_scopes(program: Any) -> bool:
    from pypto.pypto_core import ir

    class Scopes(ir.IRVisitor):
        found = False

        def visit_in_core_scope_stmt(self, op: Any) -> None:
            self.found = True

        def visit_hierarchy_scope_stmt(self, op: Any) -> None:
            self.found = True

        def visit_cluster_scope_stmt(self, op: Any) -> None:
            self.found = True

    visitor = Scopes()
    for function in program.functions.values():
        if function.func_type.name not in _DEVICE_TYPES:
            visitor.visit_stmt(function.body)
    return visitor.found


def outlining_passes() -> list[Any]:
    """The default pipeline's passes from its start through OptimizeOrchTensors (the last
    one before the pass that changes the kernels' parameter views)."""
    from pypto.ir.pass_manager import OptimizationStrategy, PassManager

    factories = PassManager._get_pass_factories(
        OptimizationStrategy.Default, analyze_auto_scopes_for_deps=False
    )
    names = [getattr(f, "__name__", "") for f in factories]
    return [factory() for factory in factories[: names.index("optimize_orch_tensors") + 1]]


def _pipeline_outcome(program: Any) -> dict[str, Any]:
    """The pass after the outlining passes; ``outlined``: the functions they created."""
    try:
        with _quiet_context():
            outlined = program
            for step in outlining_passes():
                outlined = step(outlined)
    except Exception as error:
        return {"outcome": "pipeline-failed", "error": _error(error)}
    original = {f.name for f in program.functions.values()}
    result: dict[str, Any] = {
        "outlined": [
            _function_place(f) for f in outlined.functions.values() if f.name not in original
        ]
    }
    result.update(_outcome(outlined))
    return result
