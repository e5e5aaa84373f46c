"""Run passlint (the CLI or one analysis) under an audit hook and print what it touched.

``python audited.py check ARGS...`` runs ``passlint check ARGS``; ``python audited.py
analyze ROOT PATH`` analyses one file with ROOT as the workspace. The last line of stdout is
JSON: every file opened, folder listed, module imported, code compiled or executed, process
started and socket used, as ``[event, detail]`` pairs.
"""

from __future__ import annotations

import json
import sys
import types
from typing import Any

EVENTS: list[tuple[str, str]] = []
WATCHED = {
    "open": 0,
    "os.listdir": 0,
    "os.scandir": 0,
    "import": 1,
    "compile": 1,
    "exec": 0,
    "subprocess.Popen": 0,
    "os.system": 0,
    "os.exec": 0,
    "os.posix_spawn": 0,
    "socket.connect": 1,
    "socket.bind": 1,
    "socket.getaddrinfo": 0,
    "urllib.Request": 0,
}


def hook(event: str, args: tuple[Any, ...]) -> None:
    index = WATCHED.get(event)
    if index is None:
        return
    detail = args[index] if len(args) > index else None
    if isinstance(detail, types.CodeType):
        detail = detail.co_filename
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    EVENTS.append((event, str(detail)))


def main() -> int:
    mode, *rest = sys.argv[1:]
    # Everything passlint needs is imported before the hook: what is left is its own doing.
    from passlint import cli, pipeline
    from passlint.analysis.workspace import Workspace
    from passlint.passes.materialize_valid_shape_symbols import dry_run  # noqa: F401
    from passlint.passes.tensorizer_legalization import apply, findings  # noqa: F401

    sys.addaudithook(hook)
    status = 0
    if mode == "check":
        try:
            status = cli.main(["check", *rest])
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    else:
        root, path = rest
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        EVENTS.clear()
        findings = pipeline.analyze(path, text, None, Workspace([root]))
        print(json.dumps([[f.code, f.message] for f in findings]))
    print(json.dumps(EVENTS))
    return status


if __name__ == "__main__":
    sys.exit(main())
