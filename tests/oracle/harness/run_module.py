"""Build the programs of pl source files that are not pytest tests (examples, passlint's own
corpus) under the oracle's Python, recording each (``recorder``).

Each file is run as a module (not as ``__main__``), in a scratch folder; then every function
of the file that defines a ``@pl.program`` or ``@pl.function`` and needs no argument is
called (builders, test functions), and so is every such method of a class that can be made
without arguments. Whatever they raise is recorded by the recorder and otherwise ignored.

    python run_module.py FILE...
"""

from __future__ import annotations

import ast
import inspect
import os
import runpy
import sys
import tempfile

import recorder


def _failed(path: str, error: BaseException) -> None:
    """Say where in ``path`` Python stopped, so that code never built is explained."""
    line = None
    trace = error.__traceback__
    while trace is not None:
        if os.path.abspath(trace.tb_frame.f_code.co_filename) == path:
            line = trace.tb_lineno
        trace = trace.tb_next
    recorder.emit_python_error(path, line, f"{type(error).__name__}: {error}")


def _defines_pl(node: ast.AST) -> bool:
    return any(
        isinstance(inner, ast.Attribute) and inner.attr in ("program", "function")
        for child in ast.walk(node)
        if isinstance(child, ast.FunctionDef | ast.ClassDef)
        for inner in (d.func if isinstance(d, ast.Call) else d for d in child.decorator_list)
    )


def _callable_without_arguments(function: object, skip: int = 0) -> bool:
    try:
        params = list(inspect.signature(function).parameters.values())[skip:]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params
    )


def _builders(path: str) -> tuple[set[str], dict[str, set[str]]]:
    """Top-level functions, and methods by class, that define pl programs or functions
    inside their body."""
    with open(path, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    functions = set()
    methods: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(_defines_pl(s) for s in node.body):
            functions.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and any(_defines_pl(s) for s in item.body):
                    methods.setdefault(node.name, set()).add(item.name)
    return functions, methods


def run(path: str) -> None:
    path = os.path.abspath(path)
    recorder.set_context(f"module {path}")
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)
    try:
        namespace = runpy.run_path(path, run_name="__oracle__")
    except BaseException as error:
        _failed(path, error)
        return
    finally:
        sys.path.remove(folder)
    functions, methods = _builders(path)
    for name in sorted(functions):
        function = namespace.get(name)
        if callable(function) and _callable_without_arguments(function):
            recorder.set_context(f"call {path}::{name}")
            try:
                function()
            except BaseException as error:
                _failed(path, error)
    for class_name, names in sorted(methods.items()):
        cls = namespace.get(class_name)
        try:
            instance = cls()  # type: ignore[misc]
        except BaseException:
            continue
        for name in sorted(names):
            method = getattr(cls, name, None)
            if callable(method) and _callable_without_arguments(method, skip=1):
                recorder.set_context(f"call {path}::{class_name}.{name}")
                try:
                    getattr(instance, name)()
                except BaseException as error:
                    _failed(path, error)


def main(paths: list[str]) -> None:
    paths = [os.path.abspath(path) for path in paths]
    recorder.install()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # a module that writes files writes them here
        os.environ.setdefault("PASSLINT_MARKER", os.path.join(scratch, "marker"))
        for path in paths:
            run(path)


if __name__ == "__main__":
    main(sys.argv[1:])
