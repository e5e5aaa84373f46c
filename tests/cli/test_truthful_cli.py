"""What a new user tried (issue #17): each behaviour through a subprocess, as they ran it."""

from __future__ import annotations

import json
from pathlib import Path

from cli_testing import CLEAN_MLIR, INPUT_MLIR, assert_no_traceback, passlint

FIXED_MLIR = INPUT_MLIR.replace(
    "    return %arg0",
    "    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n    return %output0_copy",
)


def _codes(stdout: str) -> list[str]:
    return [f["code"] for f in json.loads(stdout)["findings"]]


def test_stdin_diff(tmp_path: Path) -> None:
    result = passlint(
        "check",
        "--stdin-filename",
        "x.mlir",
        "--diff",
        "-",
        cwd=tmp_path,
        stdin=INPUT_MLIR.encode(),
    )
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("--- a/x.mlir\n+++ b/x.mlir\n")
    assert "+    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n" in result.stdout
    assert result.stderr == "passlint: would fix 1 finding\n"
    assert not (tmp_path / "x.mlir").exists()


def test_missing_folder_is_not_all_checks_passed(tmp_path: Path) -> None:
    result = passlint("check", "does-not-exist/", cwd=tmp_path)
    assert result.returncode == 2
    assert "All checks passed" not in result.stdout
    assert result.stdout == "No findings in 0 files checked, and 1 error (see stderr).\n"
    assert result.stderr == "passlint: does-not-exist/: no such file or directory\n"


def test_binary_mlir_is_not_all_checks_passed(tmp_path: Path) -> None:
    (tmp_path / "bin.mlir").write_bytes(b"\x00\x01\xff\xfe")
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    alone = passlint("check", "bin.mlir", cwd=tmp_path)
    assert alone.returncode == 2
    assert alone.stdout == "No findings in 0 files checked, and 1 error (see stderr).\n"
    assert "bin.mlir: not UTF-8" in alone.stderr
    both = passlint("check", ".", cwd=tmp_path)
    assert both.returncode == 2
    assert both.stdout.splitlines()[-1] == (
        "Found 1 finding (1 warning) in 1 file, and 1 error (see stderr). 1 fixable with --fix."
    )


