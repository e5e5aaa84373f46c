"""Limits: oversized files get one informational finding instead of analysis; absurd nesting
gives a diagnostic, never a RecursionError; multi-megabyte lines and tokens work."""

from __future__ import annotations

import time

import pytest

from passlint import pipeline
from passlint.analysis.findings import Severity
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file
from passlint.catalog import RULES
from passlint.config import Settings
from passlint.quick import quick_analyze

MB = 1024 * 1024
PL_HEADER = "import pypto.language as pl\nV = pl.dynamic('V')\n"
MAIN = (
    "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n"
)


def analyze(path: str, text: str, settings: Settings | None = None, bound: float = 10.0) -> list:
    started = time.monotonic()
    findings = pipeline.analyze(path, text, settings)
    assert time.monotonic() - started < bound
    return findings


# -- file size ---------------------------------------------------------------------------------


def test_file_above_the_limit_gives_one_information_finding() -> None:
    """The default admits the dumps of large models (a gigabyte of .mlir, which the streaming
    reader checks in bounded memory) and Python files up to 64 MiB (a syntax tree takes many
    times its text); a file above the limit is not analysed."""
    assert Settings().max_file_size is None
    assert Settings().size_limit("m.mlir") == 1024 * MB
    assert Settings().size_limit("k.py") == 64 * MB
    assert Settings(max_file_size=5).size_limit("k.py") == 5
    text = MAIN + "// " + "x" * (64 * MB) + "\n"
    started = time.monotonic()
    (finding,) = pipeline.analyze("big.mlir", text, Settings(max_file_size=64 * MB))
    assert time.monotonic() - started < 1.0  # not analysed
    assert (finding.code, finding.severity) == ("PL001", Severity.INFORMATION)
    assert RULES["PL001"].name == "file-too-large"
    assert finding.message == (
        "File not analysed: it is larger than `max-file-size`; raise that setting to analyse "
        f"it. It has {len(text)} bytes and the limit is {64 * MB}."
    )
    assert (finding.range.start.line, finding.range.start.column) == (0, 0)
    assert finding.fix is None
    assert quick_analyze("big.mlir", text, Settings(max_file_size=64 * MB)) is None


def test_configured_limit_counts_utf8_bytes_and_applies_to_both_languages() -> None:
    settings = Settings(max_file_size=60)
    assert [f.code for f in pipeline.analyze("a.mlir", MAIN, settings)] == ["PL001"]
    pl_text = PL_HEADER + "# " + "x" * 80 + "\n"
    assert [f.code for f in pipeline.analyze("k.py", pl_text, settings)] == ["PL001"]
    # 43 characters, 83 bytes: over the limit; 43 ASCII characters are not
    assert [f.code for f in pipeline.analyze("u.mlir", "// " + "é" * 40, settings)] == ["PL001"]
    assert pipeline.analyze("u.mlir", "// " + "e" * 40, settings) == []
    # a Python file that is not a pl source is not ours, however big
    assert pipeline.analyze("plain.py", "x = 1\n" * 100, settings) == []
    # PL001 can be ignored (and re-graded) like every rule
    assert pipeline.analyze("a.mlir", MAIN, Settings(max_file_size=60, ignore=("PL001",))) == []
    graded = Settings(max_file_size=60, severity={"PL001": Severity.WARNING})
    assert pipeline.analyze("a.mlir", MAIN, graded)[0].severity == Severity.WARNING


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("m.mlir", 1024 * 1024 * 1024),
        ("m.hlo", 128 * 1024 * 1024),
        ("module_0001.before_optimizations.txt", 128 * 1024 * 1024),
        ("m.hlo.pb", 128 * 1024 * 1024),
        ("cache/model.hlo_module.pb", 128 * 1024 * 1024),
        ("k.py", 64 * 1024 * 1024),
    ],
)
def test_the_default_limit_of_each_kind_of_file(path: str, limit: int) -> None:
    """An HLO module takes about 30 bytes a byte (docs/performance.md, H1): 128 MiB of it
    fits in a few gigabytes; a .mlir file is read by the streaming reader."""
    assert Settings().size_limit(path) == limit
    text = "HloModule m\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n"
    if path.endswith((".hlo", ".txt")):
        (finding,) = pipeline.analyze(path, text, Settings(max_file_size=10))
        assert finding.code == "PL001"


def test_at_the_limit_the_file_is_analysed() -> None:
    size = len(MAIN.encode())
    assert [f.code for f in pipeline.analyze("a.mlir", MAIN, Settings(max_file_size=size))] == [
        "TL001"
    ]


# -- nesting -----------------------------------------------------------------------------------

DEPTH = 10_000


