"""`// -----` split files: independent chunks with file offsets, names reused across chunks."""

from __future__ import annotations

from mlir_testing import CONSTRUCTS, at, lc

from passlint.analysis.mlir.parser import parse_file, split_chunks


def test_split_lit_test_has_three_independent_chunks() -> None:
    text = (CONSTRUCTS / "split_lit_test.mlir").read_text(encoding="utf-8")
    parsed = parse_file(text)
    assert parsed.errors == []
    first, second, third = parsed.chunks
    # Chunk bounds exclude the marker lines and cover the rest of the file.
    assert first.start == 0
    assert text[first.end : second.start] == "// -----"
    assert text[second.end : third.start] == "// -----"
    assert third.end == len(text)
    assert lc(text, second.start) == (17, 9)  # just after the first marker
    # Each chunk's function, with positions in the whole file.
    assert [list(c.functions()) for c in parsed.chunks] == [["lit"], ["consts"], ["consts"]]
    second_func = second.functions()["consts"]
    third_func = third.functions()["consts"]
    assert lc(text, second_func.span[0]) == (19, 1)
    assert lc(text, third_func.span[0]) == (31, 1)
    # The same names in different chunks are different values.
    second_ret = second_func.regions[0].operations[-1]
    third_ret = third_func.regions[0].operations[-1]
    assert [u.name for u in second_ret.operands] == ["%5", "%1", "%2", "%3"]
    assert [u.name for u in third_ret.operands] == ["%0"]
    third_abs = third_func.regions[0].operations[0]
    assert at(text, third_abs.span) == "%0 = stablehlo.abs %arg0 : tensor<4xf32>"
    assert third_ret.operands[0].value is third_abs.results[0]
    assert third_abs.operands[0].value is third_func.header_arguments[0]
    # Both chunks define %0: each use sees its own chunk's.
    second_zero = second_func.regions[0].operations[0].results[0]
    assert second_zero.name == third_abs.results[0].name == "%0"
    assert [u.user.name for u in second_zero.uses] == ["mhlo.copy"]
    assert [u.user.name for u in third_abs.results[0].uses] == ["return"]


def test_values_do_not_leak_across_chunks() -> None:
    text = "%0 = a.b : f32\n// -----\nc.d %0 : f32\n"
    parsed = parse_file(text)
    assert [(e.code, text[e.start : e.end]) for e in parsed.errors] == [("E003", "%0")]
    first, second = parsed.chunks
    assert second.operations[0].operands[0].value is None
    assert first.operations[0].results[0].uses == []


def test_errors_are_reported_per_chunk_with_file_positions() -> None:
    text = "a.b (\n// -----\nc.d\n// -----\n}\n"
    parsed = parse_file(text)
    first, second, third = parsed.chunks
    assert [lc(text, e.start) for e in first.errors] == [(1, 6)]
    assert "Expected ')'" in first.errors[0].message
    assert second.errors == []
    assert [(lc(text, e.start), e.message) for e in third.errors] == [
        ((5, 1), "Unexpected '}': no region is open here; remove it or open the region.")
    ]
    assert parsed.errors == first.errors + third.errors


def test_aliases_are_per_chunk() -> None:
    text = "#a = loc(unknown)\n// -----\n#b = loc(unknown)\n"
    first, second = parse_file(text).chunks
    assert list(first.aliases) == ["#a"]
    assert list(second.aliases) == ["#b"]
    assert lc(text, second.aliases["#b"][0]) == (3, 1)


def test_marker_forms() -> None:
    assert split_chunks("a\n// -----\nb") == [(0, 2), (10, 12)]
    assert split_chunks("a\n  // -----  \nb") == [(0, 2), (14, 16)]
    # Not a marker: other text on the line, or a different comment.
    assert split_chunks("a // -----\nb") == [(0, 12)]
    assert split_chunks("// ----- x\n") == [(0, 11)]
    assert split_chunks("a\n// ------\nb") == [(0, 13)]
    assert split_chunks("a\n// -----\r\nb") == [(0, 2), (10, 13)]  # (MLIR splits CRLF files)
    assert split_chunks("// ------\n\t// -----\t\nb") == [(0, 10), (20, 22)]
    assert split_chunks("") == [(0, 0)]
    # A marker on the first and last lines gives empty chunks there.
    assert split_chunks("// -----\na\n// -----") == [(0, 0), (8, 11), (19, 19)]
