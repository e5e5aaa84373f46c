"""One style for every finding's message (docs/messages.md; issue #17, point 3).

Walks every message the analysis produces over the test corpus (every ``.mlir``, ``.hlo``, HLO
proto, MLIR bytecode and pl ``.py`` file under tests/data, each pipeline variant, every rule selected; the two findings
no input gives, PL001 and the server's PL002, are made here) and the rule catalog (what
``passlint rule CODE`` prints). A message's first sentence (up to the first ". ", or the
whole message) says what is wrong and what to do in at most 100 characters; it starts with
a capital letter or a quoted name, and ends with a full stop.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.findings import Severity
from passlint.analysis.language import is_bytecode_file, is_hlo_proto
from passlint.analysis.mlir.bytecode import BytecodeUnavailable
from passlint.analysis.workspace import Workspace
from passlint.catalog import RULES
from passlint.config import PIPELINES, Settings
from passlint.server.convert import internal_error_diagnostic

DATA = Path(__file__).resolve().parent / "data"
FIRST_SENTENCE_LIMIT = 100


def _corpus_messages() -> dict[str, set[str]]:
    messages: dict[str, set[str]] = defaultdict(set)
    files = sorted(
        p for p in DATA.rglob("*") if p.suffix in (".mlir", ".py", ".hlo") and p.is_file()
    )
    for variant in PIPELINES:
        settings = Settings(select=tuple(RULES), pipeline=variant)
        for path in files:
            text = path.read_text(encoding="utf-8", errors="replace")
            workspace = Workspace((str(path.parent),))
            for finding in pipeline.analyze(str(path), text, settings, workspace):
                messages[finding.code].add(finding.message)
    for variant in PIPELINES:  # HLO protos (binary: read as bytes)
        settings = Settings(select=tuple(RULES), pipeline=variant)
        for path in sorted(p for p in DATA.rglob("*") if is_hlo_proto(p.name) and p.is_file()):
            for finding in pipeline.analyze_hlo_proto(str(path), path.read_bytes(), settings):
                messages[finding.code].add(finding.message)
    for variant in PIPELINES:  # MLIR bytecode (read by jaxlib: skipped where it is missing)
        settings = Settings(select=tuple(RULES), pipeline=variant)
        for path in sorted(p for p in DATA.rglob("*") if is_bytecode_file(p.name)):
            try:
                found, _ = pipeline.analyze_bytecode(str(path), path.read_bytes(), settings)
            except BytecodeUnavailable:
                continue
            for finding in found:
                messages[finding.code].add(finding.message)
    oversized = Settings(max_file_size=10)
    for finding in pipeline.analyze("big.mlir", "module {}\n" * 4, oversized):
        messages[finding.code].add(finding.message)
    messages["PL002"].add(str(internal_error_diagnostic(KeyError("x"))["message"]))
    return messages


MESSAGES = _corpus_messages()


def first_sentence(message: str) -> str:
    end = message.find(". ")
    return message if end == -1 else message[: end + 1]


def style_problems(message: str) -> list[str]:
    """What in ``message`` breaks docs/messages.md points 1-3."""
    problems = []
    first = first_sentence(message)
    if len(first) > FIRST_SENTENCE_LIMIT:
        problems.append(f"first sentence has {len(first)} > {FIRST_SENTENCE_LIMIT} characters")
    if not re.match(r"[A-Z`'\"]", message):
        problems.append("does not start with a capital letter or a quoted name")
    if not message.endswith("."):
        problems.append("does not end with a full stop")
    if re.search(r"\bSTABLEHLO\b|\bStablehlo\b|\bMhlo\b", message):
        problems.append("spells StableHLO or MHLO otherwise than the user writes it")
    return problems


@pytest.mark.parametrize("code", list(RULES))
def test_messages_of_the_corpus(code: str) -> None:
    assert MESSAGES[code], f"no input under tests/data gives a {code} finding"
    broken = {
        message: problems for message in MESSAGES[code] if (problems := style_problems(message))
    }
    assert not broken, broken


@pytest.mark.parametrize("code", list(RULES))
def test_catalog_entry(code: str) -> None:
    rule = RULES[code]
    for text in (rule.summary, rule.why, rule.fix, rule.no_fix):
        if text:
            assert text.endswith((".", ".)")), text
    assert re.match(r"[A-Z`'\"@]", rule.summary), rule.summary
    assert re.match(r"[A-Z`'\"@]", rule.why), rule.why
    explained = rule.explain()
    assert "\nFix: " in explained
    if rule.severity is Severity.INFORMATION and not rule.fix:
        # Nothing to change: the explanation must not send the user to edit the source.
        assert "by hand" not in explained, explained


def test_the_check_itself() -> None:
    assert first_sentence("Add it. Then more. ") == "Add it."
    assert first_sentence("Output 0 is `a.b`; copy it.") == "Output 0 is `a.b`; copy it."
    assert style_problems("output 0 returns %arg0") == [
        "does not start with a capital letter or a quoted name",
        "does not end with a full stop",
    ]
    assert style_problems("X" * 101 + ".")[0].startswith("first sentence has 102")
    assert style_problems("The STABLEHLO variant copies it; nothing to change.") == [
        "spells StableHLO or MHLO otherwise than the user writes it"
    ]


def test_long_names_keep_the_first_sentence_short() -> None:
    """Names of any length (outputs, SSA values, decomposition functions) are clipped in the
    first sentence; the rest of the message and the related places name them in full."""
    long = "a_very_long_name_as_exporters_write_them_" * 2
    text = (
        f'func.func @main(%{long}: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) attributes {{output_names = ["{long}", "second_{long}", "third"]}} {{\n'
        f"  %{long}c = mhlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        f"  return %{long}, %{long}, %{long}c : tensor<4xf32>, tensor<4xf32>, tensor<2xf32>\n"
        "}\n"
    )
    settings = Settings(select=tuple(RULES))
    findings = pipeline.analyze("long.mlir", text, settings)
    assert sorted(f.code for f in findings) == ["TL001", "TL001", "TL002"]
    for finding in findings:
        assert style_problems(finding.message) == [], finding.message