def nested_regions(depth: int) -> str:
    return '"op"() ({\n' * depth + "}) : () -> ()\n" * depth


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize(
    "text",
    [
        nested_regions(DEPTH),
        "module {\n" + "func.func @f() {\n" * DEPTH + "}\n" * (DEPTH + 1),
        '%0 = "x"() {a = ' + "[" * DEPTH + "]" * DEPTH + "} : () -> ()\n",
        '%0 = "x"() {a = ' + "{a = " * DEPTH + "1" + "}" * DEPTH + "} : () -> ()\n",
        "func.func @main() -> " + "tensor<" * DEPTH + "f32" + ">" * DEPTH + " {\n}\n",
        '%0 = "x"(' + "(" * DEPTH + ")" * DEPTH + ") : () -> ()\n",
        '%0 = "x"() {a = ' + "([{<" * DEPTH + "\n",  # never closed
        '%0 = "x"() {a = ' + "]" * DEPTH + "\n",  # never opened
    ],
    ids=["regions", "functions", "lists", "dicts", "types", "parens", "unclosed", "unopened"],
)
def test_deep_mlir_nesting_gives_a_diagnostic(text: str, fast: bool) -> None:
    started = time.monotonic()
    parsed = parse_file(text, MlirMemo() if fast else None)
    assert time.monotonic() - started < 10
    assert parsed.errors
    findings = analyze("deep.mlir", text)
    assert findings and {f.code for f in findings} <= {"E001", "E009"}  # E009: brackets


def test_deep_mlir_nesting_message() -> None:
    (first, *_) = analyze("deep.mlir", nested_regions(DEPTH))
    assert first.message.startswith("Nesting too deep: more than 100 nested regions")
    lists = '%0 = "x"() {a = ' + "[" * DEPTH + "]" * DEPTH + "} : () -> ()\n"
    assert analyze("deep.mlir", lists)[0].message.startswith(
        "Nesting too deep: more than 128 brackets open in one statement"
    )


def kernel(entry: str) -> str:
    return PL_HEADER + (
        "@pl.function(type=pl.FunctionType.InCore)\n"
        f"def k(x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, {entry}], layout=pl.TensorLayout.ND)]):\n"
        "    return x\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        PL_HEADER + "x = " + "(" * DEPTH + ")" * DEPTH + "\n",
        PL_HEADER + "x = " + "[" * DEPTH + "]" * DEPTH + "\n",
        PL_HEADER + "x = " + "f(" * DEPTH + ")" * DEPTH + "\n",
        PL_HEADER + "x = " + "1 + " * DEPTH * 10 + "1\n",
        PL_HEADER + "x = a" + ".b" * DEPTH * 10 + "\n",
        PL_HEADER + "x = " + "-" * DEPTH * 10 + "1\n",
        PL_HEADER + "x = " + "lambda: " * DEPTH + "1\n",
        PL_HEADER + "".join(" " * i + "if x:\n" for i in range(200)) + " " * 200 + "pass\n",
        PL_HEADER
        + "".join("    " * i + f"def f{i}():\n" for i in range(DEPTH // 50))
        + "    " * (DEPTH // 50)
        + "pass\n",
        kernel("V" + " + 1" * 500),
        kernel("V" + " + 1" * DEPTH),
        kernel("V" + "[0]" * 900),
        kernel("not " * 900 + "V"),
        kernel("V if V else " * 900 + "V"),
    ],
    ids=[
        "parens",
        "lists",
        "calls",
        "binops",
        "attributes",
        "unary",
        "lambdas",
        "ifs",
        "defs",
        "valid-shape-500",
        "valid-shape-10000",
        "subscripts",
        "nots",
        "conditionals",
    ],
)
def test_deep_python_nesting_gives_a_diagnostic(text: str) -> None:
    (finding,) = analyze("deep.py", text)
    assert finding.code == "E002"
    assert "cannot be analysed" in finding.message


# -- long lines and tokens ---------------------------------------------------------------------


def test_multi_megabyte_mlir_lines_and_tokens() -> None:
    comment = MAIN.replace("{\n", "{ // " + "x" * (5 * MB) + "\n", 1)
    assert [f.code for f in analyze("a.mlir", comment)] == ["TL001"]
    hex_blob = "0x" + "ab" * (2 * MB - 1) + "cd"  # not a splat: the last element differs
    constant = (
        "func.func @main() -> tensor<4xf32> {\n"
        f'  %0 = stablehlo.constant dense<"{hex_blob}"> : tensor<4xf32>\n'
        "  return %0 : tensor<4xf32>\n}\n"
    )
    (finding,) = analyze("c.mlir", constant)
    assert finding.code == "TL002" and finding.range.start.line == 2
    name = "%" + "a" * (3 * MB)
    long_name = MAIN.replace("%arg0", name)
    (aliased,) = analyze("n.mlir", long_name)
    assert aliased.code == "TL001" and aliased.range.end.column == len("  return ") + len(name)
    string = 'module attributes {x = "' + "y" * (3 * MB) + '"} {\n' + MAIN + "}\n"
    assert [f.code for f in analyze("s.mlir", string)] == ["TL001"]
    unterminated = 'module attributes {x = "' + "y" * (3 * MB) + "\n"
    assert {f.code for f in analyze("u.mlir", unterminated)} == {"E001"}


def test_multi_megabyte_python_lines_and_tokens() -> None:
    text = kernel("V") + "S = '" + "x" * (5 * MB) + "'\n" + "L = [" + "1, " * MB + "]\n"
    text += "a" * (3 * MB) + " = 1\n"
    assert [f.code for f in analyze("k.py", text)] == ["VS001"]
    unterminated = kernel("V") + "S = '" + "x" * (3 * MB) + "\n"
    (error,) = analyze("u.py", unterminated)
    assert error.code == "E002" and error.range.start.line == 5
