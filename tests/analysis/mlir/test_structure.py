"""The statement/region scanner: newlines, continuation lines, region-vs-dictionary `{`,
bracket recovery and nesting limits."""

from __future__ import annotations

from passlint.analysis.mlir.fast.lines import shape_of
from passlint.analysis.mlir.ir import SyntaxIssue
from passlint.analysis.mlir.lexer import tokenize
from passlint.analysis.mlir.structure import (
    MAX_BRACKET_DEPTH,
    MAX_REGION_DEPTH,
    RegionSyntax,
    StatementSyntax,
    scan,
)


def scan_text(text: str) -> tuple[list[StatementSyntax], list[SyntaxIssue]]:
    return scan(text, tokenize(text))


def texts(text: str, statements: list[StatementSyntax]) -> list[str]:
    return [text[s.start : s.end] for s in statements]


def test_newline_ends_a_statement_at_depth_zero() -> None:
    text = "%0 = a.b %x : f32\n%1 = a.c %0 : f32\n"
    statements, errors = scan_text(text)
    assert errors == []
    assert texts(text, statements) == ["%0 = a.b %x : f32", "%1 = a.c %0 : f32"]


def test_newline_inside_brackets_continues() -> None:
    text = '%0 = "a.b"(%x,\n    %y) : (f32,\n f32) -> f32\n%1 = a.c %0 : f32\n'
    statements, errors = scan_text(text)
    assert errors == []
    assert len(statements) == 2
    assert texts(text, statements)[0].endswith("f32) -> f32")


def test_continuation_lines() -> None:
    text = (
        '%5 = "stablehlo.add"(%4, %3)\n'
        "    : (tensor<2xf32>, tensor<2xf32>)\n"
        "    -> tensor<2xf32>\n"
        "%0:3 = stablehlo.while(%i = %c) : tensor<i32>\n"
        "cond {\n"
        "  stablehlo.return %i : tensor<i32>\n"
        "} do {\n"
        "  stablehlo.return %i : tensor<i32>\n"
        "}\n"
        "%1 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (T) -> T\n"
        " reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<i32>, %s: tensor<i32>)  {\n"
        "  stablehlo.return %p : tensor<f32>\n"
        "}\n"
        "module @m\n"
        "    attributes {a = 1} {\n"
        "}\n"
        "%2 = a.b %x\n"
        "    loc(unknown)\n"
    )
    statements, errors = scan_text(text)
    assert errors == []
    assert [text[s.start : s.start + 9] for s in statements] == [
        '%5 = "sta',
        "%0:3 = st",
        "%1 = stab",
        "module @m",
        "%2 = a.b ",
    ]
    assert [len(s.regions) for s in statements] == [0, 2, 1, 1, 0]
    assert text[statements[-1].start : statements[-1].end] == "%2 = a.b %x\n    loc(unknown)"


def test_regions_are_replaced_by_one_region_token() -> None:
    text = 'func.func @f() {\n  return\n} loc(#loc)\n#loc = loc("a":1:1)\n'
    statements, errors = scan_text(text)
    assert errors == []
    func = statements[0]
    assert [t.kind for t in func.toks] == [
        "BARE_ID",
        "SYMBOL",
        "LPAR",
        "RPAR",
        "REGION",
        "BARE_ID",
        "LPAR",
        "HASH_ID",
        "RPAR",
    ]
    region = func.regions[0]
    assert isinstance(region, RegionSyntax)
    assert text[region.start : region.end] == "{\n  return\n}"
    assert texts(text, region.statements) == ["return"]
    assert texts(text, statements)[1] == '#loc = loc("a":1:1)'


def region_count(text: str) -> int:
    statements, errors = scan_text(text)
    assert errors == []
    return sum(len(s.regions) for s in statements)


def test_region_or_dictionary_brace() -> None:
    # Regions: what follows is an op, a value, a label or a quoted op name.
    assert region_count("a.b {\n  %0 = c.d : f32\n}\n") == 1
    assert region_count("a.b {\n^bb0(%x: f32):\n  c.d %x\n}\n") == 1
    assert region_count('"a.b"() ({\n  "c.d"() : () -> ()\n}) : () -> ()\n') == 1
    assert region_count("a.b {\n  c.d %x : f32\n}\n") == 1
    assert region_count("func.func @f() {\n  return\n}\n") == 1
    # Dictionaries: `name =`, `name,`, `}` or a properties `<{`.
    assert region_count("a.b {x = 1} : f32\n") == 0
    assert region_count("a.b {x, y} : f32\n") == 0
    assert region_count("a.b {} : f32\n") == 0
    assert region_count('a.b {"quoted" = 1} : f32\n') == 0
    assert region_count('"a.b"() <{x = 1}> : () -> ()\n') == 0
    assert region_count("a.b window = {stride = [1]} : f32\n") == 0
    # A lit-test style dictionary opened on its own line.
    assert region_count('%0 = "a.b"(%x)\n  {\n    k = "v",\n    u\n  } : (f32) -> f32\n') == 0


def test_generic_op_top_level_brace_is_always_a_dictionary() -> None:
    # A unit attribute alone on its line looks like an op; a generic op's regions are
    # always inside `( )`, so its top-level `{` is its attribute dictionary.
    text = '%1 = "test.unit"(%0)\n{\n  flag\n} : (f32) -> f32\n%2 = a.b %1 : f32\n'
    statements, errors = scan_text(text)
    assert errors == []
    assert [len(s.regions) for s in statements] == [0, 0]
    assert len(statements) == 2


