"""Regression tests for what the fuzzers found, each reduced to its smallest input."""

from __future__ import annotations

from fuzz_checks import dump

from passlint.analysis.mlir.ir import ParsedFile
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file


def test_unclosed_region_at_a_split_marker_ends_at_the_chunk_on_both_paths() -> None:
    # The token path put the "unexpected end of file" at the end of the whole file, inside
    # the next chunk; the line-shape path put it at the end of the chunk.
    text = (
        "func.func @main(%arg0: tensor<f32>) -> () {\n"
        "  %1 = stablehlo.abs %arg0 : tensor<4xf32>\n"
        "// -----\n"
        "  return\n"
        "}\n"
    )
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
    first = fast.chunks[0]
    (error,) = first.errors
    assert error.start == first.end and error.message.startswith("Expected '}' to close")


def test_unclosed_bracket_after_a_region_read_line_by_line_is_reported_at_its_end() -> None:
    # The line-shape path took the region's one-line statements without cutting their
    # tokens, and put the "expected ')'" error at the end of the `^bb0` line.
    text = '"f"() ({\n^bb0(%a: t):\n  %0 = "a"(%a) : (t) -> t\n'
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
    paren = next(e for e in fast.errors if "')'" in e.message)
    assert text[: paren.start].endswith("-> t")


def test_legalizing_a_zero_sized_fusion_with_zero_sized_ops_inside() -> None:
    # The fusion and the op in its region were both rewritten: overlapping edits, a crash.
    from passlint.passes.tensorizer_legalization.apply import legalize_text

    text = (
        "func.func @main(%arg1: tensor<0xf32>) -> tensor<0xf32> {\n"
        '  %1 = "mhlo.fusion"(%arg1) ({\n'
        "  ^bb0(%p0: tensor<0xf32>):\n"
        "    %102 = stablehlo.abs %p0 : tensor<0xf32>\n"
        "    mhlo.return %102 : tensor<0xf32>\n"
        "  }) : (tensor<0xf32>) -> tensor<0xf32>\n"
        "  return %1 : tensor<0xf32>\n"
        "}\n"
    )
    assert legalize_text(text) == (
        "func.func @main(%arg1: tensor<0xf32>) -> tensor<0xf32> {\n"
        "  %1 = stablehlo.custom_call @AwsNeuronZeroSizedOp() {neuron.actual_shape = "
        '"0", neuron.symName = [@output0]} : () -> tensor<0xf32>\n'
        "  return %1 : tensor<0xf32>\n"
        "}\n"
    )


def test_python_compiler_warnings_about_the_source_are_not_printed() -> None:
    # ast.parse warned (SyntaxWarning, DeprecationWarning) on stderr about the user's code.
    import warnings

    from passlint import pipeline

    text = 'import pypto.language as pl\nx = 1if 2 else 3\ny = "\\d"\n'
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert pipeline.analyze("w.py", text) == []
    assert caught == []


def test_line_shapes_keep_an_integer_before_x_apart_from_a_hex_number() -> None:
    # Normalizing digit runs to `0` turned `8xf32` (an integer, a word) into `0xf0` (a hex
    # number): the line's template had one token fewer than the line, so its types were
    # cut one token off (`, tensor<8xf32` for `tensor<8xf32>`), and a copy fix copied them.
    text = "%0 = stablehlo.multiply %arg0, %arg1 : tensor<8xf32>\n%1 = x.y %0 : tensor<8xf32>, tensor<8xf32>\n"
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
    assert fast.chunks[0].operations[1].types[0].text == "tensor<8xf32>"


def test_copy_fix_keeps_a_suppression_comment_next_to_the_return() -> None:
    # The copy was inserted between `// passlint: ignore[TL001]` and the return it
    # suppresses: the fix of TL002 brought back the suppressed TL001s (and a PL100).
    from fuzz_checks import EVERYTHING, fix_all

    from passlint import pipeline

    text = (
        "func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {\n"
        "  %1 = mhlo.constant dense<0.000000e+00> : tensor<f32>\n"
        "  // passlint: ignore[TL001]\n"
        "  return %arg0, %1 : tensor<f32>, tensor<f32>\n"
        "}\n"
    )
    findings = pipeline.analyze("/f/a.mlir", text, EVERYTHING)
    assert [f.code for f in findings] == ["TL002"]
    fixed, complete = fix_all({"/f/a.mlir": text}, findings)
    assert complete
    assert fixed["/f/a.mlir"] == (
        "func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {\n"
        "  %1 = mhlo.constant dense<0.000000e+00> : tensor<f32>\n"
        "  %output1_copy = mhlo.copy %1 : tensor<f32>\n"
        "  // passlint: ignore[TL001]\n"
        "  return %arg0, %output1_copy : tensor<f32>, tensor<f32>\n"
        "}\n"
    )
    assert pipeline.analyze("/f/a.mlir", fixed["/f/a.mlir"], EVERYTHING) == []


