"""`passlint check`: discover files, analyse them (in parallel when many), fix or diff,
render, and choose the exit code. Everything for people goes to stderr except the report.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from passlint import roots
from passlint.analysis.findings import Finding, Severity
from passlint.config import (
    ConfigError,
    Settings,
    find_config_file,
    load_config_file,
    with_overrides,
)
from passlint.console import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, say
from passlint.discovery import discover, git_top
from passlint.filesystem import Boundary
from passlint.fixing import compute_fixes, unified_diff, write_fixes
from passlint.progress import Progress, delay_from_environment
from passlint.report import TEXT_FORMATS
from passlint.report.escape import write_exact, write_report
from passlint.report.github import render_github
from passlint.report.json_report import render_json
from passlint.report.sarif import render_sarif
from passlint.report.show import render_files, render_settings
from passlint.report.statistics import render_statistics_json, render_statistics_text
from passlint.report.text import render_text
from passlint.runner import FileResult, Job, check_files, is_checked_source
from passlint.writes import remove_leftovers


def _use_color() -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except ValueError:
        return False


def run_check(args: argparse.Namespace) -> int:
    stdin = args.paths == ["-"]
    if "-" in args.paths and not stdin:
        say("'-' (standard input) cannot be combined with other paths")
        return EXIT_ERROR
    if stdin and not args.stdin_filename:
        say("reading standard input needs --stdin-filename (its extension picks the pass)")
        return EXIT_ERROR
    if args.statistics and args.format not in (*TEXT_FORMATS, "json"):
        say("--statistics prints text or json; use --output-format text or json")
        return EXIT_ERROR
    paths = [args.stdin_filename] if stdin else list(args.paths)
    start = _common_folder(paths)
    try:
        settings, project_root, config = load_check_settings(args, start)
    except ConfigError as error:
        say(f"configuration error: {error}")
        return EXIT_ERROR
    if args.show_settings:
        write_report(sys.stdout, render_settings(settings, config, project_root, vars(args)))
        return EXIT_CLEAN

    errors = 0
    overlay: dict[str, str] = {}
    named = tuple(dict.fromkeys(os.path.realpath(path) for path in paths))
    projects = {roots.project_root(path, config) for path in paths} - {None}
    boundary = Boundary((*named, *sorted(p for p in projects if p is not None)))
    if stdin:
        text, problem = _read_stdin(settings.size_limit(args.stdin_filename))
        if text is None:
            say(f"{args.stdin_filename} (standard input): {problem}")
            return EXIT_ERROR
        overlay[os.path.realpath(args.stdin_filename)] = text
        files = paths
    else:
        found = discover(
            paths,
            (*settings.exclude, *settings.extend_exclude),
            project_root,
            boundary,
            force_exclude=args.force_exclude,
        )
        for message in found.warnings:
            say(f"warning: {message}")
        for message in found.errors:
            say(message)
        errors += len(found.errors)
        files = found.files
        if args.show_files:
            shown = [path for path in files if is_checked_source(path, settings.size_limit(path))]
            write_report(sys.stdout, render_files(shown))
            return EXIT_ERROR if errors else EXIT_CLEAN
        if not files and not errors and not args.quiet:
            say("warning: no .mlir or .py files found in the given paths")

    job = Job(settings, boundary.roots, overlay)
    progress_delay = delay_from_environment()

    def check(batch: Sequence[str], batch_job: Job) -> list[FileResult]:
        progress = Progress(len(batch), sys.stderr, enabled=not args.quiet, delay=progress_delay)
        try:
            return check_files(
                batch,
                batch_job,
                on_result=lambda _: progress.advance(),
                max_workers=args.jobs,
                on_read=progress.reading,
            )
        finally:
            progress.close()

    applied = 0
    if args.fix or args.diff:
        allowed = {os.path.realpath(args.stdin_filename)} if stdin else None
        outcome = compute_fixes(files, job, check, named, allowed)
        results = outcome.results
        applied = outcome.applied
        for message in outcome.refused:
            say(message)
        if args.fix and not args.diff and not stdin:  # (--fix --diff: the diff wins)
            for folder in dict.fromkeys(os.path.dirname(os.path.realpath(p)) for p in files):
                remove_leftovers(folder)
            written, messages = write_fixes(outcome)
            for message in messages:
                say(message)
            errors += len(messages)
            if written.failed:  # written as one unit: nothing was, so report what is on disk
                applied = 0
                results = check(files, job)
    else:
        results = check(files, job)

    findings: list[Finding] = []
    lines: dict[str, dict[int, str]] = {}
    checked = 0
    for result in results:
        if result.error:
            say(f"{result.path}: {result.error}")
            errors += 1
        if result.note:
            say(f"warning: {result.path}: {result.note}")
        checked += result.checked
        findings.extend(result.findings)
        if result.lines:
            lines[result.path] = result.lines

    findings.sort(key=lambda f: (f.path, f.range.start, f.code))
    if args.diff:
        diff = unified_diff(outcome)
        write_exact(sys.stdout, diff)
        if not args.quiet:
            noun = "finding" if applied == 1 else "findings"
            say(f"would fix {applied} {noun}" if diff else "no fixes to apply")
        if errors:
            return EXIT_ERROR
        return EXIT_FINDINGS if diff and not args.exit_zero else EXIT_CLEAN

    report_stream = sys.stdout
    if args.fix:
        if stdin:
            real = os.path.realpath(args.stdin_filename)
            write_exact(sys.stdout, outcome.fixed.get(real, overlay[real]))
            report_stream = sys.stderr  # the fixed text owns stdout
        if not args.quiet and (applied or args.format not in TEXT_FORMATS):
            noun = "finding" if applied == 1 else "findings"
            message = f"Fixed {applied} {noun}."
            if args.format in TEXT_FORMATS and not stdin:
                report_stream.write(message + "\n")
            else:
                print(message, file=sys.stderr)

    write_report(
        report_stream, _render(args, findings, checked, errors, lines, project_root, report_stream)
    )
    if errors:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if failing(findings, args.fail_on) else EXIT_CLEAN


def load_check_settings(args: argparse.Namespace, start: str) -> tuple[Settings, str, Path | None]:
    """Settings for `check`, the project root (the configuration file's folder, else the
    current folder) and the configuration file; flags override the file. Raises
    ConfigError."""
    config = Path(args.config) if args.config else find_config_file(start)
    base = Settings() if config is None else load_config_file(config)
    root = os.getcwd() if config is None else str(config.resolve().parent)
    settings = with_overrides(
        base,
        select=args.select,
        extend_select=args.extend_select,
        ignore=args.ignore,
        pipeline=args.pipeline,
        exclude=args.exclude,
        extend_exclude=args.extend_exclude,
        per_file_ignores=None if args.per_file_ignores is None else tuple(args.per_file_ignores),
        extend_per_file_ignores=tuple(args.extend_per_file_ignores),
    )
    if not settings.root:
        settings = replace(settings, root=root)
    return settings, root, config


def fail_threshold(name: str) -> Severity:
    return Severity.parse(name)


def failing(findings: Sequence[Finding], fail_on: str) -> bool:
    threshold = fail_threshold(fail_on)
    return any(f.severity <= threshold for f in findings)


def _render(
    args: argparse.Namespace,
    findings: list[Finding],
    checked: int,
    errors: int,
    lines: dict[str, dict[int, str]],
    project_root: str,
    stream: object,
) -> str:
    if args.statistics:
        if args.format == "json":
            return render_statistics_json(findings)
        return render_statistics_text(findings, checked, quiet=args.quiet)
    if args.format == "json":
        return render_json(findings)
    if args.format == "sarif":
        return render_sarif(findings, _repository_root(project_root))
    if args.format == "github":
        return render_github(findings)
    color = stream is sys.stdout and _use_color()
    source = {"concise": False, "full": True}.get(args.format)  # text: on a terminal
    return render_text(
        findings, checked, color=color, lines=lines, quiet=args.quiet, errors=errors, source=source
    )


def _folder_of(path: str) -> str:
    return path if os.path.isdir(path) else os.path.dirname(path) or "."


def _read_stdin(limit: int) -> tuple[str | None, str]:
    """Standard input as text, read no further than ``limit`` bytes, or what is wrong."""
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        return None, f"more than max-file-size ({limit} bytes)"
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError:
        return None, "not UTF-8"


def _common_folder(paths: Sequence[str]) -> str:
    """The deepest folder holding every path (where the configuration is looked for)."""
    folders = [os.path.abspath(_folder_of(p)) for p in paths] or [os.getcwd()]
    try:
        return os.path.commonpath(folders)
    except ValueError:  # different drives
        return os.getcwd()


def _repository_root(start: str) -> str:
    """The top of the git repository around ``start``, else ``start``: SARIF URIs are
    relative to it, which is what code scanning expects."""
    return git_top(start) or os.path.abspath(start)
