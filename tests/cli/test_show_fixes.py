"""``--show-fixes`` (issue 30, point 6): after the findings of a text report, the fixes by
file and rule, those ``--fix`` applied or, without it, those it would apply; the machine
formats and ``--statistics`` are left as they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_testing import assert_no_traceback, passlint

E009 = "broken.mlir:3:46: E009 Expected ')' to close the '(' opened here; add it before the end"
WOULD_FIX = (
    "4 findings fixable with --fix:\n"
    "  input.mlir\n"
    "      1  TL001  output-aliases-input\n"
    "  nested/kernel.py\n"
    "      1  VS001  unbound-valid-shape-symbol\n"
    "  nested/twice.mlir\n"
    "      2  TL001  output-aliases-input\n"
)
SUMMARY = "Found 6 findings (1 error, 1 information, 4 warning) in 7 files. 4 fixable with --fix.\n"


@pytest.mark.parametrize("output_format", ["text", "concise", "full"])
def test_fixes_that_fix_would_apply(tree: Path, output_format: str) -> None:
    plain = passlint("check", "--output-format", output_format, cwd=tree)
    shown = passlint("check", "--output-format", output_format, "--show-fixes", cwd=tree)
    assert_no_traceback(shown)
    assert shown.returncode == plain.returncode == 1
    assert plain.stdout.endswith(SUMMARY)
    findings = plain.stdout[: -len(SUMMARY)]
    assert findings.startswith(E009)
    assert shown.stdout == findings + "\n" + WOULD_FIX + SUMMARY
    quiet = passlint("check", "--output-format", output_format, "--show-fixes", "-q", cwd=tree)
    assert quiet.stdout == findings + "\n" + WOULD_FIX  # asked for, so shown with --quiet too


def test_fixes_that_fix_applied(tree: Path) -> None:
    (tree / "input.mlir").chmod(0o444)  # its fix is refused: not listed
    result = passlint("check", "--fix", "--show-fixes", cwd=tree)
    assert result.returncode == 1
    assert result.stdout.startswith(E009)  # (no "Fixed 3 findings." line: the list says it)
    assert result.stdout.endswith(
        "\nFixed 3 findings:\n"
        "  nested/kernel.py\n"
        "      1  VS001  unbound-valid-shape-symbol\n"
        "  nested/twice.mlir\n"
        "      2  TL001  output-aliases-input\n"
        "Found 3 findings (1 error, 1 information, 1 warning) in 7 files. 1 fixable with --fix.\n"
    )
    assert "input.mlir: not fixed (" in result.stderr
    again = passlint("check", "--fix", "--show-fixes", "nested", cwd=tree)
    assert again.stdout == "All checks passed (2 files checked).\n"  # nothing left: no list


def test_fixes_of_standard_input(tmp_path: Path) -> None:
    text = (Path(__file__).parent.parent / "data" / "cli" / "tree" / "input.mlir").read_text()
    result = passlint(
        "check",
        "--fix",
        "--show-fixes",
        "--stdin-filename",
        "model.mlir",
        "-",
        cwd=tmp_path,
        stdin=text.encode(),
    )
    assert result.returncode == 0
    assert "%output0_copy = mhlo.copy %arg0" in result.stdout  # the fixed text
    assert result.stderr == (
        "Fixed 1 finding:\n"
        "  model.mlir\n"
        "      1  TL001  output-aliases-input\n"
        "All checks passed (1 file checked).\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("--output-format", "json"),
        ("--output-format", "sarif"),
        ("--output-format", "github"),
        ("--output-format", "gitlab"),
        ("--output-format", "junit"),
        ("--statistics",),
        ("--diff",),
    ],
)
def test_other_reports_are_left_as_they_are(tree: Path, args: tuple[str, ...]) -> None:
    plain = passlint("check", *args, cwd=tree)
    shown = passlint("check", *args, "--show-fixes", cwd=tree)
    assert (shown.returncode, shown.stdout, shown.stderr) == (
        plain.returncode,
        plain.stdout,
        plain.stderr,
    )
