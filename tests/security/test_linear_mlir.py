"""Every input shape of the MLIR front end and TensorizerLegalization costs linear time.

Each shape is a hostile or merely odd input built at a size n and at 2n; the CPU time of the
analysis (``linear_time``: the median of a few runs) may grow by at most ~2.2x. The size is
found by doubling from a small one until a run takes 50 ms, so a quadratic path is
caught after a few hundred milliseconds rather than after minutes. Both analyses an editor
runs are measured: the full one (``passlint check`` and the server's debounced run) and the
quick one the server gives a large document first (@main's outline). Each shape's test
failed on the code before issue 25's fixes, but for the guards at the end.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable

import pytest
from linear_time import assert_doubling_linear

from passlint import pipeline
from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Fix, Position, Range, TextEdit
from passlint.analysis.mlir.fast import main_outline
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.source import SourceText
from passlint.memo import Memo
from passlint.passes.tensorizer_legalization.apply import legalize_text
from passlint.quick import quick_analyze

REPEATS = 5

HEAD = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
RETURN = "  return %arg0 : tensor<4xf32>\n"
TAIL = RETURN + "}\n"
MEMO = Memo()  # what a run keeps; each timed run starts from it cleared


def _fresh_caches() -> None:
    """Forget what earlier runs cached (a shape must not be timed on another's cache)."""
    MEMO.clear()


def linear(build: Callable[[int], str], analyse: Callable[[str], object], n: int = 64) -> None:
    """``analyse`` of ``build(2n)`` costs at most ``BOUND`` times that of ``build(n)``, from
    fresh caches (``linear_time``)."""
    assert_doubling_linear(build, analyse, n, REPEATS, _fresh_caches)


def check(text: str) -> object:
    return pipeline.analyze("shape.mlir", text, memo=MEMO)


def quick(text: str) -> object:
    answer = quick_analyze("shape.mlir", text, run_memo=MEMO)
    assert answer is not None  # (the quick path must have done its work)
    return answer


def body(statement_lines: str) -> str:
    return HEAD + statement_lines + TAIL


# -- the shapes ----------------------------------------------------------------------------------

# Blanks at the end of a line of a statement that goes on: each position of the run was
# matched again to its end (20 KB: 18.8 s).
BLANKS: dict[str, Callable[[int], str]] = {
    "in an op's attribute dictionary": lambda n: body(
        '  %0 = "x.op"(%arg0) {a = 1,' + " " * n + "\n b = 2} : (tensor<4xf32>) -> tensor<4xf32>\n"
    ),
    "in a func's attributes": lambda n: (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {a = 1,"
        + "\t" * n
        + "\n b = 2} {\n"
        + TAIL
    ),
    "in an operand list": lambda n: body(
        '  %0 = "x.op"(%arg0,' + "\f" * n + "\n %arg0) : (tensor<4xf32>, tensor<4xf32>) -> i1\n"
    ),
    "in a signature": lambda n: (
        "func.func @main(" + " " * n + "\n%arg0: tensor<4xf32>) -> tensor<4xf32> {\n" + TAIL
    ),
}


@pytest.mark.parametrize("shape", BLANKS)
def test_blanks_at_a_line_end_inside_a_statement(shape: str) -> None:
    linear(BLANKS[shape], check, 1024)


# A statement that is still a result list (`%0 %0 %0 ...`, `%a, %b, ...` on many lines) was
# read from its first token again at each token (`%0` x16,000: 4.9 s).
RESULT_LISTS: dict[str, Callable[[int], str]] = {
    "%0 repeated on one line": lambda n: body("  " + "%0" * n + "\n"),
    "%0 and a blank, repeated": lambda n: body("  " + "%0 " * n + "\n"),
    "%0: repeated": lambda n: body("  " + "%0:" * n + "\n"),
    "one %0 per line": lambda n: body("  %0\n" * n),
    "a result list over lines": lambda n: body("  %0,\n" * n + "  %1 = x.y : i32\n"),
}


@pytest.mark.parametrize("shape", RESULT_LISTS)
def test_a_long_result_list(shape: str) -> None:
    linear(RESULT_LISTS[shape], check)


def test_dictionaries_after_a_long_result_list() -> None:
    """Each top-level `{` of a statement read its result list again (is it a generic op?);
    the parse is slow enough that this shows from a few thousand results on."""

    def build(n: int) -> str:
        return body("  " + "%r, " * n + '%s = "x.y"() ' + "{} " * n + ": () -> ()\n")

    linear(build, check, 2048)


# Blank lines and comment lines before a line the scanner may take uncut were walked over
# again for each of them (20,000 empty lines: 10 s).
BLANK_LINES: dict[str, Callable[[int], str]] = {
    "empty lines before @main": lambda n: "\n" * n + HEAD + TAIL,
    "blank lines before @main": lambda n: " \n" * n + HEAD + TAIL,
    "comment lines before @main": lambda n: "// a comment\n" * n + HEAD + TAIL,
    "empty lines at the end": lambda n: HEAD + TAIL + "\n" * n,
    "empty lines in a func's attributes": lambda n: (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {a = 1"
        + "\r\n" * n
        + "} {\n"
        + TAIL
    ),
}


@pytest.mark.parametrize("shape", BLANK_LINES)
def test_many_blank_lines(shape: str) -> None:
    linear(BLANK_LINES[shape], check)


# An unterminated string of escaped quotes: a search skipping strings tried each quote to the
# end of the line again (`"\` x32,000: 11.4 s).
QUOTES: dict[str, Callable[[int], str]] = {
    'a line of "\\': lambda n: body("  " + '"\\' * n + "\n"),
    'a line of "\\ after an alias-like word': lambda n: body("  #a " + '"\\' * n + "\n"),
    "escaped quotes in an attribute": lambda n: body(
        '  %0 = "x"() {a = "' + '\\"' * n + "} : () -> ()\n"
    ),
    'a line of "\\ at the top level': lambda n: '"\\' * n + "\n" + HEAD + TAIL,
}


@pytest.mark.parametrize("shape", QUOTES)
def test_an_unterminated_string_of_escaped_quotes(shape: str) -> None:
    linear(QUOTES[shape], check)


def _many_outputs(n: int, names: str = "") -> str:
    """@main returning its argument ``n`` times (TL001, then TL003: a copy fix each)."""
    attributes = f" attributes {{output_names = [{names}]}}" if names else ""
    return (
        f"func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32>{attributes} {{\n"
        f"  return {', '.join(['%arg0'] * n)} : {', '.join(['tensor<4xf32>'] * n)}\n}}\n"
    )


# Copy fixes: each searched the text after the return for its line ending (16,000 chunks with
# a TL001 fix each, 3.8 MB: 27.8 s), and each fresh name tried every name given before it.
FIXES: dict[str, Callable[[int], str]] = {
    "a chunk with a copy fix, repeated": lambda n: (HEAD + TAIL + "// -----\n") * n,
    "one return of many outputs": _many_outputs,
    "many outputs of one name": lambda n: _many_outputs(n, ", ".join(['"x"'] * n)),
}


@pytest.mark.parametrize("shape", FIXES)
def test_many_copy_fixes(shape: str) -> None:
    linear(FIXES[shape], check)


def test_legalizing_many_zero_sized_outputs_of_one_name() -> None:
    """`passlint legalize`: each output gets a custom call of a fresh name."""

    def build(n: int) -> str:
        text = _many_outputs(n, ", ".join(['"x"'] * n))
        return text.replace("tensor<4xf32>", "tensor<0xf32>")

    linear(build, legalize_text)


# The quick analysis (@main's outline) of a large document, the server's first answer.
def _indented(n: int) -> str:
    indent = " " * n
    return f"{indent}{HEAD}{indent}{RETURN}{indent}}}\n"


QUICK: dict[str, Callable[[int], str]] = {
    # each shorter indentation was looked for in @main's body
    "deep indentation": _indented,
    # the line was read from its start again at each `@main(` on it
    "a line of @main(": lambda n: "// func.func " + "@main(" * n + "\n" + HEAD + TAIL,
}


@pytest.mark.parametrize("shape", QUICK)
def test_the_outline_of_main(shape: str) -> None:
    linear(QUICK[shape], quick)


def test_the_outline_of_main_returning_many_values() -> None:
    """Each returned value's definition was looked for in the whole body: past
    ``MOST_OUTPUTS`` the outline leaves them to the full analysis."""

    def build(n: int) -> str:
        values = [f"%v{i}" for i in range(n)]
        definitions = "".join(
            f"  {v} = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n" for v in values
        )
        types = ", ".join(["tensor<4xf32>"] * n)
        return HEAD + definitions + f"  return {', '.join(values)} : {types}\n}}\n"

    assert quick_analyze("few.mlir", build(main_outline.MOST_OUTPUTS), run_memo=MEMO) is not None
    linear(build, lambda text: quick_analyze("many.mlir", text, run_memo=MEMO))
    assert quick_analyze("many.mlir", build(main_outline.MOST_OUTPUTS + 1), run_memo=MEMO) is None
    linear(build, check)


# What the faces do with many findings on one long line: fix all of them (`--fix`, the
# editor's fix-all), and convert their positions to UTF-16 for LSP.
def _fix_all(text: str) -> object:
    fixes = [
        found.fix
        for found in pipeline.analyze("shape.mlir", text, memo=MEMO)
        if found.fix is not None
    ]
    return apply_edits(text, edits_by_path(fixes)["shape.mlir"])


def _in_utf16(text: str) -> object:
    """A position every 8 characters of the text's first line, in UTF-16 and back."""
    source = SourceText(text)
    width = len(source.line_text(0))
    return [source.from_utf16(source.to_utf16(Position(0, c))) for c in range(0, width, 8)]


def test_fixing_many_outputs() -> None:
    """Each fix was compared with every fix kept before it."""
    linear(_many_outputs, _fix_all)


def test_utf16_positions_on_a_long_line_with_an_emoji() -> None:
    """Each position was converted by counting its line's characters up to it."""
    linear(lambda n: "😀" + "é" * n + "\n", _in_utf16)


def test_fixes_kept_are_those_that_overlap_no_fix_before() -> None:
    """The binary search keeps the fixes a comparison with all kept before keeps."""
    rng = random.Random(7)
    for _ in range(200):
        fixes = []
        for number in range(rng.randrange(1, 12)):
            edits = []
            for _ in range(rng.randrange(1, 3)):
                line, column = rng.randrange(3), rng.randrange(6)
                end = (line, column + rng.choice((0, 0, 1, 2)))
                edits.append(TextEdit("a", Range(Position(line, column), Position(*end)), "x"))
            fixes.append(Fix(f"fix {number}", tuple(edits)))
        kept = [edit for fix in _kept_by_comparing(fixes) for edit in fix.edits]
        assert edits_by_path(fixes).get("a", []) == kept


def _kept_by_comparing(fixes: list[Fix]) -> list[Fix]:
    def spans(fix: Fix) -> list[tuple[Position, Position]]:
        return [(edit.range.start, edit.range.end) for edit in fix.edits]

    kept: list[Fix] = []
    for fix in fixes:
        taken = [span for other in kept for span in spans(other)]
        if not any(s < oe and os < e for s, e in spans(fix) for os, oe in taken):
            kept.append(fix)
    return kept


def _constant_returned(last: str) -> Callable[[int], str]:
    """A constant of ``256 n`` elements (1.0, but ``last`` at the end), returned ``n`` times
    (its scan must cost more than a return's operand for a quadratic cost to show)."""

    def build(n: int) -> str:
        shape = f"tensor<{256 * n}xf32>"
        types = ", ".join([shape] * n)
        blob = "0000803F" * (256 * n - 1) + last
        return (
            f"func.func @main() -> ({types}) {{\n"
            f'  %c = stablehlo.constant dense<"0x{blob}"> : {shape}\n'
            f"  return {', '.join(['%c'] * n)} : {types}\n}}\n"
        )

    return build


# Each output a constant is returned at read the whole constant again (is it a splat?).
CONSTANTS: dict[str, Callable[[int], str]] = {
    "a splat constant": _constant_returned("0000803F"),
    "a constant that is not a splat": _constant_returned("00000040"),
}


@pytest.mark.parametrize("shape", CONSTANTS)
def test_a_large_constant_returned_many_times(shape: str) -> None:
    linear(CONSTANTS[shape], check)


def _argument_types(text: str) -> object:
    """Every argument's shaped type, as hover and the pass read them."""
    return [
        argument.shaped_type
        for chunk in parse_file(text, MEMO.mlir).chunks
        for top in chunk.operations
        for op in top.walk()
        for argument in op.header_arguments
    ]


def test_the_shaped_type_of_an_argument_with_words_after_it() -> None:
    """A custom op's argument `%a: tensor<1x1x...xf32> foo`: the type's pattern tried every
    split of its dimensions before giving up on the word after it."""

    def build(n: int) -> str:
        return body(f"  %0 = x.y(%arg0) reducer(%a: tensor<{'1x' * n}f32> foo) {{\n  }}\n")

    linear(build, _argument_types)


def test_uses_of_an_undefined_values_result() -> None:
    """E003/E006: each use of an undefined `%q#1` read every op of its block (is `%q` a
    result there?)."""
    linear(lambda n: body('  "x.y"(%q#1) : (i32) -> ()\n' * n), check)


# -- guards of searches added with these fixes -----------------------------------------------------
# The shapes above each cost quadratic time before (each of those tests failed then); the
# ones below passed before too: they keep linear the searches added since, for dimensions
# and integer widths beyond MLIR's bounds (``integers``) and for lone-CR line ends.

NUMBERS: dict[str, Callable[[int], str]] = {
    "a long dimension list": lambda n: body('  %0 = "x.y"() : () -> tensor<' + "1x" * n + "f32>\n"),
    "lines with an invalid dimension": lambda n: body(
        '  %0 = "x.y"() : () -> tensor<99999999999999999999xf32>\n' * n
    ),
    "a line of invalid dimensions": lambda n: body(
        '  "x.y"() : () -> (' + "tensor<99999999999999999999xf32>, " * n + "i1)\n"
    ),
    "a line of wide integer types": lambda n: body(
        '  "x.y"() : () -> (' + "i999999999, " * n + "i1)\n"
    ),
}


@pytest.mark.parametrize("shape", NUMBERS)
def test_numbers_out_of_range(shape: str) -> None:
    linear(NUMBERS[shape], check)


# Lone-CR line ends: a line table like any other, or every token cut when a string (or a
# comment's quote) runs over a line break.
LONE_CR: dict[str, Callable[[int], str]] = {
    "lone CRs before @main": lambda n: "\r" * n + HEAD + TAIL,
    "a CR-only module": lambda n: body(
        f"  %0 = {'stablehlo.add %arg0, %arg0'} : tensor<4xf32>\n" * n
    ).replace("\n", "\r"),
    "CR-only lines after a comment's quote": lambda n: (
        HEAD + '  // "\n' + "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n" * n + TAIL
    ).replace("\n", "\r"),
}


@pytest.mark.parametrize("shape", LONE_CR)
def test_lone_cr_line_ends(shape: str) -> None:
    linear(LONE_CR[shape], check)


# -- memory -----------------------------------------------------------------------------------------
# The regex engine keeps a backtracking entry (about 100 bytes) for each repetition of a
# group it may go back into: an unterminated string of a million escaped quotes, a quoted op
# name (of escaped quotes or not) or a dimension list of a million entries took 77 to 186
# bytes per character of the text. Possessive, unrolled patterns keep nothing to go back
# to. (A string of escaped quotes that is closed took little before too.)
MILLION = 1_000_000
LONG_TOKENS: dict[str, str] = {
    "escaped quotes": body('  %0 = "x.y"() {a = "' + '\\"' * MILLION + '"} : () -> i32\n'),
    "an unterminated string of escaped quotes": body(
        '  %0 = "x.y"() {a = "' + '\\"' * MILLION + "\n"
    ),
    "a quoted op name": body('  %0 = "' + "a" * (2 * MILLION) + '"() : () -> i32\n'),
    "a quoted op name of escaped quotes": body('  %0 = "' + '\\"' * MILLION + '"() : () -> i32\n'),
    "a dimension list": body('  %0 = "x.y"() : () -> tensor<' + "1x" * MILLION + "f32>\n"),
}


@pytest.mark.parametrize("shape", LONG_TOKENS)
def test_a_long_token_takes_memory_in_proportion(shape: str) -> None:
    text = LONG_TOKENS[shape]
    check(HEAD + TAIL)
    _fresh_caches()
    tracemalloc.start()
    try:
        check(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * len(text)  # (bytes)
