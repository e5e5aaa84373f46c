"""What passlint says about a set of trees, to compare before and after a change that must
not change behaviour (issue 28: byte-identical findings, fixes and legalize output).

    python bench/snapshot.py record OUT.json PATH...
    python bench/snapshot.py compare BEFORE.json AFTER.json

``record`` runs, in this process, what a user runs: ``passlint check --format json PATH``
from each PATH (so the paths in the JSON are relative to it: the findings, their ranges,
messages and fixes), and ``passlint legalize FILE`` on every ``.mlir`` file under PATH (its
exit code, stderr, and the SHA-256 and length of its output). ``compare`` prints every
difference, per tree and file, and exits 1 if there is one. Typical trees: ``tests/data``,
``../shared/corpus``, an openxla/stablehlo checkout's ``stablehlo/tests`` and a pypto
checkout.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from passlint.cli import main as passlint


@contextlib.contextmanager
def _in(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _run(argv: list[str]) -> tuple[int, str, str]:
    """``passlint ARGV``: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = passlint(argv)
    return code, out.getvalue(), err.getvalue()


def record_tree(root: Path) -> dict[str, Any]:
    with _in(root):
        code, out, err = _run(["check", "--format", "json", "."])
        legalized = {}
        for path in sorted(Path(".").rglob("*.mlir")):
            if not path.is_file() or path.is_symlink():
                continue
            rc, text, said = _run(["legalize", str(path)])
            data = text.encode("utf-8", "surrogateescape")
            legalized[str(path)] = {
                "exit": rc,
                "stderr": said,
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
            }
    check = json.loads(out) if out.strip() else None
    return {"check": {"exit": code, "stderr": err, "json": check}, "legalize": legalized}


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Every difference between two snapshots, as one line each."""
    found = []
    for tree in sorted(set(before) | set(after)):
        old, new = before.get(tree), after.get(tree)
        if old is None or new is None:
            found.append(f"{tree}: recorded {'after' if old is None else 'before'} only")
            continue
        found += [f"{tree}: {line}" for line in _check_differences(old["check"], new["check"])]
        for file in sorted(set(old["legalize"]) | set(new["legalize"])):
            was, now = old["legalize"].get(file), new["legalize"].get(file)
            if was != now:
                found.append(f"{tree}: legalize {file}: {_what(was)} -> {_what(now)}")
    return found


def _check_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    found = []
    if old["exit"] != new["exit"] or old["stderr"] != new["stderr"]:
        found.append(f"check exit/stderr {old['exit']} -> {new['exit']}")
    before = _by_place(old["json"])
    after = _by_place(new["json"])
    for place in sorted(set(before) | set(after)):
        if before.get(place) != after.get(place):
            state = "changed" if place in before and place in after else "gone"
            state = state if place in before else "new"
            found.append(f"check {state}: {place[0]}:{place[1]}:{place[2]} {place[3]}")
    return found


def _by_place(document: dict[str, Any] | None) -> dict[tuple[str, int, int, str, int], Any]:
    """Findings by (path, line, column, code, number among equals there)."""
    found: dict[tuple[str, int, int, str, int], Any] = {}
    for finding in (document or {}).get("findings", []):
        start = finding["range"]["start"]
        place = (finding["path"], start["line"], start["column"], finding["code"])
        number = sum(1 for key in found if key[:4] == place)
        found[(*place, number)] = finding
    return found


def _what(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "absent"
    return f"exit {entry['exit']}, {entry['bytes']} bytes {entry['sha256'][:12]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser("record", help="record what passlint says about PATHs")
    record.add_argument("out", type=Path)
    record.add_argument("paths", type=Path, nargs="+")
    differ = commands.add_parser("compare", help="print the differences of two records")
    differ.add_argument("before", type=Path)
    differ.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "record":
        snapshot = {str(p.resolve()): record_tree(p.resolve()) for p in args.paths}
        args.out.write_text(json.dumps(snapshot, indent=1, sort_keys=True), encoding="utf-8")
        return 0
    before = json.loads(args.before.read_text(encoding="utf-8"))
    after = json.loads(args.after.read_text(encoding="utf-8"))
    differences = compare(before, after)
    for line in differences:
        print(line)
    print(f"{len(differences)} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