def test_no_files_found_is_said(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x\n")
    result = passlint("check", ".", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == "All checks passed (0 files checked).\n"
    assert result.stderr == "passlint: warning: no .mlir or .py files found in the given paths\n"


def test_legalize_refuses_what_it_cannot_legalize(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text("import pypto.language as pl\n")
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "broken.mlir").write_text("module {\n  func.func @main( {\n}\n")
    (tmp_path / "lib.mlir").write_text("module {\n  func.func @helper() {\n    return\n  }\n}\n")
    (tmp_path / "bin.mlir").write_bytes(b"\xff\xfe\x00")
    expected = {
        "kernel.py": "passlint: kernel.py: not a .mlir module",
        "notes.txt": "passlint: notes.txt: not a .mlir module",
        "broken.mlir": "E009",
        "lib.mlir": "lib.mlir:1:1: TL005 ",
        "bin.mlir": "passlint: bin.mlir: not UTF-8",
        "missing.mlir": "passlint: cannot read missing.mlir",
    }
    for name, message in expected.items():
        result = passlint("legalize", name, cwd=tmp_path)
        assert_no_traceback(result)
        assert (result.returncode, result.stdout) == (2, ""), name
        assert message in result.stderr, (name, result.stderr)
    broken = passlint("legalize", "broken.mlir", cwd=tmp_path)
    assert broken.stderr.splitlines()[-1].startswith(
        "passlint: broken.mlir: not legalized: "
    ) and broken.stderr.splitlines()[-1].endswith(" the pass would fail on (above)")


def test_legalize_prints_the_module(tmp_path: Path) -> None:
    (tmp_path / "model.mlir").write_text(INPUT_MLIR)
    result = passlint("legalize", "model.mlir", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert "mhlo.copy %arg0" in result.stdout
    (tmp_path / "clean.mlir").write_text(CLEAN_MLIR)
    assert passlint("legalize", "clean.mlir", cwd=tmp_path).returncode == 0


def test_ignore_beats_select_at_equal_specificity(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    base = ("check", "--format", "json", "input.mlir")
    assert (
        _codes(passlint(*base, "--select", "TL001", "--ignore", "TL001", cwd=tmp_path).stdout) == []
    )
    assert _codes(passlint(*base, "--select", "TL", "--ignore", "TL", cwd=tmp_path).stdout) == []
    # The more specific selector still wins, either way.
    assert _codes(passlint(*base, "--select", "TL001", "--ignore", "TL", cwd=tmp_path).stdout) == [
        "TL001"
    ]
    assert _codes(passlint(*base, "--select", "TL", "--ignore", "TL001", cwd=tmp_path).stdout) == []


def test_flags_are_a_layer_over_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR + "// passlint: ignore[TL002]\n")
    (tmp_path / "pyproject.toml").write_text('[tool.passlint]\nignore = ["TL001", "PL100"]\n')
    base = ("check", "--format", "json", "input.mlir")
    assert _codes(passlint(*base, cwd=tmp_path).stdout) == []
    # A flag re-selects what the file ignores (ruff: the command line is the later layer).
    assert _codes(passlint(*base, "--extend-select", "TL001", cwd=tmp_path).stdout) == ["TL001"]
    assert _codes(passlint(*base, "--extend-select", "PL100", cwd=tmp_path).stdout) == ["PL100"]
    assert _codes(passlint(*base, "--select", "TL001", cwd=tmp_path).stdout) == ["TL001"]
    # ... and a flag's ignore applies to the file's selection.
    (tmp_path / "pyproject.toml").write_text('[tool.passlint]\nselect = ["TL001"]\n')
    assert _codes(passlint(*base, "--ignore", "TL", cwd=tmp_path).stdout) == []


def test_per_file_ignores(tmp_path: Path) -> None:
    for name in ("model.mlir", "tests/lit.mlir", "tests/deep/case.mlir", "vendor/theirs.mlir"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(INPUT_MLIR)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.passlint]\n"
        'per-file-ignores = { "tests/**" = ["TL"], "!vendor/**" = ["TL002"] }\n'
        'extend-per-file-ignores = { "theirs.mlir" = ["TL001"] }\n'
    )

    def paths(*flags: str) -> list[str]:
        result = passlint("check", "--format", "json", *flags, cwd=tmp_path)
        assert result.returncode in (0, 1), result.stderr
        return sorted(f["path"] for f in json.loads(result.stdout)["findings"])

    assert paths() == ["model.mlir"]
    # Per-file ignores win over any selection.
    assert paths("--select", "TL001") == ["model.mlir"]
    assert paths("--extend-per-file-ignores", "model.mlir:TL001") == []
    assert paths("--per-file-ignores", "vendor/*:TL") == [
        "model.mlir",
        "tests/deep/case.mlir",
        "tests/lit.mlir",
    ]
    # From a sub-folder, patterns stay relative to the configuration file's folder.
    sub = passlint("check", "--format", "json", ".", cwd=tmp_path / "tests")
    assert _codes(sub.stdout) == []
    (tmp_path / "pyproject.toml").write_text(
        '[tool.passlint]\nper-file-ignores = { "x" = ["TL999"] }\n'
    )
    bad = passlint("check", cwd=tmp_path)
    assert bad.returncode == 2 and "unknown rule code 'TL999'" in bad.stderr
    usage = passlint("check", "--per-file-ignores", "no-colon", cwd=tmp_path)
    assert usage.returncode == 2
    assert_no_traceback(usage)


def test_output_format_and_format_alias(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    ruff_spelling = passlint("check", "--output-format", "json", "input.mlir", cwd=tmp_path)
    alias = passlint("check", "--format", "json", "input.mlir", cwd=tmp_path)
    assert ruff_spelling.stdout == alias.stdout
    assert _codes(ruff_spelling.stdout) == ["TL001"]


def test_concise_and_full_text(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    text = passlint("check", "input.mlir", cwd=tmp_path).stdout  # not a terminal: one line
    concise = passlint("check", "--output-format", "concise", "input.mlir", cwd=tmp_path)
    assert concise.stdout == text
    full = passlint("check", "--output-format", "full", "input.mlir", cwd=tmp_path)
    finding, *snippet = full.stdout.split("\n")[:5]
    assert finding == text.split("\n")[0]
    assert snippet == [
        "  |",
        "3 |     return %arg0 : tensor<4xf32>",
        "  |            ^^^^^",
        "",
    ]
    assert "\x1b[" not in full.stdout  # colour only on a terminal
    statistics = passlint(
        "check", "--statistics", "--output-format", "full", "input.mlir", cwd=tmp_path
    )
    assert statistics.stdout.startswith("    1  TL001  [*] output-aliases-input\n")


def test_show_settings(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.passlint]\nignore = ["TL006"]\nper-file-ignores = { "gen/**" = ["TL"] }\n'
    )
    result = passlint("check", "--show-settings", "--ignore", "E", "input.mlir", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    settings = {
        key.strip(): json.loads(value)
        for key, value in (line.split(" = ", 1) for line in result.stdout.splitlines())
    }
    assert settings["configuration"] == str(tmp_path / "pyproject.toml")
    assert "TL006" not in settings["selected"] and "TL001" in settings["selected"]
    assert not any(code.startswith("E") for code in settings["selected"])
    assert settings["per-file-ignores"] == {"gen/**": ["TL"]}
    assert settings["output-format"] == "text"
    assert "TL001" not in result.stdout.split("selected ", 1)[0]  # nothing analysed


def test_show_files(tree: Path) -> None:
    result = passlint("check", "--show-files", cwd=tree)
    assert result.returncode == 0
    # plain.py does not import pypto.language: it is not read.
    assert result.stdout.splitlines() == [
        "broken.mlir",
        "clean.mlir",
        "input.mlir",
        "stale_suppression.mlir",
        "zero.mlir",
        "nested/kernel.py",
        "nested/twice.mlir",
    ]
    missing = passlint("check", "--show-files", "nope", cwd=tree)
    assert missing.returncode == 2 and "nope: no such file" in missing.stderr


def test_jobs(tree: Path) -> None:
    serial = passlint("check", "--jobs", "1", "--format", "json", cwd=tree)
    auto = passlint("check", "--format", "json", cwd=tree)
    two = passlint("check", "-j", "2", "--format", "json", cwd=tree)
    assert serial.stdout == auto.stdout == two.stdout
    bad = passlint("check", "--jobs", "-1", cwd=tree)
    assert bad.returncode == 2 and "--jobs" in bad.stderr


def test_every_option_has_help(tmp_path: Path) -> None:
    from passlint.cli import build_parser

    parser = build_parser()
    commands = next(
        action for action in parser._actions if action.dest == "command"
    ).choices  # argparse keeps sub-parsers here
    assert commands is not None
    for name, sub in commands.items():
        for action in sub._actions:
            assert action.help, f"passlint {name} {action.option_strings or action.dest}"
    text = passlint("check", "--help", cwd=tmp_path).stdout
    assert "--pipeline {auto,mhlo,stablehlo}\n" in text
    assert "TensorizerLegalization variant" in text


UNKNOWN_FORM_MLIR = """func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mydialect.op %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_legalize_says_where_it_placed_a_name_without_certainty(tmp_path: Path) -> None:
    """An op in a custom form passlint does not know, without the functional type a generic
    form needs: the name goes before its ':' and stderr says that MLIR may reject it."""
    (tmp_path / "unknown.mlir").write_text(UNKNOWN_FORM_MLIR)
    result = passlint("legalize", "unknown.mlir", cwd=tmp_path)
    assert result.returncode == 0
    assert "  %0 = mydialect.op %arg0 {neuron.symName = [@output0]} : tensor<4xf32>\n" in (
        result.stdout
    )
    assert result.stderr == (
        "passlint: unknown.mlir:2:3: `mydialect.op` is in a custom form passlint does not "
        "know: its neuron.symName is placed before its ':', where most custom forms take "
        "attributes; MLIR may reject it\n"
    )
