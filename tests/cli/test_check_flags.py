"""`passlint check` through a subprocess: paths, text output, exit codes, selection flags."""

from __future__ import annotations

import json
from pathlib import Path

from cli_testing import CLEAN_MLIR, INPUT_MLIR, assert_no_traceback, passlint

TL001_INPUT = (
    "input.mlir:3:12: TL001 Output 0 ('output0') returns input `%arg0`; copy it before the "
    "return. The tensorizer needs a distinct, writable buffer per output, so "
    "TensorizerLegalization inserts an identity `mhlo.copy` named 'output0'."
)


def test_text_lines_and_summary(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "input.mlir", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        f"{TL001_INPUT}\nFound 1 finding (1 warning) in 1 file. 1 fixable with --fix.\n"
    )
    assert result.stderr == ""


def test_default_path_is_the_current_folder(tree: Path) -> None:
    result = passlint("check", cwd=tree)
    assert result.returncode == 1
    paths = [line.split(":")[0] for line in result.stdout.splitlines()[:-1]]
    assert paths == sorted(paths)
    assert set(paths) == {
        "broken.mlir",
        "input.mlir",
        "zero.mlir",
        "nested/kernel.py",
        "nested/twice.mlir",
    }
    assert result.stdout.splitlines()[-1] == (
        "Found 6 findings (1 error, 1 information, 4 warning) in 7 files. 4 fixable with --fix."
    )


def test_files_and_folders_mixed(tree: Path) -> None:
    result = passlint("check", "input.mlir", "nested", cwd=tree)
    paths = {line.split(":")[0] for line in result.stdout.splitlines()[:-1]}
    assert paths == {"input.mlir", "nested/kernel.py", "nested/twice.mlir"}
    assert "in 3 files" in result.stdout


