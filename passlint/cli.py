"""The command line: `passlint check | legalize | serve | rules | rule` (and `--check`).

Exit codes of `check`: 0 clean, 1 findings at or above ``--fail-on`` (or, with ``--diff``,
a diff), 2 usage, configuration or internal error, or a file that could not be checked.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence

from passlint import __version__
from passlint.analysis.findings import Severity
from passlint.catalog import RULES
from passlint.config import (
    PIPELINES,
    Settings,
    parse_per_file_ignores,
)
from passlint.console import EXIT_CLEAN, EXIT_ERROR, say
from passlint.filesystem import MLIR_MAX_FILE_SIZE, Refused, read_regular
from passlint.report import FORMATS

FAIL_ON = ("error", "warning", "information", "hint")


def _codes(text: str) -> tuple[str, ...]:
    return tuple(code.strip().upper() for code in text.split(",") if code.strip())


def _patterns(text: str) -> tuple[str, ...]:
    return tuple(pattern.strip() for pattern in text.split(",") if pattern.strip())


def _output_file(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("the path is empty")
    return text


def _jobs(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="passlint",
        description="Run accelerator-compiler legalization passes in dry-run mode.",
    )
    parser.add_argument("--version", action="version", version=f"passlint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser(
        "check",
        help="check .mlir files and pl sources",
        description="Check .mlir files and pl sources (files or folders; - reads stdin).",
    )
    check.add_argument(
        "paths",
        nargs="*",
        default=["."],
        metavar="PATH",
        help="files and folders to check (default: .); - reads standard input",
    )
    check.add_argument(
        "--output-format",
        "--format",
        dest="format",
        choices=FORMATS,
        default="text",
        help="how findings are written (default: text; --format is the same option); "
        "gitlab: a GitLab Code Quality report, junit: JUnit XML with a test suite per file",
    )
    check.add_argument(
        "-o",
        "--output-file",
        type=_output_file,
        metavar="PATH",
        help="write the report to PATH (created or replaced, folders made; a symbolic link "
        "there to a regular file is refused) instead of standard output",
    )
    check.add_argument(
        "--select", type=_codes, default=None, help="comma-separated codes or prefixes to report"
    )
    check.add_argument(
        "--extend-select", type=_codes, default=(), help="codes or prefixes to add to the selection"
    )
    check.add_argument(
        "--ignore",
        type=_codes,
        default=(),
        help="codes or prefixes not to report (wins over an equally specific --select)",
    )
    check.add_argument(
        "--per-file-ignores",
        type=parse_per_file_ignores,
        action="append",
        default=None,
        metavar="PATTERN:CODES",
        help="codes not to report in files matching PATTERN (replaces the configuration's)",
    )
    check.add_argument(
        "--extend-per-file-ignores",
        type=parse_per_file_ignores,
        action="append",
        default=[],
        metavar="PATTERN:CODES",
        help="like --per-file-ignores, added to the configuration's",
    )
    check.add_argument(
        "--pipeline",
        choices=PIPELINES,
        default=None,
        help="the TensorizerLegalization variant (default: auto, from the module's dialects)",
    )
    check.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="warning",
        help="exit 1 only for findings this severe or more (default: warning)",
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    check.add_argument("--fix", action="store_true", help="apply every fix to the files")
    check.add_argument(
        "--show-fixes",
        action="store_true",
        help="after the findings, list by file and rule the fixes --fix applied (without "
        "--fix: those it would apply); text formats only, not with --statistics",
    )
    check.add_argument(
        "--diff", action="store_true", help="print the fixes as a diff, change nothing"
    )
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    check.add_argument(
        "--statistics",
        action="store_true",
        help="count findings per rule, with totals, instead of listing them",
    )
    check.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the name of the text on standard input (its extension picks the pass)",
    )
    check.add_argument(
        "--config",
        metavar="FILE",
        help="passlint.toml or pyproject.toml to use for every file (default: each file's "
        "nearest, in its folder or above)",
    )
    check.add_argument(
        "--exclude",
        type=_patterns,
        default=None,
        metavar="PATTERNS",
        help="comma-separated patterns of files and folders to skip (replaces the default)",
    )
    check.add_argument(
        "--extend-exclude",
        type=_patterns,
        default=(),
        metavar="PATTERNS",
        help="patterns to skip in addition to exclude",
    )
    check.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply exclusions to files named on the command line too (for pre-commit)",
    )
    check.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=0,
        metavar="N",
        help="worker processes to use at most (default 0: one per CPU when it pays; 1: none)",
    )
    check.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings a check of the first PATH would use, and exit",
    )
    check.add_argument(
        "--show-files", action="store_true", help="print the files a check would read, and exit"
    )

    legalize = commands.add_parser(
        "legalize",
        help="print the module after TensorizerLegalization",
        description="Print a .mlir module as TensorizerLegalization leaves it. Exits 2, "
        "printing nothing on stdout, when the file is not MLIR, does not parse, has no "
        "@main or has a finding the pass would fail on.",
    )
    legalize.add_argument("file", metavar="FILE", help="the .mlir module to legalize")
    legalize.add_argument(
        "--pipeline",
        choices=PIPELINES,
        default="auto",
        help="the pass variant (default: auto, from the module's dialects)",
    )

    commands.add_parser("serve", help="start the language server (see `passlint serve -h`)")

    rules = commands.add_parser("rules", help="list the rule catalog")
    rules.add_argument(
        "--format",
        choices=["text", "markdown"],
        default="text",
        help="text: one line per rule; markdown: docs/rules.md",
    )
    explain = commands.add_parser("rule", help="explain one rule")
    explain.add_argument("code", metavar="CODE", help="the rule's code, e.g. TL001")
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
    try:
        if args.command == "check":
            from passlint.check import run_check

            with _terminate_as_interrupt():
                return run_check(args)
        if args.command == "legalize":
            return _legalize(args)
        if args.command == "rules":
            return _rules(args)
        if args.command == "rule":
            found = RULES.get(args.code.upper())
            if found is None:
                say(f"unknown rule {args.code!r}")
                return EXIT_ERROR
            print(found.explain(), end="")
            return EXIT_CLEAN
    except KeyboardInterrupt as interrupt:  # a run cancelled ends silently
        return 128 + (interrupt.args[0] if interrupt.args else signal.SIGINT)
    except BrokenPipeError:
        # The reader went away (`passlint check | head`): nothing more to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLEAN
    except Exception as error:  # the promise is exit 2 with a message, never a traceback
        say(f"internal error: {type(error).__name__}: {error}")
        if os.environ.get("PASSLINT_DEBUG"):
            raise
        return EXIT_ERROR
    parser.print_help(sys.stderr)
    return EXIT_ERROR


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (and SIGHUP) end a check as Ctrl-C does: through the code that stops the
    workers and leaves no file half written, not by the default of dying on the spot. One
    the process ignores (SIGHUP under ``nohup``) stays ignored."""
    numbers = [
        number
        for name in ("SIGTERM", "SIGHUP")
        if (number := getattr(signal, name, None)) is not None
        and signal.getsignal(number) is not signal.SIG_IGN
    ]
    previous = {number: signal.signal(number, _interrupt) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _interrupt(number: int, _frame: object) -> None:
    raise KeyboardInterrupt(number)


def _rules(args: argparse.Namespace) -> int:
    if args.format == "markdown":
        from passlint.report.rules_doc import render_rules_markdown

        sys.stdout.write(render_rules_markdown())
        return EXIT_CLEAN
    for rule in RULES.values():
        default = " (opt-in)" if rule.opt_in else ""
        print(f"{rule.code:6} {rule.name:34} {rule.severity.label}{default}")
    return EXIT_CLEAN


def _legalize(args: argparse.Namespace) -> int:
    """Print the legalized module, or exit 2 with the reason it cannot be legalized (the
    findings the pass would fail on, as `passlint check` prints them, on stderr)."""
    from passlint import pipeline
    from passlint.analysis.language import language_of
    from passlint.analysis.mlir.memo import MlirMemo
    from passlint.analysis.source import SourceText
    from passlint.memo import Memo
    from passlint.passes.tensorizer_legalization.apply import legalize, unsure_placement
    from passlint.report.escape import write_exact
    from passlint.report.text import render_finding

    try:
        data = read_regular(args.file, MLIR_MAX_FILE_SIZE)
    except Refused as refused:
        say(f"cannot read {args.file}: {refused.reason}")
        return EXIT_ERROR
    except OSError as error:
        say(f"cannot read {args.file}: {error.strerror or error}")
        return EXIT_ERROR
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        say(f"{args.file}: not UTF-8; not legalized")
        return EXIT_ERROR
    if language_of(args.file, text) != "mlir":
        say(
            f"{args.file}: not a .mlir module; legalize reads MLIR only "
            "(`passlint check` reads pl sources)"
        )
        return EXIT_ERROR
    settings = Settings(select=LEGALIZE_BLOCKERS, pipeline=args.pipeline)
    blocking = [
        finding
        for finding in pipeline.analyze(args.file, text, settings, None, Memo())
        if RULES[finding.code].severity is Severity.ERROR
    ]
    if blocking:
        for finding in blocking:
            print(render_finding(finding), file=sys.stderr)
        noun = "finding" if len(blocking) == 1 else "findings"
        say(f"{args.file}: not legalized: {len(blocking)} {noun} the pass would fail on (above)")
        return EXIT_ERROR
    legalized = legalize(text, args.pipeline, MlirMemo())
    write_exact(sys.stdout, legalized.text)
    lines = SourceText(text)
    for offset, name in legalized.unsure:
        position = lines.position(offset)
        say(f"{args.file}:{position.line + 1}:{position.column + 1}: {unsure_placement(name)}")
    return EXIT_CLEAN


# The findings TensorizerLegalization fails on: syntax errors, no @main (TL005, opt-in in
# `check`), and the error-severity TL rules.
LEGALIZE_BLOCKERS = ("E", "TL")
