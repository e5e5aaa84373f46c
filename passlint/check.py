"""`passlint check`: discover files, analyse them (in parallel when many), fix or diff,
render, and choose the exit code. Everything for people goes to stderr except the report,
which goes to standard output or to the file ``--output-file`` names (``output_file``).
Each file is checked with its own settings (``check_settings``).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from passlint import roots
from passlint.analysis.findings import Finding, Severity
from passlint.check_settings import CheckSettings, Flags, FolderExcludes
from passlint.config import ConfigError, Settings
from passlint.console import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, say
from passlint.discovery import discover, git_top
from passlint.filesystem import Boundary
from passlint.fixing import compute_fixes, unified_diff, write_fixes
from passlint.output_file import OutputFile
from passlint.progress import Progress, delay_from_environment
from passlint.report import TEXT_FORMATS
from passlint.report.escape import write_exact, write_report
from passlint.report.fixes import fixable_by_rule, render_fixes
from passlint.report.github import render_github
from passlint.report.gitlab import render_gitlab
from passlint.report.json_report import render_json
from passlint.report.junit import render_junit
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
    """The check, its report written to standard output or ``--output-file``."""
    if args.output_file is None:
        return _check(args, sys.stdout)
    output = OutputFile(args.output_file)
    problem = output.prepare()
    if problem is None:
        report = io.StringIO()
        code = _check(args, report)
        problem = output.write(_utf8(report.getvalue()))
        if problem is None:
            return code
    say(f"cannot write the report to {args.output_file}: {problem}")
    return EXIT_ERROR


def _utf8(text: str) -> bytes:
    """A report's text as the bytes it stands for (a file name's stray bytes as they were)."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")


def _check(args: argparse.Namespace, out: TextIO) -> int:
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
    try:
        by_file, boundary, project_root = _check_settings(args, paths, stdin)
        if args.show_settings:
            config = by_file.config_at(paths[0])
            resolved = by_file.settings_of(config)
            root = by_file.root_of(config)
            write_report(out, render_settings(resolved, config, root, vars(args)))
            return EXIT_CLEAN
    except ConfigError as error:
        say(f"configuration error: {error}")
        return EXIT_ERROR
    settings = Settings(by_file=by_file)

    errors = 0
    overlay: dict[str, str] = {}
    if stdin:
        text, problem = _read_stdin(settings.size_limit(args.stdin_filename))
        if text is None:
            say(f"{args.stdin_filename} (standard input): {problem}")
            return EXIT_ERROR
        overlay[os.path.realpath(args.stdin_filename)] = text
        files = paths
    else:
        try:
            found = discover(
                paths,
                FolderExcludes(by_file),
                project_root,
                boundary,
                force_exclude=args.force_exclude,
            )
            for path in found.files:  # (read in this process, before any worker starts)
                by_file.settings_for(path)
        except ConfigError as error:
            say(f"configuration error: {error}")
            return EXIT_ERROR
        for message in found.warnings:
            say(f"warning: {message}")
        for message in found.errors:
            say(message)
        errors += len(found.errors)
        files = found.files
        if args.show_files:
            shown = [path for path in files if is_checked_source(path, settings.size_limit(path))]
            write_report(out, render_files(shown))
            return EXIT_ERROR if errors else EXIT_CLEAN
        if (
            not errors
            and not args.quiet
            and not any(
                not path.endswith(".txt") or is_checked_source(path, settings.size_limit(path))
                for path in files  # (a .txt file counts when it is HLO text)
            )
        ):
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
        named = tuple(dict.fromkeys(os.path.realpath(path) for path in paths))
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
    outcomes: dict[str, str | None] = {}  # each file checked, or why it could not be
    checked = 0
    for result in results:
        if result.error:
            say(f"{result.path}: {result.error}")
            errors += 1
        if result.note:
            say(f"warning: {result.path}: {result.note}")
        if result.checked or result.error:
            outcomes[result.path] = result.error
        checked += result.checked
        findings.extend(result.findings)
        if result.lines:
            lines[result.path] = result.lines

    findings.sort(key=lambda f: (f.path, f.range.start, f.code))
    if args.diff:
        diff = unified_diff(outcome)
        write_exact(out, diff)
        if not args.quiet:
            noun = "finding" if applied == 1 else "findings"
            say(f"would fix {applied} {noun}" if diff else "no fixes to apply")
        if errors:
            return EXIT_ERROR
        return EXIT_FINDINGS if diff and not args.exit_zero else EXIT_CLEAN

    report_stream = out
    listing = args.show_fixes and args.format in TEXT_FORMATS and not args.statistics
    fixes = fixable_by_rule(findings)
    if args.fix:
        fixes = outcome.fixed_by_rule if applied else Counter()
        if stdin:
            real = os.path.realpath(args.stdin_filename)
            write_exact(sys.stdout, outcome.fixed.get(real, overlay[real]))
            if out is sys.stdout:
                report_stream = sys.stderr  # the fixed text owns stdout
        if not args.quiet and not listing and (applied or args.format not in TEXT_FORMATS):
            noun = "finding" if applied == 1 else "findings"
            message = f"Fixed {applied} {noun}."
            if args.format in TEXT_FORMATS and not stdin:
                report_stream.write(message + "\n")
            else:
                print(message, file=sys.stderr)

    report = _Report(findings, checked, errors, lines, outcomes, fixes if listing else None)
    write_report(report_stream, _render(args, report, project_root, report_stream))
    if errors:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if failing(findings, args.fail_on) else EXIT_CLEAN


