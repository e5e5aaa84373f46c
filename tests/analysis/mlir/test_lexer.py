"""The regex lexer: token kinds and exact offsets."""

from __future__ import annotations

import re

import pytest

from passlint.analysis.mlir import lexer
from passlint.analysis.mlir.lexer import Tok, tokenize


def kinds(text: str) -> list[tuple[str, str]]:
    return [(tok.kind, text[tok.start : tok.end]) for tok in tokenize(text)]


def test_offsets_are_absolute_and_spaces_and_comments_are_dropped() -> None:
    text = "  %0 = foo.bar %a // comment\n"
    assert tokenize(text) == [
        Tok("VALUE_ID", 2, 4),
        Tok("EQUAL", 5, 6),
        Tok("BARE_ID", 7, 14),
        Tok("VALUE_ID", 15, 17),
        Tok("NL", 28, 29),
    ]


def test_tokenize_a_slice_keeps_file_offsets() -> None:
    text = "junk\n%x = a.b\n"
    toks = tokenize(text, 5, 13)
    assert [(t.kind, t.start, t.end) for t in toks] == [
        ("VALUE_ID", 5, 7),
        ("EQUAL", 8, 9),
        ("BARE_ID", 10, 13),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("%0", [("VALUE_ID", "%0")]),
        ("%0#1", [("VALUE_ID", "%0#1")]),
        ("%iterArg_1", [("VALUE_ID", "%iterArg_1")]),
        ("%a$b.c-d", [("VALUE_ID", "%a$b.c-d")]),
        ("%0:2", [("VALUE_ID", "%0"), ("COLON", ":"), ("INT", "2")]),
        ("^bb0", [("CARET_ID", "^bb0")]),
        ("@main", [("SYMBOL", "@main")]),
        ("@my.normalize", [("SYMBOL", "@my.normalize")]),
        ('@"quoted sym"', [("SYMBOL", '@"quoted sym"')]),
        ("#loc12", [("HASH_ID", "#loc12")]),
        ("#stablehlo.conv", [("HASH_ID", "#stablehlo.conv")]),
        ("!t", [("BANG_ID", "!t")]),
        ("0xFF800000", [("HEX", "0xFF800000")]),
        ("9.9999999999999995E-7", [("FLOAT", "9.9999999999999995E-7")]),
        ("-1.5", [("FLOAT", "-1.5")]),
        ("-3", [("INT", "-3")]),
        ("stablehlo.add", [("BARE_ID", "stablehlo.add")]),
        ('"a \\" b"', [("STRING", '"a \\" b"')]),
        ("{-#", [("RESOURCE_OPEN", "{-#")]),
        ("#-}", [("RESOURCE_CLOSE", "#-}")]),
    ],
)
def test_single_tokens(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text) == expected


def test_shape_dims_are_one_token_after_shaped_type_words() -> None:
    assert kinds("tensor<2x?x8xf32>") == [
        ("BARE_ID", "tensor"),
        ("LANGLE", "<"),
        ("DIMS", "2x?x8x"),
        ("BARE_ID", "f32"),
        ("RANGLE", ">"),
    ]
    assert kinds("memref<*xf32>")[2] == ("DIMS", "*x")
    assert kinds("vector<[4]x8xf32>")[2] == ("DIMS", "[4]x8x")
    # A scalar tensor has no dims at all.
    assert [k for k, _ in kinds("tensor<f32>")] == ["BARE_ID", "LANGLE", "BARE_ID", "RANGLE"]


def test_arrow_is_lexed_before_words_inside_conv_attributes() -> None:
    text = "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"
    toks = kinds(text)
    assert ("ARROW", "->") in toks
    assert ("BARE_ID", "x") in toks
    assert not any(kind == "ERROR" for kind, _ in toks)


def test_contracting_dims_x_alone() -> None:
    assert kinds("contracting_dims = [1] x [0]") == [
        ("BARE_ID", "contracting_dims"),
        ("EQUAL", "="),
        ("LSQB", "["),
        ("INT", "1"),
        ("RSQB", "]"),
        ("BARE_ID", "x"),
        ("LSQB", "["),
        ("INT", "0"),
        ("RSQB", "]"),
    ]


def test_unterminated_string_and_bad_characters() -> None:
    text = '"abc\n\x01 `'
    assert kinds(text) == [
        ("BAD_STRING", '"abc'),
        ("NL", "\n"),
        ("ERROR", "\x01"),
        ("ERROR", "`"),
    ]


def test_long_hex_string_is_one_token() -> None:
    blob = '"0x' + "AB" * 500_000 + '"'
    toks = tokenize(f"dense<{blob}>")
    assert [t.kind for t in toks] == ["BARE_ID", "LANGLE", "STRING", "RANGLE"]
    assert toks[2].end - toks[2].start == len(blob)


def test_empty_text() -> None:
    assert tokenize("") == []


def test_blanks_before_and_after_tokens_make_no_tokens() -> None:
    text = " \t%a\f=\v b.c \r\n  \t"
    assert tokenize(text) == [
        Tok("VALUE_ID", 2, 4),
        Tok("EQUAL", 5, 6),
        Tok("BARE_ID", 8, 11),
        Tok("NL", 12, 14),  # (a CRLF is one line break)
    ]
    assert tokenize("   ") == [] and tokenize("  // only a comment  ") == []


def test_every_alternative_starts_with_a_character_the_engine_tests_first() -> None:
    """The regex engine skips an alternative whose first item, a character or a character
    class, does not match; one starting otherwise (a lookbehind, an optional sign) is tried
    in full at every token after it in the list."""
    first_items = {
        kind: re._parser.parse(pattern)[0][0]  # type: ignore[attr-defined]
        for kind, pattern in lexer._ALTERNATIVES
    }
    literal, in_class = re._constants.LITERAL, re._constants.IN  # type: ignore[attr-defined]
    assert {kind: op for kind, op in first_items.items() if op not in (literal, in_class)} == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tensor<2x?x*x[4]xf32>", ["BARE_ID", "LANGLE", "DIMS", "BARE_ID", "RANGLE"]),
        (
            "f(-1.5e3, +2, 3., -x)",
            [
                "BARE_ID",
                "LPAR",
                "FLOAT",
                "COMMA",
                "INT",
                "COMMA",
                "FLOAT",
                "COMMA",
                "PUNCT",
                "BARE_ID",
                "RPAR",
            ],
        ),
        ("a ... x.y - z", ["BARE_ID", "PUNCT", "BARE_ID", "PUNCT", "BARE_ID"]),
        ("[2x3] <2x3>", ["LSQB", "INT", "BARE_ID", "RSQB", "LANGLE", "INT", "BARE_ID", "RANGLE"]),
    ],
)
def test_kinds_split_into_alternatives(text: str, expected: list[str]) -> None:
    """DIMS, FLOAT, INT and PUNCT are each several alternatives (by first character)."""
    assert [tok.kind for tok in tokenize(text) if tok.kind != "NL"] == expected