def test_labels_end_at_their_colon() -> None:
    text = "a.b {\n^bb0(%x: f32, %y: f32):\n  c.d %x\n^bb1:  c.e\n}\n"
    statements, errors = scan_text(text)
    assert errors == []
    inner = statements[0].regions[0].statements
    assert texts(text, inner) == ["^bb0(%x: f32, %y: f32):", "c.d %x", "^bb1:", "c.e"]


def test_resource_section_is_one_statement() -> None:
    text = 'a.b\n{-#\n  dialect_resources: {\n    builtin: {\n      r: "0x00"\n    }\n  }\n#-}\n'
    statements, errors = scan_text(text)
    assert errors == []
    assert texts(text, statements)[1].startswith("{-#")
    assert texts(text, statements)[1].endswith("#-}")
    assert "NL" not in {t.kind for t in statements[1].toks}


def test_unbalanced_closer_is_reported_and_statement_marked_broken() -> None:
    text = "%1 = a.b %0, ) : f32\n%2 = a.c %1 : f32\n"
    statements, errors = scan_text(text)
    assert len(statements) == 2
    assert statements[0].broken and not statements[1].broken
    assert [(e.start, e.end) for e in errors] == [(13, 14)]
    assert (
        errors[0].message
        == "Unbalanced ')': no opening bracket matches it; remove it or add the opener."
    )


def test_unclosed_bracket_is_cut_at_the_next_statement() -> None:
    text = '%4 = "a.b"(%3 : f32\n%5 = a.c %4 : f32\n'
    statements, errors = scan_text(text)
    assert len(statements) == 2
    assert statements[0].broken
    (error,) = errors
    assert (error.start, error.end) == (19, 19)  # end of line 1
    assert error.related == (10, 11)
    assert (
        error.message
        == "Expected ')' to close the '(' opened here; add it before the end of the statement."
    )


def test_unclosed_dictionary_is_cut_at_the_next_statement() -> None:
    text = "a.b {x = 1\n%5 = a.c %4 : f32\n"
    statements, errors = scan_text(text)
    assert len(statements) == 2
    assert [e.message for e in errors] == [
        "Expected '}' to close the '{' opened here; add it before the end of the statement."
    ]


def test_stray_closing_brace_at_top_level() -> None:
    text = "a.b\n}\nc.d\n"
    statements, errors = scan_text(text)
    assert texts(text, statements) == ["a.b", "c.d"]
    assert [(e.start, e.message) for e in errors] == [
        (4, "Unexpected '}': no region is open here; remove it or open the region.")
    ]


def test_unclosed_region_at_end_of_file() -> None:
    text = "module {\n  func.func @h() {\n    return\n"
    statements, errors = scan_text(text)
    assert [(e.start, e.related) for e in errors] == [(len(text), (26, 27)), (len(text), (7, 8))]
    assert all("Expected '}' to close the region" in e.message for e in errors)
    # The ops read so far are kept.
    func = statements[0].regions[0].statements[0]
    assert texts(text, func.regions[0].statements) == ["return"]


def test_deep_region_nesting_is_an_error_not_a_recursion_error() -> None:
    depth = 10_000
    text = '"t.op"() ({\n' * depth + '"t.end"() : () -> ()\n' + "}) : () -> ()\n" * depth
    statements, errors = scan_text(text)
    assert len(statements) == 1
    (error,) = errors
    assert error.message == (
        f"Nesting too deep: more than {MAX_REGION_DEPTH} nested regions; "
        "passlint does not follow them."
    )
    assert error.start == text.index("{", len('"t.op"() ({\n') * MAX_REGION_DEPTH)


def test_deep_bracket_nesting_is_an_error() -> None:
    depth = 10_000
    text = '%0 = "t.op"() {a = ' + "[" * depth + "]" * depth + "} : () -> ()\n"
    statements, errors = scan_text(text)
    assert len(statements) == 1 and statements[0].broken
    (error,) = errors
    assert error.start == text.index("[") + MAX_BRACKET_DEPTH - 1
    assert "Nesting too deep" in error.message


def test_nesting_within_the_limits_is_fine() -> None:
    depth = MAX_REGION_DEPTH
    text = '"t.op"() ({\n' * depth + '"t.end"() : () -> ()\n' + "}) : () -> ()\n" * depth
    assert scan_text(text)[1] == []
    text = "%0 = t.op " + "[" * (MAX_BRACKET_DEPTH - 1) + "]" * (MAX_BRACKET_DEPTH - 1) + "\n"
    assert scan_text(text)[1] == []


def test_a_line_shape_leaves_a_start_that_depends_on_the_next_line_to_the_tokens() -> None:
    # `%1 =` starts a statement unless a value follows (a binding); `return` unless `=` or
    # `:` follows (a key): only the next line's tokens can tell.
    assert shape_of("%v =").start is None
    assert shape_of("return").start is None
    assert shape_of("%v = stablehlo.abs %v : tensor<f32>").start == "always"
    assert shape_of("}").start == "always"
    assert shape_of('"a"(%v) : (f32) -> ()').start == "after-op"
    assert shape_of("%v,").end == "list"
