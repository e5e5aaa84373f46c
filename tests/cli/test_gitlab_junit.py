"""``--output-format gitlab`` (GitLab Code Quality) and ``junit`` (JUnit XML), issue 30,
point 6: the shapes their readers take, fingerprints that are stable and unique, and
hostile names and messages that stay data."""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
from cli_testing import INPUT_MLIR, assert_no_traceback, passlint, passlint_bytes

# GitLab's documented Code Quality issue (docs.gitlab.com/ci/testing/code_quality): the
# fields GitLab reads, required.
GITLAB_ISSUE = {
    "type": "object",
    "required": ["description", "check_name", "fingerprint", "severity", "location"],
    "properties": {
        "description": {"type": "string"},
        "check_name": {"type": "string"},
        "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
        "location": {
            "type": "object",
            "required": ["path", "lines"],
            "properties": {
                "path": {"type": "string"},
                "lines": {
                    "type": "object",
                    "required": ["begin"],
                    "properties": {
                        "begin": {"type": "integer", "minimum": 1},
                        "end": {"type": "integer", "minimum": 1},
                    },
                },
            },
        },
    },
}
GITLAB_REPORT = {"type": "array", "items": GITLAB_ISSUE}
HOSTILE_NAME = 'h\x1b]]>&<"\u202e.mlir'
HOSTILE_MLIR = INPUT_MLIR.replace(
    "-> tensor<4xf32> {",
    '-> tensor<4xf32> attributes {output_names = ["o\x01]]></failure>&\x0b\ufffe"]} {',
)


def gitlab(cwd: Path, *args: str, env: dict[str, str] | None = None) -> list[dict[str, object]]:
    result = passlint("check", "--output-format", "gitlab", *args, cwd=cwd, env=env)
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    report: list[dict[str, object]] = json.loads(result.stdout)
    jsonschema.validate(report, GITLAB_REPORT)
    return report


def test_gitlab_report(tree: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tree.parent, check=True)
    issues = gitlab(tree)
    assert [(i["check_name"], i["severity"]) for i in issues] == [
        ("E009", "critical"),
        ("TL001", "major"),
        ("VS001", "major"),
        ("TL001", "major"),
        ("TL001", "major"),
        ("TL006", "minor"),
    ]
    twice = [i for i in issues if i["location"]["path"] == "tree/nested/twice.mlir"]  # type: ignore[index]
    assert [i["location"] for i in twice] == [
        {"path": "tree/nested/twice.mlir", "lines": {"begin": 3, "end": 3}}
    ] * 2  # paths from the repository's top, here above the folder checked
    assert str(twice[0]["description"]).startswith("TL001 Output 0 ('output0') returns input")
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == len(issues)  # two TL001 on one line: two fingerprints
    assert [i["fingerprint"] for i in gitlab(tree / "nested", "..")] == fingerprints
    # A line added above leaves the fingerprints as they were; the lines move.
    twice_file = tree / "nested" / "twice.mlir"
    twice_file.write_text("// a comment above\n" + twice_file.read_text())
    moved = gitlab(tree)
    assert [i["fingerprint"] for i in moved] == fingerprints
    assert [i["location"]["lines"]["begin"] for i in moved][3:5] == [4, 4]  # type: ignore[index]
    # In GitLab CI, paths are relative to the project's checkout (CI_PROJECT_DIR).
    in_ci = gitlab(tree, env={"CI_PROJECT_DIR": str(tree)})
    assert in_ci[3]["location"]["path"] == "nested/twice.mlir"  # type: ignore[index]


def test_gitlab_severities(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR)
    (tmp_path / "passlint.toml").write_text('severity = { TL001 = "hint" }\n')
    assert [i["severity"] for i in gitlab(tmp_path, "--fail-on", "hint")] == ["info"]
    (tmp_path / "passlint.toml").write_text('severity = { TL001 = "information" }\n')
    assert [i["severity"] for i in gitlab(tmp_path, "--fail-on", "hint")] == ["minor"]


