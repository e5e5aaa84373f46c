"""Ground truth from pypto's real MaterializeValidShapeSymbols pass, as JSON.

Run under the oracle's Python (a built pypto)::

    python record.py --root CHECKOUT --out truth.json PATH...

Every pytest test file under the PATHs (``test_*.py``) runs under pytest with the recording
plugin (``plugin.py``), a few files per process; every other Python file that imports
``pypto.language`` is run as a module and its argument-free builders are called
(``run_module.py``). Each program built on the way is put through the pass (``recorder``);
this script gathers the events into one JSON document whose format
``TRUTH_FORMAT.md`` (beside this folder) and ``tests/oracle/truth.py`` describe. With
``--arguments`` each program's variants also list every call with all its arguments (the
re-run of fixed files compares them with the extents the pass prepends to the originals).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
_PL_IMPORT = re.compile(
    r"^\s*(?:import\s+pypto\.language\b|from\s+pypto(?:\.language)?\s+import\b)", re.MULTILINE
)
_SKIPPED = {"__pycache__", "build", "dist", "node_modules", "site-packages"}

KINDS = (
    ("only inside the compound valid_shape expression", "compound-only"),
    ("does not supply that argument", "omitted-argument"),
    ("this call supplies different extents", "conflicting-extents"),
    ("which an earlier parameter's type annotation already uses", "late-scalar"),
    ("Unknown shape variable", "unknown-shape-variable"),
    ("layout is required when stride, valid_shape, or pad is provided", "missing-layout"),
    ("pl.TensorView() does not accept positional arguments", "positional-view"),
)
_BINDINGS = re.compile(r"has conflicting bindings .* at argument \d+ (valid|physical) shape")


def kind_of(message: str) -> str:
    """What a rejection is about, from the pass's or the parser's own message. The parser's
    "conflicting bindings" of a valid_shape symbol at a call is the pass's conflicting
    extents found earlier; of a physical dimension it is not this pass's business."""
    found = _BINDINGS.search(message)
    if found:
        return "conflicting-extents" if found.group(1) == "valid" else "physical-shape-conflict"
    return next((kind for text, kind in KINDS if text in message), "other")


_COMPARED = {kind for _, kind in KINDS} | {"conflicting-extents"}
# The kinds Python itself raises while it defines the program (not pypto's parser through it,
# which its parser errors record): a rejection where Python stopped running the file.
RAISED_BY_PYTHON = frozenset({"missing-layout"})


def python_files(paths: list[str]) -> list[str]:
    found: set[str] = set()
    for path in paths:
        if os.path.isfile(path):
            found.add(os.path.abspath(path))
            continue
        for folder, subfolders, files in os.walk(path):
            subfolders[:] = [d for d in subfolders if d not in _SKIPPED and not d.startswith(".")]
            found.update(
                os.path.abspath(os.path.join(folder, f)) for f in files if f.endswith(".py")
            )
    return sorted(found)


def is_test_file(path: str) -> bool:
    name = os.path.basename(path)
    return name.startswith("test_") or name.endswith("_test.py")


def is_pl_source(path: str) -> bool:
    try:
        with open(path, encoding="utf-8") as source:
            return bool(_PL_IMPORT.search(source.read()))
    except (OSError, UnicodeDecodeError):
        return False


