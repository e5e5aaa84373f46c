"""Long lists of repeated entries are parsed once per distinct entry and expanded exactly."""

from __future__ import annotations

import pytest

from passlint.analysis.mlir import repetition, statements
from passlint.analysis.mlir.lexer import tokenize
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.mlir.repetition import compress


def long_header(args: int) -> str:
    params = ", ".join(
        f"%arg{i}: tensor<{i % 7 + 1}x4xf32>" if i % 3 else f'%arg{i}: tensor<f32> loc("p{i}")'
        for i in range(args)
    )
    names = ", ".join(f'"out{i}"' for i in range(40))
    return (
        f"func.func @main({params}) -> (tensor<f32>, tensor<f32>) attributes "
        f"{{output_names = [{names}], big = {{{', '.join(f'k{i} = {i} : i32' for i in range(30))}}}}} {{\n"
        "  %0 = stablehlo.add %arg0, %arg3 : tensor<f32>\n"
        "  return %0, %arg3 : tensor<f32>, tensor<f32>\n}\n"
    )


def summary(text: str) -> list[object]:
    parsed = parse_file(text)
    main = parsed.chunks[0].operations[0]
    return [
        [(a.name, a.span, a.type_text) for a in main.header_arguments],
        [(a.key, a.value, a.key_span, a.value_span) for a in main.attributes],
        [t.text for t in main.types],
        main.symbols,
        [(u.name, u.value.name if u.value else None) for op in main.walk() for u in op.operands],
        parsed.errors,
    ]


def test_compression_keeps_one_entry_per_shape() -> None:
    text = long_header(300)
    toks = tokenize(text[: text.index("\n")].removesuffix(" {"))
    kinds = statements.terminal_kinds(text, toks)
    found = compress(kinds)
    assert found is not None
    assert len(found.kinds) < len(kinds) // 10
    assert list(found.kept) == sorted(found.kept)
    assert [kinds[i] for i in found.kept] == list(found.kinds)
    for short, copies in found.copies.items():
        assert all(kinds[real] == found.kinds[short] for real in copies)


@pytest.mark.parametrize("args", [20, 300, 1200])
def test_compressed_and_plain_parses_agree(args: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = long_header(args)
    compressed = summary(text)
    monkeypatch.setattr(repetition, "MIN_TOKENS", 10**9)
    plain = summary(text)
    assert compressed == plain
    assert len(compressed[0]) == args


def test_error_inside_a_long_list_is_reported_at_the_real_token() -> None:
    operands = ", ".join(f"%a{i}" for i in range(200))
    text = f'%0 = "test.op"({operands}, 5, %b) : () -> ()\n'
    [error] = parse_file(text).errors
    assert text[error.start : error.end] == "5"
    assert (error.code, error.message) == (
        "E005",
        "Expected SSA operand, not '5'; add the operand or remove the comma.",
    )


def test_short_statements_are_not_compressed() -> None:
    assert compress(("BARE_ID",) * 50) is None
