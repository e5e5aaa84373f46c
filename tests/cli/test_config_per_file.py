"""Configuration per file, as ruff resolves it (issue 30, point 5): each file takes its
closest configuration file whatever path was given, so `passlint check .` (CI) and
`passlint check sub/x.mlir` (pre-commit) agree; ``--config`` governs every file; a
configuration file's patterns start from its own folder."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from cli_testing import INPUT_MLIR, assert_no_traceback, passlint

# INPUT_MLIR has one TL001 at 3:12.


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def found(cwd: Path, *args: str) -> dict[str, list[str]]:
    """The codes `passlint check --format json ARGS` reports, by path."""
    result = passlint("check", "--format", "json", *args, cwd=cwd)
    assert_no_traceback(result)
    assert result.returncode in (0, 1), result.stderr
    codes: dict[str, list[str]] = {}
    for finding in json.loads(result.stdout)["findings"]:
        codes.setdefault(finding["path"], []).append(finding["code"])
    return codes


def test_ci_and_pre_commit_agree(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    write(
        tmp_path,
        {
            "top.mlir": INPUT_MLIR,
            "sub/x.mlir": INPUT_MLIR,
            "sub/deep/y.mlir": INPUT_MLIR,
            "passlint.toml": 'ignore = ["TL001"]\n',
            "sub/passlint.toml": 'select = ["TL001", "TL006"]\n',
        },
    )
    everything = {"sub/deep/y.mlir": ["TL001"], "sub/x.mlir": ["TL001"]}
    assert found(tmp_path) == everything  # CI: the whole tree
    assert found(tmp_path, "sub/x.mlir") == {"sub/x.mlir": ["TL001"]}  # pre-commit
    assert found(tmp_path, "top.mlir", "sub/deep/y.mlir") == {"sub/deep/y.mlir": ["TL001"]}
    assert found(tmp_path, "sub") == everything
    # From below, the configuration files above the given path are found.
    assert found(tmp_path / "sub" / "deep", ".") == {"y.mlir": ["TL001"]}
    assert found(tmp_path / "sub" / "deep", "../../top.mlir") == {}


def test_flags_are_a_layer_over_each_configuration(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "top.mlir": INPUT_MLIR,
            "sub/x.mlir": INPUT_MLIR,
            "passlint.toml": 'ignore = ["TL001"]\n',
            "sub/passlint.toml": 'ignore = ["TL00"]\n',
        },
    )
    assert found(tmp_path) == {}
    both = {"sub/x.mlir": ["TL001"], "top.mlir": ["TL001"]}
    assert found(tmp_path, "--extend-select", "TL001") == both
    assert found(tmp_path, "--select", "TL001") == both


def test_flag_patterns_start_from_the_working_folder(tmp_path: Path) -> None:
    """As ruff reads them, whatever configuration file governs the files they match."""
    write(
        tmp_path,
        {
            "gen/a.mlir": INPUT_MLIR,
            "sub/gen/a.mlir": INPUT_MLIR,
            "sub/keep.mlir": INPUT_MLIR,
            "sub/passlint.toml": 'pipeline = "auto"\n',
        },
    )
    assert found(tmp_path, "--extend-exclude", "sub/gen") == {
        "gen/a.mlir": ["TL001"],
        "sub/keep.mlir": ["TL001"],
    }
    assert found(tmp_path / "sub", "--per-file-ignores", "gen/*:TL", "..") == {
        "../gen/a.mlir": ["TL001"],
        "../sub/keep.mlir": ["TL001"],
    }
    named = ("--force-exclude", "--extend-exclude", "**/gen/*", "gen/a.mlir", "sub/gen/a.mlir")
    assert found(tmp_path, *named) == {}


def test_explicit_config_governs_every_file(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "top.mlir": INPUT_MLIR,
            "sub/x.mlir": INPUT_MLIR,
            "sub/gen/y.mlir": INPUT_MLIR,
            "sub/passlint.toml": 'ignore = ["TL001"]\n',
            "configs/ci.toml": '[tool.passlint]\nper-file-ignores = { "gen/*" = ["TL"] }\n',
        },
    )
    every = {"sub/gen/y.mlir": ["TL001"], "sub/x.mlir": ["TL001"], "top.mlir": ["TL001"]}
    # Its patterns start from its own folder (configs/): gen/* matches nothing here.
    assert found(tmp_path, "--config", "configs/ci.toml") == every
    assert found(tmp_path, "--config", "configs/ci.toml", "sub/x.mlir") == {"sub/x.mlir": ["TL001"]}


def test_patterns_start_from_the_folder_holding_the_configuration(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "gen/a.mlir": INPUT_MLIR,
            "tests/b.mlir": INPUT_MLIR,
            "sub/gen/a.mlir": INPUT_MLIR,
            "sub/tests/b.mlir": INPUT_MLIR,
            "sub/keep.mlir": INPUT_MLIR,
            "pyproject.toml": '[tool.passlint]\nper-file-ignores = { "tests/*" = ["TL"] }\n',
            "sub/passlint.toml": 'extend-exclude = ["gen/**"]\n'
            'per-file-ignores = { "tests/*" = ["TL001"] }\n',
        },
    )
    expected = {"gen/a.mlir": ["TL001"], "sub/keep.mlir": ["TL001"]}
    assert found(tmp_path) == expected
    assert found(tmp_path / "sub", "..") == {
        "../gen/a.mlir": ["TL001"],
        "../sub/keep.mlir": ["TL001"],
    }
    # --force-exclude (pre-commit) judges a file named by its own configuration's patterns.
    named = ("--force-exclude", "sub/gen/a.mlir", "gen/a.mlir")
    assert found(tmp_path, *named) == {"gen/a.mlir": ["TL001"]}


def test_a_pyproject_without_passlint_table_is_no_configuration(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "sub/x.mlir": INPUT_MLIR,
            "passlint.toml": 'ignore = ["TL001"]\n',
            "sub/pyproject.toml": '[project]\nname = "sub"\n\n[tool.ruff]\nline-length = 99\n',
        },
    )
    assert found(tmp_path, "sub/x.mlir") == {}  # the top's passlint.toml governs sub
    shown = passlint("check", "--show-settings", "sub/x.mlir", cwd=tmp_path).stdout
    settings = {
        key.strip(): json.loads(value)
        for key, value in (line.split(" = ", 1) for line in shown.splitlines())
    }
    assert settings["configuration"] == str(tmp_path / "passlint.toml")
    (tmp_path / "sub" / "pyproject.toml").write_text("[tool.passlint]\nselect = ['TL00\n")
    broken = passlint("check", "sub/x.mlir", cwd=tmp_path)  # broken, it counts: an error
    assert broken.returncode == 2
    assert broken.stderr.startswith(
        f"passlint: configuration error: {tmp_path / 'sub' / 'pyproject.toml'}: "
    )
    assert broken.stdout == ""


def test_a_folder_excluded_above_is_not_entered(tmp_path: Path) -> None:
    """Its configuration file is never read (ruff reads it, and fails on it: ruff#9585);
    a configuration file may re-include what the one above excludes."""
    write(
        tmp_path,
        {
            "top.mlir": INPUT_MLIR,
            "build/out.mlir": INPUT_MLIR,
            "build/passlint.toml": "this is not toml\n",
            "sub/build/out.mlir": INPUT_MLIR,
            "sub/passlint.toml": "exclude = []\n",
        },
    )
    assert found(tmp_path) == {"sub/build/out.mlir": ["TL001"], "top.mlir": ["TL001"]}
    assert found(tmp_path, "--force-exclude", "build/out.mlir") == {}
    named = passlint("check", "build/out.mlir", cwd=tmp_path)  # named: it governs the file
    assert named.returncode == 2
    assert named.stderr.startswith(
        f"passlint: configuration error: {tmp_path / 'build' / 'passlint.toml'}: "
    )


def test_a_broken_configuration_below_stops_the_check(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"top.mlir": INPUT_MLIR, "sub/x.mlir": INPUT_MLIR, "sub/passlint.toml": "selct = []\n"},
    )
    for args in (("check",), ("check", "sub/x.mlir"), ("check", "--format", "junit")):
        result = passlint(*args, cwd=tmp_path)
        assert result.returncode == 2
        assert result.stderr == (
            f"passlint: configuration error: {tmp_path / 'sub' / 'passlint.toml'}: "
            "unknown key 'selct'\n"
        )
        assert result.stdout == ""
    assert found(tmp_path, "top.mlir") == {"top.mlir": ["TL001"]}  # sub's is not looked at


def test_a_configuration_file_is_read_only_inside_the_workspace(tmp_path: Path) -> None:
    """A linked configuration file is read when it leads into the folder holding it or into
    the workspace; elsewhere it is refused (a checkout must not have passlint read, or be
    governed by, a file outside what the user named)."""
    project = tmp_path / "project"
    write(
        tmp_path,
        {
            "outside/passlint.toml": 'ignore = ["TL001"]\n',
            "project/top.mlir": INPUT_MLIR,
            "project/sub/x.mlir": INPUT_MLIR,
            "project/shared/strict.toml": 'ignore = ["TL001"]\n',
        },
    )
    os.symlink(project / "shared" / "strict.toml", project / "sub" / "passlint.toml")
    assert found(project) == {"top.mlir": ["TL001"]}  # inside: read
    os.symlink(tmp_path / "outside" / "passlint.toml", project / "passlint.toml")
    for args in ((), ("top.mlir",)):
        result = passlint("check", *args, cwd=project)
        assert result.returncode == 2
        assert result.stderr == (
            f"passlint: configuration error: {project / 'passlint.toml'}: a symbolic link out "
            f"of the workspace (to {tmp_path / 'outside' / 'passlint.toml'}); not read\n"
        )
    # Named on the command line, the file is the user's choice: read wherever it is.
    assert found(project, "--config", "passlint.toml") == {}
    # A pyproject.toml linked out is not even read to see whether it is passlint's.
    (project / "passlint.toml").unlink()
    (tmp_path / "outside" / "pyproject.toml").write_text("[project]\nname = 'theirs'\n")
    os.symlink(tmp_path / "outside" / "pyproject.toml", project / "pyproject.toml")
    result = passlint("check", cwd=project)
    assert result.returncode == 2
    assert "pyproject.toml: a symbolic link out of the workspace" in result.stderr


def test_a_tool_table_of_the_wrong_shape(tmp_path: Path) -> None:
    write(tmp_path, {"x.mlir": INPUT_MLIR, "pyproject.toml": 'tool = "passlint"\n'})
    assert found(tmp_path) == {"x.mlir": ["TL001"]}  # no [tool.passlint] table: no configuration
    (tmp_path / "pyproject.toml").write_text("[tool]\npasslint = 3\n")
    result = passlint("check", cwd=tmp_path)
    assert_no_traceback(result)
    assert result.returncode == 2
    assert result.stderr == (
        f"passlint: configuration error: {tmp_path / 'pyproject.toml'}: "
        "tool.passlint must be a table\n"
    )