def test_gitlab_keeps_hostile_names_and_messages_as_data(tmp_path: Path) -> None:
    (tmp_path / HOSTILE_NAME).write_text(HOSTILE_MLIR)
    os.makedirs(tmp_path / "raw")
    (tmp_path / os.fsdecode(b"raw/\xff.mlir")).write_text(INPUT_MLIR)
    result = passlint_bytes("check", "--output-format", "gitlab", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.isascii()
    issues = json.loads(result.stdout)
    jsonschema.validate(issues, GITLAB_REPORT)
    assert [i["location"]["path"] for i in issues] == [HOSTILE_NAME, "raw/\\xff.mlir"]
    assert "o\x01]]></failure>&\x0b\ufffe" in issues[0]["description"]


def junit(cwd: Path, *args: str) -> tuple[ET.Element, bytes]:
    result = passlint_bytes("check", "--output-format", "junit", *args, cwd=cwd)
    assert b"Traceback" not in result.stderr
    assert result.stdout.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(result.stdout), result.stdout  # (expat: well-formed XML 1.0)


def test_junit_report(tree: Path) -> None:
    (tree / "bin.mlir").write_bytes(b"\xff\xfe")
    root, _ = junit(tree)
    assert root.tag == "testsuites"
    assert root.attrib == {"name": "passlint", "tests": "9", "failures": "6", "errors": "1"}
    suites = {suite.get("name"): suite for suite in root}
    assert list(suites) == [
        "bin.mlir",
        "broken.mlir",
        "clean.mlir",
        "input.mlir",
        "nested/kernel.py",
        "nested/twice.mlir",
        "stale_suppression.mlir",
        "zero.mlir",
    ]  # every file checked (plain.py is no pl source), sorted
    clean = suites["clean.mlir"]
    assert clean.attrib == {"name": "clean.mlir", "tests": "1", "failures": "0", "errors": "0"}
    ((case,),) = [list(clean)]
    assert case.attrib == {"name": "passlint", "classname": "clean.mlir", "file": "clean.mlir"}
    assert list(case) == []  # passed
    twice = list(suites["nested/twice.mlir"])
    assert [c.get("name") for c in twice] == [
        "TL001 output-aliases-input at 3:12",
        "TL001 output-aliases-input at 3:19",
    ]
    failure = twice[0].find("failure")
    assert failure is not None and failure.get("type") == "warning"
    assert twice[0].get("line") == "3" and twice[0].get("file") == "nested/twice.mlir"
    assert str(failure.get("message")).startswith("Output 0 ('output0') returns input `%arg0`")
    assert failure.text == f"nested/twice.mlir:3:12: TL001 {failure.get('message')}"
    error = suites["bin.mlir"].find("testcase/error")
    assert error is not None
    assert error.get("message") == "not UTF-8 (invalid byte at line 1); not checked"


def test_junit_keeps_hostile_names_and_messages_as_data(tmp_path: Path) -> None:
    (tmp_path / HOSTILE_NAME).write_text(HOSTILE_MLIR)
    os.makedirs(tmp_path / "raw")
    (tmp_path / os.fsdecode(b"raw/\xff.mlir")).write_text(INPUT_MLIR)
    root, raw = junit(tmp_path)
    assert raw.count(b"<failure") == 2 and raw.count(b"</failure>") == 2
    suites = list(root)
    shown = 'h\\x1b]]>&<"\u202e.mlir'  # what XML cannot hold is a visible escape
    assert [suite.get("name") for suite in suites] == [shown, "raw/\\xff.mlir"]
    failure = suites[0].find("testcase/failure")
    assert failure is not None
    name = "o\\x01]]></failure>&\\x0b\\ufffe"
    assert f"named '{name}'" in str(failure.get("message"))
    assert failure.text == f"{shown}:3:12: TL001 {failure.get('message')}"


def test_junit_of_a_clean_run_and_of_no_file(tmp_path: Path) -> None:
    (tmp_path / "input.mlir").write_text(INPUT_MLIR.replace("return %arg0", "return %arg0\n"))
    root, _ = junit(tmp_path, "--ignore", "TL001")
    assert root.attrib == {"name": "passlint", "tests": "1", "failures": "0", "errors": "0"}
    empty, raw = junit(tmp_path, "--extend-exclude", "*.mlir")
    assert (empty.attrib["tests"], list(empty)) == ("0", [])
    assert raw.endswith(b"</testsuites>\n")