def test_legalizing_a_splat_constant_whose_result_list_is_broken() -> None:
    # `%cst é stablehlo.constant ...`: the op has no result; stage A read results[0].
    from passlint.passes.tensorizer_legalization.apply import legalize_text

    text = (
        "func.func @main() -> tensor<2xf32> {\n"
        "  %cst é stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>\n"
        "  return %0 : tensor<2xf32>\n"
        "}\n"
    )
    assert "stablehlo.constant dense<0.0> : tensor<f32>\n" in legalize_text(text)


def test_a_numbered_value_followed_by_a_letter_is_two_tokens_on_both_paths() -> None:
    # `%1é` is the value `%1` and the character `é`; its line shape read `%vé` as one value.
    text = "    %18 = stablehlo.add %15, %1\u00e9 : tensor<64x512xf32>\n"
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
    assert any("Unexpected character" in error.message for error in fast.errors)


def test_a_unicode_line_separator_is_no_blank() -> None:
    # str.strip() removed U+2028, which no token starts with: the line looked blank.
    text = '   \u2028  "stablehlo.return"(%4) : (tensor<f32>) -> ()\n'
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
    assert any("Unexpected character" in error.message for error in fast.errors)


def test_a_value_named_like_a_type_word_keeps_the_dims_token_on_both_paths() -> None:
    # `%arg1tensor<8xf32>`: `8x` is a DIMS token after `tensor<`; the line shape made the name
    # `%v`, and `1x` an integer and a word.
    text = "    %0 = stablehlo.multiply %arg0, %arg1tensor<8xf32>\n"
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)


def test_the_first_statement_of_a_region_is_read_from_its_line_shape() -> None:
    # A `{` ending its line is decided from the next line's shape: that line is not cut into
    # tokens beforehand, so it can be a one-line statement (no tokens kept).
    text = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.abs %a : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n"
    )
    fast = parse_file(text, MlirMemo())
    (function,) = fast.chunks[0].operations
    first = function.regions[0].blocks[0].operations[0]
    assert first.name == "stablehlo.abs" and first.tokens is None  # (a dump cuts them)
    assert dump(fast) == dump(parse_file(text))


def test_a_generic_op_name_alone_on_its_line_still_opens_the_region_before_it() -> None:
    # `({` then `"func.func"` alone on the next line and `() <{...}> ({` on the one after: the
    # `{` opens a region (a generic op name followed by `(`, across the line break), which
    # jaxlib's parser accepts; it was read as a dictionary (a false E001).
    text = (
        '"builtin.module"() ({\n'
        '  "func.func"\n'
        '() <{function_type = () -> (), sym_name = "main"}> ({\n'
        '    "func.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()\n"
    )
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
    assert fast.errors == []


def _both_paths(text: str) -> ParsedFile:
    """The file parsed on the line-shape path, after asserting the token path agrees."""
    fast = parse_file(text, MlirMemo())
    assert dump(fast) == dump(parse_file(text))
    return fast


def _statements(parsed: ParsedFile) -> list[str]:
    return [
        parsed.text[op.span[0] : op.span[1]]
        for chunk in parsed.chunks
        for top in chunk.operations
        for op in top.walk()
    ]