def _check_settings(
    args: argparse.Namespace, paths: Sequence[str], stdin: bool
) -> tuple[CheckSettings, Boundary, str]:
    """Each file's settings, the workspace (the paths given and their projects) and the
    project root (the folder of the configuration governing the paths' common folder, else
    the working folder). The configuration of each folder given (and of standard input's
    name) is read now, so that its error stops the check even when nothing is found; a file
    given has its own read once it is known to be checked (``--force-exclude`` may leave it
    out). Raises ConfigError."""
    explicit = Path(args.config) if args.config else None
    named = tuple(dict.fromkeys(os.path.realpath(path) for path in paths))
    projects = {roots.project_root(path, explicit, named) for path in paths} - {None}
    boundary = Boundary((*named, *sorted(p for p in projects if p is not None)))
    cwd = os.getcwd()
    by_file = CheckSettings(Flags.from_args(args, cwd), explicit, boundary.roots, cwd)
    for path in paths:
        if stdin or os.path.isdir(path):
            by_file.settings_of(by_file.config_at(path))
    project_root = by_file.root_of(by_file.config_for_folder(_common_folder(paths)))
    return by_file, boundary, project_root


def fail_threshold(name: str) -> Severity:
    return Severity.parse(name)


def failing(findings: Sequence[Finding], fail_on: str) -> bool:
    threshold = fail_threshold(fail_on)
    return any(f.severity <= threshold for f in findings)


@dataclass(frozen=True)
class _Report:
    """What a check found, for ``_render``."""

    findings: list[Finding]
    checked: int  # files analysed
    errors: int  # paths that could not be checked or fixed
    lines: Mapping[str, Mapping[int, str]]  # each finding's line, by path and 0-based line
    files: Mapping[str, str | None]  # each file checked, or why it could not be
    fixes: Mapping[tuple[str, str], int] | None  # --show-fixes: by (path, code)


def _render(args: argparse.Namespace, report: _Report, project_root: str, stream: object) -> str:
    findings = report.findings
    if args.statistics:
        if args.format == "json":
            return render_statistics_json(findings)
        return render_statistics_text(findings, report.checked, quiet=args.quiet)
    if args.format == "json":
        return render_json(findings)
    if args.format == "sarif":
        return render_sarif(findings, _repository_root(project_root))
    if args.format == "github":
        return render_github(findings)
    if args.format == "gitlab":
        root = os.environ.get("CI_PROJECT_DIR") or _repository_root(project_root)
        return render_gitlab(findings, report.lines, root)
    if args.format == "junit":
        return render_junit(findings, report.files)
    color = stream is sys.stdout and _use_color()
    source = {"concise": False, "full": True}.get(args.format)  # text: on a terminal
    fixes = "" if report.fixes is None else render_fixes(report.fixes, applied=args.fix)
    return render_text(
        findings,
        report.checked,
        color=color,
        lines=report.lines,
        quiet=args.quiet,
        errors=report.errors,
        source=source,
        fixes=fixes,
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
