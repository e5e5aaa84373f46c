"""Invalid inputs: E001 issues at the exact place with what was expected, recovery at the
next statement, and never an exception."""

from __future__ import annotations

import random

import pytest
from mlir_testing import CONSTRUCTS, DATA, lc, op_named, ops, read

from passlint.analysis.mlir.ir import ParsedFile
from passlint.analysis.mlir.parser import parse_file


def issues(text: str) -> list[tuple[tuple[int, int], tuple[int, int], str]]:
    return [(lc(text, e.start), lc(text, e.end), e.message) for e in parse_file(text).errors]


def test_broken_statements_in_the_middle_of_a_function() -> None:
    text = read("invalid/broken_statements.mlir")
    parsed = parse_file(text)
    assert issues(text) == [
        (
            (3, 31),
            (3, 32),
            "Unbalanced ')': no opening bracket matches it; remove it or add the opener.",
        ),
        ((5, 8), (5, 9), "Unexpected '='; expected an operation name."),
        (
            (6, 42),
            (6, 42),
            "Expected ')' to close the '(' opened here; add it before the end of the statement.",
        ),
    ]
    related = parsed.errors[2].related
    assert related is not None and lc(text, related[0]) == (6, 23)
    # Every op is still in the IR, broken ones with their results and uses.
    func = parsed.chunks[0].operations[0]
    assert [op.name for op in func.regions[0].operations] == [
        "stablehlo.add",
        "stablehlo.multiply",
        "stablehlo.abs",
        "stablehlo.abs",
        "stablehlo.neg",
        "stablehlo.abs",
        "return",
    ]
    # The function keeps its arguments: uses inside it still resolve.
    assert [a.name for a in func.header_arguments] == ["%arg0"]
    assert all(u.value is not None for op in ops(parsed) for u in op.operands)
    neg = op_named(parsed, "stablehlo.neg")
    assert [r.name for r in neg.results] == ["%4"]
    assert neg.results[0].uses[0].user is op_named(parsed, "stablehlo.abs", 2)


def test_unterminated_string_and_binary_garbage() -> None:
    text = read("invalid/string_and_garbage.mlir")
    parsed = parse_file(text)
    assert issues(text) == [
        (
            (2, 23),
            (2, 52),
            "Unterminated string: expected '\"' before the end of the line; close it.",
        ),
        ((3, 15), (3, 16), "Unexpected character '\\x01'; remove it."),
        ((6, 1), (6, 2), "Unexpected '}': no region is open here; remove it or open the region."),
    ]
    # The string does not swallow the rest of the function.
    assert [op.name for op in ops(parsed)] == ["func.func", "x.y", "x.z", "return"]
    assert op_named(parsed, "x.z").operands[0].value is op_named(parsed, "x.y").results[0]


def test_truncated_file() -> None:
    text = read("invalid/truncated.mlir")
    parsed = parse_file(text)
    expected = "Expected '}' to close the region opened here; add it at the end."
    assert issues(text) == [((4, 1), (4, 1), expected), ((4, 1), (4, 1), expected)]
    assert [lc(text, e.related[0]) for e in parsed.errors if e.related] == [(2, 18), (1, 8)]
    assert [op.name for op in ops(parsed)] == ["module", "func.func", "return"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "%0 %1 = a.b : f32\n",
            [((1, 4), (1, 6), "Unexpected '%1'; expected ':', '=' or ','.")],
        ),
        (
            "%0 = \n",
            [((1, 5), (1, 5), "Unexpected end of the statement; expected an operation name.")],
        ),
        ("%0 = 5\n", [((1, 6), (1, 7), "Unexpected '5'; expected an operation name.")]),
        ("%0:x = a.b\n", [((1, 4), (1, 5), "Unexpected 'x'; expected an integer.")]),
        ("%0, = a.b\n", [((1, 5), (1, 6), "Unexpected '='; expected an SSA value.")]),
        ('"a.b" : f32\n', [((1, 7), (1, 8), "Unexpected ':'; expected '('.")]),
        (
            "a.b loc(\n",
            [
                (
                    (1, 9),
                    (1, 9),
                    "Expected ')' to close the '(' opened here; add it before the end of the file.",
                )
            ],
        ),
        (
            "a.b [1, 2) : f32\n",
            [
                (
                    (1, 10),
                    (1, 11),
                    "Unbalanced ')': no opening bracket matches it (expected ']'); remove it or add the opener.",
                ),
                (
                    (1, 17),
                    (1, 17),
                    "Expected ']' to close the '[' opened here; add it before the end of the file.",
                ),
            ],
        ),
        (
            "{-# dialect_resources: {\n",
            [
                (
                    (2, 1),
                    (2, 1),
                    "Expected '#-}' to close the resource section; add it at the end.",
                )
            ],
        ),
        (
            "%0 = a.b : f32\n^bb1:\nc.d\n",
            [
                (
                    (2, 1),
                    (2, 5),
                    "Unexpected block label '^bb1'; expected an operation. "
                    "Labels belong inside a region.",
                )
            ],
        ),
        ("\x00 a.b\n", [((1, 1), (1, 2), "Unexpected character '\\x00'; remove it.")]),
    ],
)
def test_stray_tokens_and_unbalanced_brackets(
    text: str, expected: list[tuple[tuple[int, int], tuple[int, int], str]]
) -> None:
    assert issues(text) == expected