def test_a_lone_result_list_before_a_defining_line_continues_the_statement_above() -> None:
    # `%1 =` alone: whether a statement starts there depends on the next line (`%1 = %8` reads
    # as a binding, as in `scf.for %i = %lb`). The line shape answered "it starts" from its
    # own tokens; the token path, reading on, said it continues the statement above.
    text = (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<f32> {\n"
        "  %0 = stablehlo.abs %arg0 : tensor<4xf32>\n"
        "  %1 =\n"
        '  %8 = "stablehlo.reduce"(%0, %0) ({\n'
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %9 = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %9 : tensor<f32>\n"
        "  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
        "  return %8 : tensor<f32>\n"
        "}\n"
    )
    parsed = _both_paths(text)
    assert _statements(parsed)[1].endswith("%1 =")
    (error,) = parsed.errors
    assert error.start == text.index("%1 =") + 4


def test_a_result_list_left_alone_by_a_stray_bracket_takes_the_next_line() -> None:
    # `%4 ):` (its `(` lost): `%4 :` is an unfinished result list, so the next line's
    # `%0 = ...` continues it on the token path; the line shapes started a statement there.
    text = (
        "module @m {\n"
        "      %4 ):\n"
        "    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>\n"
        "    return %0 : tensor<4xf32>\n"
        "}\n"
    )
    parsed = _both_paths(text)
    assert _statements(parsed)[1].startswith("%4 ):\n")


def test_a_split_marker_inside_a_function_leaves_a_lone_value_before_the_return() -> None:
    # After `// -----` inside an open function, `%x` then `return ...`: one broken statement
    # (a result list wants `=`) on the token path, two statements on the line-shape path.
    text = (
        "func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
        "  %0 = stablehlo.abs %arg0 : tensor<f32>\n"
        "// -----\n"
        "  %x\n"
        "  return %0 : tensor<f32>\n"
        "}\n"
    )
    parsed = _both_paths(text)
    assert _statements(parsed)[-1] == "%x\n  return %0 : tensor<f32>"
    assert any(error.message.startswith("Unexpected 'return'") for error in parsed.errors)


def test_an_unclosed_bracket_after_an_unterminated_string_and_a_line_statement() -> None:
    # The statement's last cut token was the bad string, so its unclosed `(` went unreported
    # on the line-shape path, though a whole line statement (`o.()`) came after it.
    text = '"f"() ({r"\no.()'
    parsed = _both_paths(text)
    assert any(e.message.startswith("Expected ')' to close") for e in parsed.errors)


def test_an_element_list_long_only_before_its_digits_are_shortened() -> None:
    # 40 seven-digit integers: one ELEMENTS token in the line, many tokens in its shape (whose
    # digit runs are cut to one); the shape's template indexed tokens the line has not.
    values = ", ".join(str(1_000_000 + i) for i in range(40))
    text = (
        "func.func @main() -> tensor<40xi64> {\n"
        f"  %c = stablehlo.constant dense<[{values}]> : tensor<40xi64>\n"
        "  return %c : tensor<40xi64>\n"
        "}\n"
    )
    parsed = _both_paths(text)
    constant = parsed.chunks[0].operations[0].regions[0].operations[0]
    assert [ref.text for ref in constant.types] == ["tensor<40xi64>", "i64"]


def test_a_short_element_list_is_read_from_its_line_shape() -> None:
    # Too short for an ELEMENTS token, in the line as in its shape: the line is an op made
    # from its shape (no tokens cut), as the token path reads it.
    text = (
        "func.func @main() -> tensor<4xi64> {\n"
        "  %c = stablehlo.constant dense<[1000000, 1000001, 1000002, 1000003]> : tensor<4xi64>\n"
        "  return %c : tensor<4xi64>\n"
        "}\n"
    )
    constant = parse_file(text).chunks[0].operations[0].regions[0].operations[0]
    assert constant.tokens is None  # (a dump cuts them)
    parsed = _both_paths(text)
    constant = parsed.chunks[0].operations[0].regions[0].operations[0]
    assert [ref.text for ref in constant.types] == ["tensor<4xi64>", "i64"]


def test_an_unterminated_string_takes_its_trailing_blanks_on_both_paths() -> None:
    # The line-shape path tokenized the line without its trailing blanks, so the string's
    # error ended before them; the token path took the rest of the line.
    for text in ['"abc   \n', '%0 = "abc \t \r\nx\n', '"a"() : () -> ()\n"abc   \n']:
        fast, slow = parse_file(text, MlirMemo()), parse_file(text)
        assert dump(fast) == dump(slow), repr(text)


def test_a_caret_inside_a_quoted_op_name_names_no_block_on_both_paths() -> None:
    # The token path kept the op's tokens for block references when a `^` stood anywhere
    # in its text, a string included; the line-shape path did not.
    text = '%10 = "a.b^c"(%arg7) : (f32) -> f32\n'
    fast, slow = parse_file(text, MlirMemo()), parse_file(text)
    assert dump(fast) == dump(slow)
