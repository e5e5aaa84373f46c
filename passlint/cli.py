"""The command line: `passlint check | rules | rule` (and `--check`, the headless mode)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from passlint import __version__
from passlint.analysis import engine
from passlint.analysis.findings import Finding
from passlint.analysis.rules import RULES
from passlint.analysis.workspace import Workspace
from passlint.config import PIPELINES, ConfigError, Settings
from passlint.formats import render_json, render_text

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(text: str) -> tuple[str, ...]:
    return tuple(code.strip().upper() for code in text.split(",") if code.strip())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="passlint",
        description="Run accelerator-compiler legalization passes in dry-run mode.",
    )
    parser.add_argument("--version", action="version", version=f"passlint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="check .mlir files and pl sources")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--format", choices=["text", "json"], default="text")
    check.add_argument("--select", type=_codes, default=None, help="comma-separated codes")
    check.add_argument("--extend-select", type=_codes, default=(), help="codes to add")
    check.add_argument("--ignore", type=_codes, default=(), help="codes to skip")
    check.add_argument("--pipeline", choices=PIPELINES, default="auto")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")

    legalize = commands.add_parser("legalize", help="print the module after the pass")
    legalize.add_argument("file")
    legalize.add_argument("--pipeline", choices=PIPELINES, default="auto")

    commands.add_parser("serve", help="start the language server (see `passlint serve -h`)")

    commands.add_parser("rules", help="list the rule catalog")
    explain = commands.add_parser("rule", help="explain one rule")
    explain.add_argument("code")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--check"]:
        args_list[0] = "check"
    if args_list[:1] == ["serve"]:
        from passlint.server.app import run

        return run(args_list[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exit_:
        return EXIT_ERROR if exit_.code not in (0, None) else EXIT_CLEAN
    if args.command == "check":
        return _check(args)
    if args.command == "legalize":
        return _legalize(args)
    if args.command == "rules":
        for rule in RULES.values():
            default = " (opt-in)" if rule.opt_in else ""
            print(f"{rule.code:6} {rule.name:34} {rule.severity.label}{default}")
        return EXIT_CLEAN
    if args.command == "rule":
        found = RULES.get(args.code.upper())
        if found is None:
            print(f"passlint: unknown rule {args.code!r}", file=sys.stderr)
            return EXIT_ERROR
        print(found.explain(), end="")
        return EXIT_CLEAN
    parser.print_help(sys.stderr)
    return EXIT_ERROR


def _check(args: argparse.Namespace) -> int:
    try:
        settings = Settings(
            select=args.select,
            extend_select=args.extend_select,
            ignore=args.ignore,
            pipeline=args.pipeline,
        )
    except ConfigError as error:
        print(f"passlint: {error}", file=sys.stderr)
        return EXIT_ERROR
    findings: list[Finding] = []
    errors = 0
    files = 0
    workspace = Workspace(
        [os.getcwd(), *(p if os.path.isdir(p) else os.path.dirname(p) or "." for p in args.paths)]
    )
    for path in _collect(args.paths):
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            print(f"passlint: cannot read {path}: {error}", file=sys.stderr)
            errors += 1
            continue
        if engine.language_of(path, text) is None:
            continue
        files += 1
        findings.extend(engine.analyze(path, text, settings, workspace))
    for missing in (p for p in args.paths if not os.path.exists(p)):
        print(f"passlint: {missing}: no such file or directory", file=sys.stderr)
        errors += 1
    output = render_json(findings) if args.format == "json" else render_text(findings, files)
    sys.stdout.write(output)
    if errors:
        return EXIT_ERROR
    if findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _legalize(args: argparse.Namespace) -> int:
    from passlint.passes.tensorizer_apply import legalize_text

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"passlint: cannot read {args.file}: {error}", file=sys.stderr)
        return EXIT_ERROR
    sys.stdout.write(legalize_text(text, args.pipeline))
    return EXIT_CLEAN


def _collect(paths: Sequence[str]) -> Iterator[str]:
    """Files named directly, and every .mlir / .py file below named folders, sorted."""
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, files in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                for name in sorted(files):
                    if name.endswith((".mlir", ".py")):
                        yield os.path.join(folder, name)
        elif os.path.exists(path):
            yield path