def test_stray_token_at_top_level_names_what_was_expected() -> None:
    text = "= c.d\n%0 = a.b : f32\n"
    ((start, end, message),) = issues(text)
    assert (start, end) == ((1, 1), (1, 2))
    assert message.startswith("Unexpected '='; expected ")
    assert "an SSA value" in message and "an identifier" in message


def test_unclosed_bracket_does_not_hide_the_next_op() -> None:
    text = "func.func @f(%a: f32) {\n  %0 = a.b %a : f32 (\n  c.d %0\n  return\n}\n"
    parsed = parse_file(text)
    assert issues(text) == [
        (
            (2, 22),
            (2, 22),
            "Expected ')' to close the '(' opened here; add it before the end of the statement.",
        )
    ]
    assert [op.name for op in ops(parsed)] == ["func.func", "a.b", "c.d", "return"]
    assert op_named(parsed, "c.d").operands[0].value is op_named(parsed, "a.b").results[0]


def test_several_errors_in_one_file_are_all_reported_in_order() -> None:
    text = (
        "func.func @f(%a: f32) {\n"
        "  %0 = a.b %a ] : f32\n"
        "  %1 = = c.d %0\n"
        "  %2 = e.f %1 : f32\n"
        '  %3 = "g.h"(%2 : f32\n'
        "  return %3 : f32\n"
        "}\n"
        "// -----\n"
        "}\n"
    )
    parsed = parse_file(text)
    assert [(lc(text, e.start), e.message.split(":")[0]) for e in parsed.errors] == [
        ((2, 15), "Unbalanced ']'"),
        ((3, 8), "Unexpected '='; expected an operation name."),
        (
            (5, 22),
            "Expected ')' to close the '(' opened here; add it before the end of the statement.",
        ),
        ((9, 1), "Unexpected '}'"),
    ]
    assert [op.name for op in ops(parsed)] == ["func.func", "a.b", "c.d", "e.f", "g.h", "return"]
    assert all(u.value is not None for op in ops(parsed) for u in op.operands)


@pytest.mark.parametrize("text", ["", "\n\n", "   \t\n", "// only a comment\n", "// -----\n"])
def test_empty_files_parse_to_nothing(text: str) -> None:
    parsed = parse_file(text)
    assert parsed.errors == []
    assert ops(parsed) == []


def test_deep_nesting_is_reported_not_raised() -> None:
    depth = 10_000
    text = '"t.op"() ({\n' * depth + '"t.end"() : () -> ()\n' + "}) : () -> ()\n" * depth
    parsed = parse_file(text)
    assert [e.message for e in parsed.errors] == [
        "Nesting too deep: more than 100 nested regions; passlint does not follow them."
    ]
    assert len(ops(parsed)) == 101  # 100 regions opened, the op inside the last one
    text = "%0 = t.op " + "<" * depth + ">" * depth + " : f32\n%1 = t.use %0 : f32\n"
    parsed = parse_file(text)
    assert [e.message for e in parsed.errors] == [
        "Nesting too deep: more than 128 brackets open in one statement; passlint does not "
        "follow it."
    ]
    assert op_named(parsed, "t.use").operands[0].value is op_named(parsed, "t.op").results[0]
    text = "%0 = t.op " + "(" * depth + "\n"
    assert parse_file(text).errors  # unclosed and too deep: reported, no exception


def check_no_exception(text: str) -> ParsedFile:
    parsed = parse_file(text)
    for error in parsed.errors:
        assert 0 <= error.start <= error.end <= len(text)
        assert error.message
    return parsed


def test_every_prefix_and_suffix_of_a_fixture() -> None:
    text = (CONSTRUCTS / "implicit_module.mlir").read_text(encoding="utf-8")
    for i in range(len(text) + 1):
        check_no_exception(text[:i])
        check_no_exception(text[i:])


def test_every_prefix_of_the_hybrid_fixture() -> None:
    text = read("handmade__mhlo_fusion_hybrid.mlir")
    for i in range(0, len(text) + 1, 3):
        check_no_exception(text[:i])


def test_every_line_truncation_and_deletion_of_every_fixture() -> None:
    for path in sorted(DATA.glob("**/*.mlir")):
        if path.stat().st_size > 10_000:
            continue
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for i in range(len(lines)):
            check_no_exception("".join(lines[:i]))
            check_no_exception("".join(lines[:i] + lines[i + 1 :]))


def test_binary_garbage() -> None:
    rng = random.Random(1234)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        check_no_exception(data.decode("latin-1"))
    alphabet = [
        *list('%^@#!"(){}[]<>=,:-> \n\tx0123456789abc.'),
        "{-#",
        "#-}",
        "loc(",
        "// -----\n",
    ]
    for _ in range(300):
        check_no_exception("".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 120))))
