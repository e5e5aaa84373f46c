"""Configuration files, suppression comments (PL100), exclusion, and the rule catalog."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_testing import CLEAN_MLIR, INPUT_MLIR, assert_no_traceback, passlint

from passlint.catalog import RULES
from passlint.report.rules_doc import render_rules_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _codes(stdout: str) -> list[str]:
    return [f["code"] for f in json.loads(stdout)["findings"]]


def test_pyproject_config_and_cli_override(tree: Path) -> None:
    (tree / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.passlint]\nselect = ["E"]\n'
        'severity = { E009 = "warning" }\n'
    )
    result = passlint("check", "--format", "json", cwd=tree / "nested" / "..")
    assert _codes(result.stdout) == ["E009"]
    assert json.loads(result.stdout)["findings"][0]["severity"] == "warning"
    # From a sub-folder the nearest configuration is still found.
    nested = passlint("check", "--format", "json", ".", cwd=tree / "nested")
    assert _codes(nested.stdout) == []
    # Flags override: --select replaces the file's selection.
    override = passlint("check", "--format", "json", "--select", "TL001", cwd=tree)
    assert set(_codes(override.stdout)) == {"TL001"}


def test_passlint_toml_and_explicit_config(tree: Path) -> None:
    (tree / "passlint.toml").write_text('ignore = ["TL", "VS"]\n')
    assert _codes(passlint("check", "--format", "json", cwd=tree).stdout) == ["E009"]
    other = tree.parent / "other.toml"
    other.write_text('[tool.passlint]\nselect = ["TL006"]\n')
    explicit = passlint("check", "--format", "json", "--config", str(other), cwd=tree)
    assert _codes(explicit.stdout) == ["TL006"]


def test_config_errors_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a.mlir").write_text(INPUT_MLIR)
    cases = {
        '[tool.passlint]\nselct = ["TL"]\n': "unknown key 'selct'",
        '[tool.passlint]\nselect = ["TL999"]\n': "unknown rule code 'TL999'",
        '[tool.passlint]\nseverity = { TL001 = "loud" }\n': "unknown severity 'loud'",
        '[tool.passlint]\npipeline = "llvm"\n': "unknown pipeline 'llvm'",
        "[tool.passlint\n": "pyproject.toml",
    }
    for text, message in cases.items():
        (tmp_path / "pyproject.toml").write_text(text)
        result = passlint("check", ".", cwd=tmp_path)
        assert_no_traceback(result)
        assert result.returncode == 2, text
        assert result.stderr.startswith("passlint: configuration error: "), result.stderr
        assert message in result.stderr
        assert result.stdout == ""


def test_exclude_extend_exclude_gitignore(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for name in ("keep.mlir", "gen/out.mlir", "third_party/x.mlir", "a.gen.mlir", "build/b.mlir"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(INPUT_MLIR)
    (tmp_path / ".gitignore").write_text("gen/\n*.gen.mlir\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.passlint]\nextend-exclude = ["third_party/**"]\n'
    )

    def checked(*args: str) -> set[str]:
        result = passlint("check", "--format", "json", *args, cwd=tmp_path)
        return {f["path"] for f in json.loads(result.stdout)["findings"]}

    assert checked() == {"keep.mlir"}  # build/ is excluded by default
    assert checked("--exclude", "keep.mlir") == {"build/b.mlir"}
    assert checked("--extend-exclude", "keep.mlir") == set()
    # Files named on the command line are checked, unless --force-exclude.
    assert checked("a.gen.mlir", "third_party/x.mlir") == {"a.gen.mlir", "third_party/x.mlir"}
    assert checked("--force-exclude", "a.gen.mlir", "third_party/x.mlir", "keep.mlir") == {
        "keep.mlir"
    }


def test_suppression_comments(tmp_path: Path) -> None:
    suppressed = INPUT_MLIR.replace(
        "    return %arg0", "    // passlint: ignore[TL001]\n    return %arg0"
    )
    (tmp_path / "above.mlir").write_text(suppressed)
    (tmp_path / "same.mlir").write_text(
        INPUT_MLIR.replace("tensor<4xf32>\n  }", "tensor<4xf32> // passlint: ignore[TL001]\n  }")
    )
    (tmp_path / "file.mlir").write_text("// passlint: ignore-file\n" + INPUT_MLIR)
    (tmp_path / "kernel.py").write_text("import pypto.language as pl  # passlint: ignore[VS001]\n")
    result = passlint("check", "--extend-select", "PL100", ".", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "kernel.py:1:30: PL100 Unused suppression of VS001; remove it. No VS001 finding is raised "
        "on this line or the next, so it hides only the next real one.",
        "Found 1 finding (1 warning) in 4 files. 1 fixable with --fix.",
    ]
    plain = passlint("check", ".", cwd=tmp_path)
    assert (plain.returncode, plain.stdout) == (0, "All checks passed (4 files checked).\n")


def test_unused_suppression_fix(tmp_path: Path) -> None:
    text = CLEAN_MLIR.replace("    %0 =", "    // passlint: ignore[TL001]\n    %0 =").replace(
        "tensor<4xf32>\n  }", "tensor<4xf32> // passlint: ignore[TL001, XX1]\n  }"
    )
    (tmp_path / "a.mlir").write_text(text)
    report = passlint("check", "--select", "PL100", "--format", "json", ".", cwd=tmp_path)
    messages = [f["message"] for f in json.loads(report.stdout)["findings"]]
    assert messages == [
        "Unused suppression of TL001; remove it. No TL001 finding is raised on this line or the "
        "next, so it hides only the next real one.",
        "Suppression of TL001 is unused and XX1 is no rule; remove them. No TL001 finding is "
        "raised on this line or the next, so it hides only the next real one. `passlint rules` "
        "lists the codes.",
    ]
    fixed = passlint("check", "--select", "PL100", "--fix", ".", cwd=tmp_path)
    assert fixed.returncode == 0
    assert (tmp_path / "a.mlir").read_text() == CLEAN_MLIR
    # A suppression of a rule that is turned off still counts as used.
    used = INPUT_MLIR.replace("tensor<4xf32>\n  }", "tensor<4xf32> // passlint: ignore[TL001]\n  }")
    (tmp_path / "a.mlir").write_text(used)
    quiet = passlint("check", "--select", "PL100", ".", cwd=tmp_path)
    assert quiet.returncode == 0


def test_rules_and_rule(tmp_path: Path) -> None:
    listing = passlint("rules", cwd=tmp_path)
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert len(lines) == len(RULES)
    assert lines[0].split() == ["TL001", "output-aliases-input", "warning"]
    assert "PL100" in listing.stdout and "(opt-in)" in listing.stdout
    explained = passlint("rule", "tl001", cwd=tmp_path)
    assert explained.returncode == 0
    assert explained.stdout.startswith("TL001 (output-aliases-input)\n")
    assert "Example:" in explained.stdout and "After the fix:" in explained.stdout
    assert "%output0_copy = mhlo.copy %arg0" in explained.stdout
    for code in RULES:  # `passlint rule CODE` prints Rule.explain(), as docs/rules.md holds
        if code in ("TL001", "PL100"):
            assert passlint("rule", code, cwd=tmp_path).stdout == RULES[code].explain()
    version = passlint("--version", cwd=tmp_path)
    assert (version.returncode, version.stdout.split()[0]) == (0, "passlint")
    unknown = passlint("rule", "XX1", cwd=tmp_path)
    assert (unknown.returncode, unknown.stderr) == (2, "passlint: unknown rule 'XX1'\n")


def test_rules_document_is_in_sync(tmp_path: Path) -> None:
    """docs/rules.md is generated; regenerate with `passlint rules --format markdown`."""
    generated = passlint("rules", "--format", "markdown", cwd=tmp_path).stdout
    assert generated == render_rules_markdown()
    assert DOCS.read_text(encoding="utf-8") == generated
    for rule in RULES.values():
        assert f"\n## {rule.code} {rule.name}\n" in generated
        assert f"(#{rule.anchor})" in generated
        assert rule.anchor == f"{rule.code.lower()}-{rule.name}"
        assert rule.url is None  # no published page: no link to one that does not exist
        section = generated.split(f"\n## {rule.code} {rule.name}\n\n```text\n", 1)[1]
        assert section.startswith(rule.explain() + "```\n")  # what `passlint rule` prints
