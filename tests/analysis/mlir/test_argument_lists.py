"""Unit tests of the long argument lists read for some arguments only."""

from __future__ import annotations

from passlint.analysis.mlir.argument_lists import (
    LONG_ARGUMENTS,
    blanked,
    entries,
    entry_name,
    simple_list,
)


def test_a_short_or_not_simple_list_is_none() -> None:
    short = "(%a: i32, %b: i32) {"
    assert simple_list(short, 0, len(short)) is None
    many = ", ".join(f"%a{n}: tensor<4xf32>" for n in range(LONG_ARGUMENTS // 10))
    assert simple_list(f"({many}) {{", 0, len(many) + 4) == (1, len(many) + 1)
    for mark in ('"x"', "{a}", "loc(x)", "#alias", "!alias", "/*"):
        text = f"({many}, %z: {mark}) {{"
        assert simple_list(text, 0, len(text)) is None, mark


def test_entries_skip_commas_inside_types_and_keep_no_trailing_blank() -> None:
    piece = "%a: tuple<i32, i32> ,\n  %b: i32 , %c: tensor<2xf32>  "
    found = entries(piece)
    assert [piece[s:e] for s, e in found] == ["%a: tuple<i32, i32>", "%b: i32", "%c: tensor<2xf32>"]
    assert [entry_name(piece, e) for e in found] == ["%a", "%b", "%c"]


def test_blanked_keeps_length_line_breaks_and_the_kept_entries() -> None:
    piece = "%a: i32,\n  %b: i32,\n  %c: i32"
    found = entries(piece)
    out = blanked(piece, [found[0], found[2]])
    assert len(out) == len(piece)
    assert out.count("\n") == 2
    assert out.split() == ["%a:", "i32,", "%c:", "i32"]
    assert blanked(piece, []) == " " * 8 + "\n" + " " * 10 + "\n" + " " * 9