def run_tests(
    files: list[str],
    root: str,
    events: str,
    chunk: int,
    seconds: float,
    extra: list[str],
    env: dict[str, str],
) -> None:
    env = dict(env, PASSLINT_ORACLE_EVENTS=events, PASSLINT_ORACLE_TEST_SECONDS=str(seconds))
    env["PYTHONPATH"] = os.pathsep.join([HERE, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    for start in range(0, len(files), chunk):
        part = files[start : start + chunk]
        began = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "plugin",
                "-p",
                "no:cacheprovider",
                "--rootdir",
                root,
                "-o",
                "addopts=",
                "--continue-on-collection-errors",
                "-W",
                "ignore",
                *extra,
                *part,
            ],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        tail = done.stdout.strip().splitlines()[-1:] or [""]
        print(
            f"[oracle] tests {start + 1}-{start + len(part)} of {len(files)}: exit "
            f"{done.returncode} in {time.monotonic() - began:.0f} s: {tail[0]}",
            file=sys.stderr,
            flush=True,
        )


def run_modules(files: list[str], root: str, events: str, env: dict[str, str]) -> None:
    env = dict(env, PASSLINT_ORACLE_EVENTS=events)
    env["PYTHONPATH"] = os.pathsep.join([HERE, root, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    for path in files:  # one process per file: a module's state cannot reach the next
        try:
            subprocess.run(
                [sys.executable, os.path.join(HERE, "run_module.py"), path],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=300,
            )
        except subprocess.TimeoutExpired:
            print(f"[oracle] {path}: stopped after 300 s", file=sys.stderr, flush=True)
    print(f"[oracle] ran {len(files)} modules", file=sys.stderr, flush=True)


# -- events -> ground truth -------------------------------------------------------------------


class TruthBuilder:
    """Events gathered into the ground-truth document."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self.files: dict[str, dict[str, Any]] = {}
        self.elsewhere: Counter[str] = Counter()
        self.recorder_errors: list[str] = []
        self.elsewhere_outcomes: list[dict[str, Any]] = []  # changes outside the root (JIT, text)
        self._class_lines: dict[str, dict[int, tuple[str, int]]] = {}

    def rel(self, path: str | None) -> str | None:
        if not path:
            return None
        real = os.path.realpath(path)
        if real != self.root and not real.startswith(self.root + os.sep):
            return None
        return os.path.relpath(real, self.root)

    def clean(self, message: str) -> str:
        """The user-facing part of a message (not the C++ check that failed), with paths
        relative to the root."""
        message = message.split("\nCheck failed:")[0].rstrip()
        return message.replace(self.root + os.sep, "")

    def section(self, rel: str) -> dict[str, Any]:
        return self.files.setdefault(
            rel, {"programs": {}, "functions": {}, "parser_errors": {}, "python_errors": {}}
        )

    def add(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind == "recorder-error":
            self.recorder_errors.append(event["trace"])
            return
        rel = self.rel(event.get("file"))
        if rel is None:
            self.elsewhere[kind] += 1
            if (
                event.get("outcome") not in (None, "unchanged")
                and len(self.elsewhere_outcomes) < 50
            ):
                self.elsewhere_outcomes.append(
                    {
                        k: event.get(k)
                        for k in ("event", "name", "file", "line", "outcome", "kernels", "error")
                    }
                )
            return
        section = self.section(rel)
        if kind == "python-error":
            message = self.clean(event["message"])
            error = {"line": event["line"], "message": message, "kind": kind_of(message)}
            _count(section["python_errors"], json.dumps(error, sort_keys=True), error)
            return
        if kind == "parser-error":
            error = {
                "function": event["function"],
                "function_line": event["function_line"],
                "in_program": event["in_program"],
                "type": event["type"],
                "kind": kind_of(event["message"]),
                "message": self.clean(event["message"]),
                "line": event["line"],
                "column": event["column"],
            }
            _count(section["parser_errors"], json.dumps(error, sort_keys=True), error)
            return
        variant = self.variant(event)
        if kind == "function":
            entry = section["functions"].setdefault(
                (event["name"], event["line"]),
                {
                    "name": event["name"],
                    "line": event["line"],
                    "type": event["type"],
                    "variants": {},
                },
            )
        else:
            line = self.class_line(rel, event["line"], event["name"])
            entry = section["programs"].setdefault(
                (event["name"], event["line"]),
                {
                    "name": event["name"],
                    "line": line,
                    "start": event["line"],
                    "kernels": sorted(
                        {
                            (self.rel(f["file"]) or f["file"], f["line"], f["name"], f["type"])
                            for f in event["functions"]
                        }
                    ),
                    "variants": {},
                    "built_by": set(),
                },
            )
            builder = self.builder(event.get("context"))
            if builder is not None:
                entry["built_by"].add(builder)
        _count(entry["variants"], json.dumps(variant, sort_keys=True), variant)

    def builder(self, context: str | None) -> str | None:
        """The file whose running built a program: a test file (pytest node id, relative to
        the root) or a module run by run_module.py (absolute path)."""
        if not context:
            return None
        words = context.split(" ", 1)
        where = words[1] if words[0] in ("collect", "module", "call") else context
        where = where.split("::")[0]
        if not os.path.isabs(where):
            where = os.path.join(self.root, where)
        return self.rel(where)

    def class_line(self, rel: str, start: int, name: str) -> int | None:
        """The ``class`` line of the program ``name`` whose source, decorators first,
        starts at line ``start`` (where pypto's span puts it)."""
        if rel not in self._class_lines:
            try:
                with open(os.path.join(self.root, rel), encoding="utf-8") as source:
                    tree = ast.parse(source.read())
            except (OSError, SyntaxError, ValueError):
                tree = ast.Module(body=[], type_ignores=[])
            self._class_lines[rel] = {
                (n.decorator_list[0].lineno if n.decorator_list else n.lineno): (n.name, n.lineno)
                for n in ast.walk(tree)
                if isinstance(n, ast.ClassDef)
            }
        found = self._class_lines[rel].get(start)
        return found[1] if found is not None and found[0] == name else None

    def variant(self, event: dict[str, Any]) -> dict[str, Any]:
        """One outcome of the pass, its places relative to the root."""
        out: dict[str, Any] = {"outcome": event["outcome"]}
        if event["outcome"] == "rejected":
            error = dict(event["error"])
            error["file"] = self.rel(error["file"]) or error["file"]
            error["kind"] = kind_of(error["message"])
            error["message"] = self.clean(error["message"])
            out["error"] = error
        if event["outcome"] == "changed":
            out["kernels"] = [
                {
                    "name": k["name"],
                    "type": k["type"],
                    "file": self.rel(k["file"]) or k["file"],
                    "line": k["line"],
                    "added": k["added"],
                }
                for k in event["kernels"]
            ]
            out["calls"] = sorted(
                (
                    {
                        "callee": c["callee"],
                        "caller": c["caller"],
                        "form": c["form"],
                        "file": self.rel(c["file"]) or c["file"],
                        "line": c["line"],
                        "column": c["column"],
                        "extents": c["extents"],
                    }
                    for c in event["calls"]
                ),
                key=lambda c: (c["file"], c["line"], c["column"]),
            )
        if "pipeline" in event:
            out["pipeline"] = self.pipeline(event["pipeline"])
        if "arguments" in event:
            out["arguments"] = sorted(
                ({**c, "file": self.rel(c["file"]) or c["file"]} for c in event["arguments"]),
                key=lambda c: (c["file"], c["line"], c["column"]),
            )
        return out

    def pipeline(self, result: dict[str, Any]) -> dict[str, Any]:
        if result["outcome"] == "pipeline-failed":
            return {
                "outcome": "pipeline-failed",
                "error": self.clean(result["error"]["message"])[:500],
            }
        out = self.variant({"event": "pipeline", **result})
        out["outlined"] = [
            {"name": f["name"], "file": self.rel(f["file"]) or f["file"], "line": f["line"]}
            for f in result["outlined"]
        ]
        return out

    def document(self, pypto: dict[str, Any]) -> dict[str, Any]:
        files = {}
        for rel in sorted(self.files):
            section = self.files[rel]
            files[rel] = {
                "programs": sorted(
                    (_finish(p) for p in section["programs"].values()),
                    key=lambda p: (p["start"], p["name"]),
                ),
                "functions": sorted(
                    (_finish(f) for f in section["functions"].values()),
                    key=lambda f: (f["line"], f["name"]),
                ),
                "parser_errors": sorted(
                    section["parser_errors"].values(),
                    key=lambda e: (e["function_line"], e["line"] or 0, e["message"]),
                ),
                "python_errors": sorted(
                    section["python_errors"].values(), key=lambda e: (e["line"] or 0, e["message"])
                ),
            }
        return {
            "version": 1,
            "pass": "MaterializeValidShapeSymbols",
            "pypto": pypto,
            "root": self.root,
            "summary": summary(files, self.elsewhere),
            "files": files,
            "outside_root_outcomes": self.elsewhere_outcomes,
            "recorder_errors": self.recorder_errors[:20],
        }


def _count(table: dict[Any, Any], key: Any, value: dict[str, Any]) -> None:
    if key in table:
        table[key]["builds"] += 1
    else:
        table[key] = {**value, "builds": 1}


def _finish(entry: dict[str, Any]) -> dict[str, Any]:
    variants = list(entry["variants"].values())
    done = {k: v for k, v in entry.items() if k != "variants"}
    if "kernels" in done:
        done["kernels"] = [
            {"file": f, "line": line, "name": name, "type": kind}
            for f, line, name, kind in done["kernels"]
        ]
    done["builds"] = sum(v["builds"] for v in variants)
    if "built_by" in done:
        done["built_by"] = sorted(done["built_by"])
    done["variants"] = sorted(variants, key=lambda v: -v["builds"])
    return done


def summary(files: dict[str, Any], elsewhere: Counter[str]) -> dict[str, Any]:
    """Counts, and every outcome other than "unchanged", by place."""
    programs = builds = unchanged = 0
    changed: dict[tuple[str, int, str], dict[str, Any]] = {}
    outlined: dict[tuple[str, int, str], dict[str, Any]] = {}
    rejected: dict[tuple[str, int], dict[str, Any]] = {}
    pipeline_failed = 0
    for rel, section in files.items():
        for program in section["programs"]:
            programs += 1
            builds += program["builds"]
            where = {
                "program": program["name"],
                "program_file": rel,
                "program_line": program["line"],
            }
            if all(v["outcome"] == "unchanged" for v in program["variants"]):
                unchanged += 1
            for variant in program["variants"]:
                _note(variant, where, changed, rejected)
                pipe = variant.get("pipeline")
                if pipe is None:
                    continue
                if pipe["outcome"] == "pipeline-failed":
                    pipeline_failed += 1
                    continue
                names = {f["name"] for f in pipe["outlined"]}
                for kernel in pipe.get("kernels", []):
                    if kernel["name"] in names:
                        outlined[(kernel["file"], kernel["line"], kernel["name"])] = {
                            **kernel,
                            **where,
                            "outlined": True,
                        }
                if pipe["outcome"] == "rejected":
                    rejected.setdefault(
                        (pipe["error"]["file"] or rel, pipe["error"]["line"] or 0),
                        {**pipe["error"], **where, "stage": "pass after outlining"},
                    )
        for function in section["functions"]:
            where = {"program": None, "program_file": rel, "program_line": None}
            for variant in function["variants"]:
                _note(variant, where, changed, rejected)
        for error in section["python_errors"]:
            if error["kind"] in RAISED_BY_PYTHON:
                rejected.setdefault(
                    (rel, error["line"] or 0), {**error, "file": rel, "stage": "python"}
                )
        for error in section["parser_errors"]:
            if error["kind"] in _COMPARED:
                rejected.setdefault(
                    (rel, error["line"] or error["function_line"]),
                    {**error, "file": rel, "stage": "parser"},
                )
    return {
        "programs": programs,
        "program_builds": builds,
        "programs_unchanged": unchanged,
        "programs_with_outlining_failed": pipeline_failed,
        "standalone_kernels": sum(len(s["functions"]) for s in files.values()),
        "events_outside_root": dict(elsewhere),
        "changed_kernels": sorted(changed.values(), key=lambda k: (k["file"], k["line"])),
        "outlined_changed_kernels": sorted(outlined.values(), key=lambda k: (k["file"], k["line"])),
        "rejections": sorted(rejected.values(), key=lambda r: (r["file"] or "", r["line"] or 0)),
    }


def _note(
    variant: dict[str, Any],
    where: dict[str, Any],
    changed: dict[tuple[str, int, str], dict[str, Any]],
    rejected: dict[tuple[str, int], dict[str, Any]],
) -> None:
    if variant["outcome"] == "changed":
        for kernel in variant["kernels"]:
            changed.setdefault(
                (kernel["file"], kernel["line"], kernel["name"]), {**kernel, **where}
            )
    elif variant["outcome"] == "rejected":
        error = variant["error"]
        rejected.setdefault(
            (error["file"] or where["program_file"], error["line"] or 0),
            {**error, **where, "stage": "pass"},
        )


def pypto_identity(root: str) -> dict[str, Any]:
    identity: dict[str, Any] = {}
    try:
        import pypto

        identity["version"] = getattr(pypto, "__version__", None)
    except Exception as error:
        identity["import_error"] = repr(error)
    done = subprocess.run(
        ["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    if done.returncode == 0:
        identity["checkout_commit"] = done.stdout.strip()
    return identity


def _groups(tests: list[str], root: str, options: list[str]) -> dict[tuple[str, ...], list[str]]:
    """Test files by the extra pytest arguments they run with (``--pytest-args``)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for test in tests:
        extra: tuple[str, ...] = ()
        for option in options:
            folder, _, words = option.partition("=")
            if test.startswith(os.path.join(root, folder) + os.sep):
                extra = tuple(words.split())
        groups.setdefault(extra, []).append(test)
    return groups


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="files or folders of pl sources and tests")
    parser.add_argument(
        "--from-events", metavar="FILE", help="only gather the events of an earlier run"
    )
    parser.add_argument("--root", required=True, help="paths in the truth are relative to it")
    parser.add_argument("--out", required=True, help="the ground-truth JSON to write")
    parser.add_argument("--events", help="keep the raw event lines in this file")
    parser.add_argument("--chunk", type=int, default=25, help="test files per pytest process")
    parser.add_argument("--test-seconds", type=float, default=60.0, help="time limit per test")
    parser.add_argument(
        "--pytest-args",
        action="append",
        default=[],
        metavar="FOLDER=ARGS",
        help="extra pytest arguments for the test files below FOLDER (relative to --root), "
        "e.g. 'tests/st=--platform=a2a3sim --codegen-only'",
    )
    parser.add_argument(
        "--arguments",
        action="store_true",
        help="also record every call of a program's functions with all its arguments",
    )
    args = parser.parse_args(argv)
    files = python_files(args.paths)
    tests = [f for f in files if is_test_file(f)]
    modules = [f for f in files if not is_test_file(f) and is_pl_source(f)]
    root = os.path.abspath(args.root)
    env = dict(os.environ)
    if args.arguments:
        from recorder import ARGUMENTS_ENV  # (this script's folder is on sys.path)

        env[ARGUMENTS_ENV] = "1"
    with tempfile.TemporaryDirectory() as scratch:
        events = args.from_events or args.events or os.path.join(scratch, "events.jsonl")
        if not args.from_events:
            if os.path.exists(events):
                os.remove(events)
            for extra, group in _groups(tests, root, args.pytest_args).items():
                run_tests(group, root, events, args.chunk, args.test_seconds, list(extra), env)
            if modules:
                run_modules(modules, root, events, env)
        truth = TruthBuilder(args.root)
        if os.path.exists(events):
            with open(events, encoding="utf-8") as lines:
                for line in lines:
                    truth.add(json.loads(line))
    document = truth.document(pypto_identity(args.root))
    document["inputs"] = {"test_files": len(tests), "modules": len(modules)}
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=1)
        out.write("\n")
    s = document["summary"]
    print(
        f"[oracle] {s['programs']} programs ({s['program_builds']} builds), "
        f"{len(s['changed_kernels'])} kernels changed, {len(s['outlined_changed_kernels'])} "
        f"outlined kernels changed, {len(s['rejections'])} rejections -> {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
