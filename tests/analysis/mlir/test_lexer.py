"""The regex lexer: token kinds and exact offsets."""

from __future__ import annotations

import pytest

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
        Tok("NL", 13, 14),
    ]
    assert tokenize("   ") == [] and tokenize("  // only a comment  ") == []
