"""Issue 26, point 3: MLIR's builtin syntax in every form its parser reads (func.func
declarations, type and attribute aliases, module forms) reads without an E code and gives
the TL findings the pass's reading implies. The fixtures are under
tests/data/mlir/constructs/; each chunk of the ones listed here is accepted by jaxlib (the
opt-in check below)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mlir_testing import CONSTRUCTS, lc

from passlint import pipeline
from passlint.analysis.mlir.fast.main_outline import outline_main
from passlint.analysis.mlir.parser import parse_file, split_chunks
from passlint.analysis.mlir.types import ShapedType
from passlint.passes.tensorizer_legalization.apply import legalize_text

# Fixture -> the codes of its findings, in order, with the 1-based line and column of each.
EXPECTED: dict[str, list[tuple[str, int, int]]] = {
    # Through their aliases: output_names (it was a false TL004), a splat constant's value
    # (TL007, it was TL002), a fusion's ScheduleFusion kind (named inside, no finding).
    "attribute_aliases.mlir": [("TL007", 16, 12), ("TL002", 16, 18)],
    # An integer set's `>=` and a negative hex integer were false E009 / E001.
    "builtin_syntax.mlir": [],
    "declarations.mlir": [("TL001", 27, 10)],
    "modules.mlir": [("TL001", 73, 12)],
    # A function type as an argument's type was a false E001 (named or not).
    "signatures.mlir": [("TL001", 20, 10)],
    # A zero-element type read through its alias is TL006 (it was TL001 and a copy), also
    # through an alias of an alias, an op result's type and the return's type.
    "type_aliases.mlir": [
        ("TL006", 5, 10),
        ("TL006", 20, 12),
        ("TL001", 20, 16),
        ("TL006", 20, 23),
        ("TL007", 20, 30),
        ("TL006", 20, 34),
        ("TL001", 29, 17),
    ],
}


def findings(name: str) -> list[tuple[str, int, int]]:
    text = (CONSTRUCTS / name).read_text(encoding="utf-8")
    found = pipeline.analyze(name, text)
    return [(f.code, f.range.start.line + 1, f.range.start.column + 1) for f in found]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_construct_reads_without_errors_and_gives_its_findings(name: str) -> None:
    text = (CONSTRUCTS / name).read_text(encoding="utf-8")
    assert [(e.message, lc(text, e.start)) for e in parse_file(text).errors] == []
    assert findings(name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_construct_legalizes_to_text_that_reads_without_errors(name: str) -> None:
    legalized = legalize_text((CONSTRUCTS / name).read_text(encoding="utf-8"))
    assert parse_file(legalized).errors == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_jaxlib_accepts_every_chunk_of_the_construct(name: str) -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from jaxlib_oracle import Oracle

    text = (CONSTRUCTS / name).read_text(encoding="utf-8")
    oracle = Oracle()
    try:
        for start, end in split_chunks(text):
            chunk = text[start:end]
            legalized = legalize_text(chunk)
            assert oracle.verdict(chunk).kind == "ok", chunk
            assert oracle.verdict(legalized).kind == "ok", legalized
    finally:
        oracle.close()


def test_type_alias_resolves_in_every_position_a_shape_is_read() -> None:
    text = (CONSTRUCTS / "type_aliases.mlir").read_text(encoding="utf-8")
    chunk = parse_file(text).chunks[1]
    assert chunk.alias_values == {
        "!a": "tensor<0x3xf32>",
        "!b": "tensor<0x3xf32>",
        "!f": "f32",
        "!four": "tensor<4x!f>",
    }
    main = chunk.functions()["main"]
    arguments = main.header_arguments
    assert [a.shaped_type for a in arguments] == [
        ShapedType("tensor", (0, 3), "f32"),
        ShapedType("tensor", (4,), "f32"),
    ]
    ret = main.regions[0].operations[-1]
    assert [ref.shaped for ref in ret.signature_types()[0]] == [
        ShapedType("tensor", (0, 3), "f32"),
        ShapedType("tensor", (4,), "f32"),
        ShapedType("tensor", (0, 3), "f32"),
        ShapedType("tensor", (2,), "f32"),
        ShapedType("tensor", (0, 3), "f32"),
    ]


def test_main_outline_leaves_a_type_alias_to_the_full_parse() -> None:
    """The outline reads @main without the aliases' definitions: it gives up on them."""
    text = (CONSTRUCTS / "type_aliases.mlir").read_text(encoding="utf-8")
    first = text[: split_chunks(text)[0][1]]
    assert outline_main(first) is None
    spelled = first.replace("!empty = tensor<0x3xf32>\n", "").replace("!empty", "tensor<0x3xf32>")
    assert outline_main(spelled) is not None


def test_a_pretty_constant_of_an_attribute_alias_reads_its_value_and_type() -> None:
    """``stablehlo.constant #c``: the alias holds the value and the type (jaxlib accepts it)."""
    text = (
        "#s = dense<2.0> : tensor<4xf32>\n"
        "#c = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
        "#e = dense<> : tensor<0x4xf32>\n"
        "func.func @main() -> (tensor<4xf32>, tensor<4xf32>, tensor<0x4xf32>) {\n"
        "  %s = stablehlo.constant #s\n"
        "  %c = stablehlo.constant #c\n"
        "  %e = stablehlo.constant #e\n"
        "  return %s, %c, %e : tensor<4xf32>, tensor<4xf32>, tensor<0x4xf32>\n"
        "}\n"
    )
    assert parse_file(text).errors == []
    found = pipeline.analyze("c.mlir", text)
    assert [(f.code, f.range.start.column + 1) for f in found] == [
        ("TL007", 10),
        ("TL002", 14),
        ("TL006", 18),
    ]


EMPTY_BODY = (
    "Custom op 'func.func' expected non-empty function body; add its ops, or drop `{}` to "
    "declare it."
)
EMPTY_BLOCK = (
    "Empty block: expect at least a terminator; end the body with its terminator (`return`)."
)


def test_a_function_body_mlir_rejects_is_an_error_in_each_form() -> None:
    """MLIR's ``parseFunctionOp`` (``FunctionImplementation.cpp``) rejects empty braces
    (an entry block with arguments, empty: ``Block`` parsing). A generic ``"func.func"`` with an empty region is a declaration
    (``modules.mlir``)."""
    text = (CONSTRUCTS.parent / "invalid" / "empty_function_bodies.mlir").read_text(
        encoding="utf-8"
    )
    errors = [(e.code, *lc(text, e.start), e.message) for e in parse_file(text).errors]
    assert errors == [
        ("E001", 3, 20, EMPTY_BODY),
        ("E001", 7, 79, EMPTY_BODY),
        ("E001", 11, 20, EMPTY_BODY),
        ("E001", 18, 58, EMPTY_BLOCK),
    ]


def test_jaxlib_rejects_each_chunk_of_the_empty_function_bodies() -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from jaxlib_oracle import Oracle

    text = (CONSTRUCTS.parent / "invalid" / "empty_function_bodies.mlir").read_text(
        encoding="utf-8"
    )
    oracle = Oracle()
    try:
        verdicts = [oracle.verdict(text[start:end]) for start, end in split_chunks(text)]
    finally:
        oracle.close()
    assert [v.message for v in verdicts] == [
        "custom op 'func.func' expected non-empty function body",
        "custom op 'func.func' expected non-empty function body",
        "custom op 'func.func' expected non-empty function body",
        "empty block: expect at least a terminator",
    ]