def test_check_alias(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    result = passlint("--check", "input.mlir", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith(TL001_INPUT)


def test_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "clean.mlir").write_text(CLEAN_MLIR)
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    clean = passlint("check", "clean.mlir", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, "All checks passed (1 file checked).\n")
    assert passlint("check", "input.mlir", cwd=tmp_path).returncode == 1
    assert passlint("check", "--exit-zero", "input.mlir", cwd=tmp_path).returncode == 0
    # Usage errors.
    for args in (
        ("check", "--no-such-flag"),
        ("check", "--format", "xml"),
        ("check", "--select", "XX999", "input.mlir"),
        ("check", "--pipeline", "llvm"),
        ("check", "--fail-on", "fatal"),
        ("bogus",),
    ):
        result = passlint(*args, cwd=tmp_path)
        assert result.returncode == 2, args
        assert_no_traceback(result)
    unknown = passlint("check", "--ignore", "ZZ1", "input.mlir", cwd=tmp_path)
    assert "unknown rule code 'ZZ1'" in unknown.stderr


def test_fail_on(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)  # a warning
    zero = INPUT_MLIR.replace("tensor<4xf32>", "tensor<0x4xf32>")
    (tmp_path / "zero.mlir").write_text(zero)  # an information (StableHLO variant)
    assert passlint("check", "--fail-on", "error", "input.mlir", cwd=tmp_path).returncode == 0
    assert passlint("check", "--fail-on", "warning", "input.mlir", cwd=tmp_path).returncode == 1
    info = passlint("check", "zero.mlir", cwd=tmp_path)
    assert (info.returncode, info.stdout.count("TL006")) == (0, 1)  # reported, not failing
    assert passlint("check", "--fail-on", "information", "zero.mlir", cwd=tmp_path).returncode == 1
    assert passlint("check", "--fail-on", "hint", "zero.mlir", cwd=tmp_path).returncode == 1
    strict = passlint("check", "--fail-on", "information", "--exit-zero", "zero.mlir", cwd=tmp_path)
    assert strict.returncode == 0


def test_missing_path_is_exit_2_and_the_rest_is_checked(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "nope.mlir", "input.mlir", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "passlint: nope.mlir: no such file or directory\n"
    assert "TL001" in result.stdout


def _codes(result_stdout: str) -> list[str]:
    return [f["code"] for f in json.loads(result_stdout)["findings"]]


def test_select_ignore_extend_select(tree: Path) -> None:
    base = ("check", "--format", "json")
    assert _codes(passlint(*base, "--select", "TL001", cwd=tree).stdout) == ["TL001"] * 3
    assert _codes(passlint(*base, "--select", "E", cwd=tree).stdout) == ["E009"]
    ignored = _codes(passlint(*base, "--ignore", "TL,VS", cwd=tree).stdout)
    assert ignored == ["E009"]
    extended = _codes(passlint(*base, "--extend-select", "PL100", cwd=tree).stdout)
    assert "PL100" in extended and "TL001" in extended
    assert "PL100" not in _codes(passlint(*base, cwd=tree).stdout)  # opt-in
    # Lower case and prefixes are accepted; ignore wins over a shorter select prefix.
    mixed = _codes(passlint(*base, "--select", "tl", "--ignore", "tl006", cwd=tree).stdout)
    assert sorted(set(mixed)) == ["TL001"]


def test_pipeline(tmp_path: Path) -> None:
    zero = INPUT_MLIR.replace("tensor<4xf32>", "tensor<0x4xf32>")
    (tmp_path / "zero.mlir").write_text(zero)

    def severity(*flags: str) -> str:
        result = passlint("check", "--format", "json", *flags, "zero.mlir", cwd=tmp_path)
        (finding,) = json.loads(result.stdout)["findings"]
        return str(finding["severity"])

    assert severity("--pipeline", "mhlo") == "warning"
    assert severity("--pipeline", "stablehlo") == "information"
    assert severity() == "information"  # auto: no mhlo ops, so StableHLO


def test_quiet(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    (tmp_path / "clean.mlir").write_text(CLEAN_MLIR)
    quiet = passlint("check", "--quiet", "input.mlir", cwd=tmp_path)
    assert (quiet.returncode, quiet.stdout) == (1, TL001_INPUT + "\n")
    silent = passlint("check", "-q", "clean.mlir", cwd=tmp_path)
    assert (silent.returncode, silent.stdout, silent.stderr) == (0, "", "")


def test_statistics(tree: Path) -> None:
    text = passlint("check", "--statistics", cwd=tree)
    assert text.returncode == 1
    assert text.stdout == (
        "    3  TL001  [*] output-aliases-input\n"
        "    1  E009       unbalanced-brackets\n"
        "    1  TL006      zero-sized-output\n"
        "    1  VS001  [*] unbound-valid-shape-symbol\n"
        "Found 6 findings (1 error, 1 information, 4 warning) in 7 files. 4 fixable with --fix.\n"
    )
    quiet = passlint("check", "--statistics", "--quiet", cwd=tree)
    assert quiet.stdout == text.stdout.rsplit("Found", 1)[0]
    as_json = json.loads(passlint("check", "--statistics", "--format", "json", cwd=tree).stdout)
    assert as_json[0] == {
        "code": "TL001",
        "name": "output-aliases-input",
        "count": 3,
        "fixable": True,
        "fixable_count": 3,
    }
    bad = passlint("check", "--statistics", "--format", "sarif", cwd=tree)
    assert bad.returncode == 2 and "--statistics" in bad.stderr


def test_stdin(tmp_path: Path) -> None:
    result = passlint(
        "check", "-", "--stdin-filename", "sub/model.mlir", cwd=tmp_path, stdin=INPUT_MLIR.encode()
    )
    assert result.returncode == 1
    assert result.stdout.startswith("sub/model.mlir:3:12: TL001 ")
    clean = passlint("check", "-", "--stdin-filename", "m.mlir", cwd=tmp_path, stdin=b"module {}\n")
    assert clean.returncode == 0
    missing = passlint("check", "-", cwd=tmp_path, stdin=INPUT_MLIR.encode())
    assert missing.returncode == 2 and "--stdin-filename" in missing.stderr
    mixed = passlint("check", "-", "x.mlir", "--stdin-filename", "a.mlir", cwd=tmp_path, stdin=b"")
    assert mixed.returncode == 2 and "cannot be combined" in mixed.stderr
    not_utf8 = passlint("check", "-", "--stdin-filename", "a.mlir", cwd=tmp_path, stdin=b"\xff\n")
    assert not_utf8.returncode == 2 and "not UTF-8" in not_utf8.stderr
    assert_no_traceback(not_utf8)


def test_stdin_fix_prints_the_fixed_text(tmp_path: Path) -> None:
    result = passlint(
        "check",
        "-",
        "--fix",
        "--stdin-filename",
        "model.mlir",
        cwd=tmp_path,
        stdin=INPUT_MLIR.encode(),
    )
    assert result.returncode == 0
    assert result.stdout == INPUT_MLIR.replace(
        "    return %arg0",
        "    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n    return %output0_copy",
    )
    assert "Fixed 1 finding." in result.stderr
    assert "All checks passed" in result.stderr
    assert not (tmp_path / "model.mlir").exists()


def test_internal_error_is_exit_2_without_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    script = (
        "import passlint.check as c\n"
        "def boom(*a, **k):\n    raise RuntimeError('boom')\n"
        "c.discover = boom\n"
        "from passlint.cli import main\n"
        "raise SystemExit(main(['check', 'input.mlir']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr == "passlint: internal error: RuntimeError: boom\n"


def test_a_failing_pass_is_reported_per_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "a.mlir").write_text(INPUT_MLIR)
    (tmp_path / "b.mlir").write_text(INPUT_MLIR)
    script = (
        "import passlint.pipeline as e\n"
        "real = e.analyze\n"
        "def flaky(path, *a, **k):\n"
        "    if path.endswith('a.mlir'):\n        raise ValueError('bad')\n"
        "    return real(path, *a, **k)\n"
        "e.analyze = flaky\n"
        "from passlint.cli import main\n"
        "raise SystemExit(main(['check', '.']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr == "passlint: a.mlir: internal error: ValueError: bad\n"
    assert result.stdout.startswith("b.mlir:3:12: TL001")
