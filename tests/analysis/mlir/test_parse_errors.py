"""Issue 14, point 2: what MLIR's parser rejects, each kind with its own code, its exact
range and MLIR's wording (checked against jaxlib's parser by bench/mlir_agreement.py)."""

from __future__ import annotations

import pytest
from mlir_testing import lc

from passlint.analysis.mlir.parser import parse_file

Issue = tuple[str, tuple[int, int], tuple[int, int], str]
MAIN = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
T = "tensor<4xf32>"


def issues(text: str) -> list[Issue]:
    return [
        (e.code, lc(text, e.start), lc(text, e.end), e.message) for e in parse_file(text).errors
    ]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            f"  return %nothere : {T}\n}}\n",
            [
                (
                    "E003",
                    (2, 10),
                    (2, 18),
                    "Use of undeclared SSA value name `%nothere`; define it before this use.",
                )
            ],
        ),
        (
            f"  %0 = stablehlo.add %1, %arg0 : {T}\n  %1 = stablehlo.abs %arg0 : {T}\n"
            f"  return %0 : {T}\n}}\n",
            [
                (
                    "E003",
                    (2, 22),
                    (2, 24),
                    "Operand #0 does not dominate this use; define `%1` before it.",
                )
            ],
        ),
        (
            f'  %0 = "foo.r"() ({{\n    "foo.y"(%1) : ({T}) -> ()\n  }}) : () -> {T}\n'
            f"  %1 = stablehlo.abs %arg0 : {T}\n  return %0 : {T}\n}}\n",
            [
                (
                    "E003",
                    (3, 13),
                    (3, 15),
                    "Operand #0 does not dominate this use; define `%1` before it.",
                )
            ],
        ),
    ],
    ids=["undeclared", "used-before-defined", "used-in-a-region-before-defined"],
)
def test_e003_undefined_values(body: str, expected: list[Issue]) -> None:
    assert issues(MAIN + body) == expected


def test_e003_graph_regions_allow_uses_before_definitions() -> None:
    text = f'module {{\n  "foo.y"(%1) : ({T}) -> ()\n  %1 = "foo.z"() : () -> {T}\n}}\n'
    assert issues(text) == []
    assert issues(f'"foo.y"(%1) : ({T}) -> ()\n%1 = "foo.z"() : () -> {T}\n') == []


def test_e003_values_do_not_cross_functions() -> None:
    text = (
        f"func.func @a() -> {T} {{\n  %0 = x.y : {T}\n  return %0 : {T}\n}}\n"
        f"func.func @b() -> {T} {{\n  return %0 : {T}\n}}\n"
    )
    assert [(code, start) for code, start, _, _ in issues(text)] == [("E003", (6, 10))]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            f"  %0 = stablehlo.abs %arg0 : {T}\n  %0 = stablehlo.abs %arg0 : {T}\n"
            f"  return %0 : {T}\n}}\n",
            [
                (
                    "E004",
                    (3, 3),
                    (3, 5),
                    "Redefinition of SSA value `%0`; rename this one or the first.",
                )
            ],
        ),
        (
            f'  %0 = stablehlo.abs %arg0 : {T}\n  %1 = "foo.r"() ({{\n'
            f'    %0 = stablehlo.abs %arg0 : {T}\n    "foo.y"(%0) : ({T}) -> ()\n'
            f"  }}) : () -> {T}\n  return %0 : {T}\n}}\n",
            [
                (
                    "E004",
                    (4, 5),
                    (4, 7),
                    "Redefinition of SSA value `%0`; rename this one or the first.",
                )
            ],
        ),
        (
            f'  %1 = "foo.r"() ({{\n  ^bb0(%arg0: {T}):\n    "foo.y"(%arg0) : ({T}) -> ()\n'
            f"  }}) : () -> {T}\n  return %1 : {T}\n}}\n",
            [
                (
                    "E004",
                    (3, 8),
                    (3, 13),
                    "Redefinition of SSA value `%arg0`; rename this one or the first.",
                )
            ],
        ),
    ],
    ids=["same-region", "nested-region", "block-argument"],
)
def test_e004_redefinitions(body: str, expected: list[Issue]) -> None:
    assert issues(MAIN + body) == expected


def test_e004_related_location_is_the_first_definition() -> None:
    text = MAIN + f"  %0 = x.a : {T}\n  %0 = x.b : {T}\n  return %0 : {T}\n}}\n"
    (error,) = parse_file(text).errors
    assert error.related is not None and lc(text, error.related[0]) == (2, 3)
    assert error.related_note == "first defined here"


def test_e004_function_arguments() -> None:
    text = f"func.func @main(%arg0: {T}, %arg0: {T}) -> {T} {{\n  return %arg0 : {T}\n}}\n"
    assert issues(text) == [
        (
            "E004",
            (1, 39),
            (1, 44),
            "Region entry argument `%arg0` is already in use; rename one of them.",
        )
    ]


def test_e004_names_that_may_be_reused() -> None:
    # Sibling regions, a region of the op defining the same name, and a name defined after
    # a region that used it for its own value: MLIR accepts all three.
    text = MAIN + (
        f'  %1 = "foo.r"() ({{\n    %0 = x.a : {T}\n    "foo.y"(%0) : ({T}) -> ()\n  }}, {{\n'
        f'    %0 = x.b : {T}\n    "foo.y"(%0) : ({T}) -> ()\n  }}) : () -> {T}\n'
        f'  %0 = "foo.s"() ({{\n    %0 = x.c : {T}\n    "foo.y"(%0) : ({T}) -> ()\n'
        f"  }}) : () -> {T}\n  return %0 : {T}\n}}\n"
    )
    assert issues(text) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            f"  %0 = stablehlo.add %arg0 %arg0 : {T}\n",
            (
                "E005",
                (2, 28),
                (2, 33),
                "Expected ',', not '%arg0'; separate the operands with a comma.",
            ),
        ),
        (
            f"  %0 = stablehlo.add %arg0, : {T}\n",
            (
                "E005",
                (2, 29),
                (2, 30),
                "Expected SSA operand, not ':'; add the operand or remove the comma.",
            ),
        ),
        (
            f'  %0 = "stablehlo.add"(%arg0 %arg0) : ({T}, {T}) -> {T}\n',
            (
                "E005",
                (2, 30),
                (2, 35),
                "Expected ')' to end operand list, not '%arg0'; separate operands with commas.",
            ),
        ),
        (
            f'  %0 = "stablehlo.add"(%arg0, ) : ({T}, {T}) -> {T}\n',
            (
                "E005",
                (2, 31),
                (2, 32),
                "Expected SSA operand, not ')'; add the operand or remove the comma.",
            ),
        ),
        (
            f'  %0 = "foo.bar"(%arg0, %arg0) : ({T}) -> {T}\n',
            (
                "E005",
                (2, 8),
                (2, 17),
                "Expected 2 operand types but had 1; give one type per operand.",
            ),
        ),
    ],
    ids=["missing-comma", "dangling-comma", "generic-missing-comma", "generic-dangling", "types"],
)
def test_e005_malformed_operand_lists(body: str, expected: Issue) -> None:
    assert issues(MAIN + body + f"  return %0 : {T}\n}}\n") == [expected]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            f'  %0:2 = "foo.bar"(%arg0) : ({T}) -> {T}\n  return %0#0 : {T}\n}}\n',
            (
                "E006",
                (2, 3),
                (2, 5),
                "Operation defines 1 results but was provided 2 to bind; match the result list "
                "to the type.",
            ),
        ),
        (
            f'  %a, %b = "foo.bar"(%arg0) : ({T}) -> ({T})\n  return %a : {T}\n}}\n',
            (
                "E006",
                (2, 3),
                (2, 9),
                "Operation defines 1 results but was provided 2 to bind; match the result list "
                "to the type.",
            ),
        ),
        (
            f'  %0:2 = "foo.bar"(%arg0) : ({T}) -> ({T}, {T})\n  return %0#2 : {T}\n}}\n',
            (
                "E006",
                (3, 10),
                (3, 14),
                "Reference to invalid result number in `%0#2`; use a result it has.",
            ),
        ),
    ],
    ids=["count", "names", "result-number"],
)
def test_e006_result_counts(body: str, expected: Issue) -> None:
    assert issues(MAIN + body) == [expected]


def test_e006_result_numbers_that_exist() -> None:
    text = MAIN + (
        f'  %0 = "foo.bar"(%arg0) : ({T}) -> ({T})\n'
        f'  %1:2 = "foo.baz"(%0#0) : ({T}) -> ({T}, {T})\n  return %1 : {T}\n}}\n'
    )
    assert issues(text) == []


def test_e007_undefined_aliases() -> None:
    text = (
        MAIN
        + f"  %0 = stablehlo.abs %arg0 : {T} loc(#loc9)\n"
        + f'  %1 = "foo.bar"(%0) {{a = #foo, b = #stablehlo<precision HIGH>}} : ({T}) -> !t\n'
        + f'  return %0 : {T} loc(#loc)\n}}\n#loc = loc("x.py":1:1)\n'
    )
    assert issues(text) == [
        (
            "E007",
            (2, 48),
            (2, 53),
            "Operation location alias `#loc9` was never defined; define it, as "
            '`#loc9 = loc("file":1:1)`.',
        ),
        (
            "E007",
            (3, 27),
            (3, 31),
            "Undefined symbol alias id `#foo`; define `#foo = ...` in the module.",
        ),
        (
            "E007",
            (3, 86),
            (3, 88),
            "Undefined symbol alias id `!t`; define `!t = ...` in the module.",
        ),
    ]


def test_e007_alias_used_before_its_definition() -> None:
    """MLIR (jaxlib 0.10.2) defers only location aliases named by an op's location: a type
    or attribute alias, and any alias an alias's definition names, is defined first."""
    text = (
        "!b = !a\n!a = tensor<2xf32>\n"
        "func.func @main(%arg0: !t) -> tensor<2xf32> attributes {x.y = #attr} {\n"
        "  return %arg0 : tensor<2xf32> loc(#loc2)\n}\n"
        '!t = tensor<2xf32>\n#attr = 1 : i32\n#loc1 = loc("a.py":1:1)\n'
        '#loc2 = loc("b"(#loc3))\n#loc3 = loc(fused[#loc1])\n'
    )
    moved = "is used before its definition; move `{0} = ...` above its first use. MLIR reads "
    expected = [
        ("!a", (1, 6), (1, 8)),
        ("!t", (3, 24), (3, 26)),
        ("#attr", (3, 63), (3, 68)),
        ("#loc3", (9, 17), (9, 22)),
    ]
    assert issues(text) == [
        (
            "E007",
            start,
            end,
            f"Alias `{name}` " + moved.format(name) + "it as an undefined symbol alias id.",
        )
        for name, start, end in expected
    ]


def test_e007_reads_no_alias_in_strings_or_comments() -> None:
    text = (
        MAIN
        + f'  %0 = "foo.bar"(%arg0) {{s = "#in_string // #still", t = #undef}} : ({T}) -> ({T})'
        + "  // #in_comment\n"
        + f'  // "#x" #y\n  return %0 : {T} loc("#z.py":1:1)\n}}\n'
    )
    assert issues(text) == [
        (
            "E007",
            (2, 58),
            (2, 64),
            "Undefined symbol alias id `#undef`; define `#undef = ...` in the module.",
        )
    ]


def test_e008_blocks() -> None:
    text = MAIN + (
        '  "cf.br"()[^bb9] : () -> ()\n^bb1:\n  "cf.br"()[^bb1] : () -> ()\n^bb1:\n'
        f"  return %arg0 : {T}\n}}\n"
    )
    assert issues(text) == [
        (
            "E008",
            (2, 13),
            (2, 17),
            "Reference to an undefined block `^bb9`; define it in this region or fix the name.",
        ),
        ("E008", (5, 1), (5, 5), "Redefinition of block `^bb1`; rename one of the two labels."),
    ]


def test_e009_unbalanced_brackets() -> None:
    text = MAIN + f"  %0 = stablehlo.abs %arg0 : tensor<4xf32\n  return %0 : {T}\n}}}}\n"
    assert issues(text) == [
        (
            "E009",
            (2, 42),
            (2, 42),
            "Expected '>' to close the '<' opened here; add it before the end of the statement.",
        ),
        (
            "E009",
            (4, 2),
            (4, 3),
            "Unexpected '}': no region is open here; remove it or open the region.",
        ),
    ]


def test_a_broken_statement_does_not_cascade_into_undeclared_values() -> None:
    text = MAIN + f"  %0 stablehlo.abs %arg0 : {T}\n  return %0 : {T}\n}}\n"
    assert [code for code, _, _, _ in issues(text)] == ["E001"]


SIGNATURE = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
END = "  return %arg0 : tensor<4xf32>\n}\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            MAIN
            + '  %0 = "foo.r"(%arg0, %arg0) : (tensor<4xf32> tensor<4xf32>) -> tensor<4xf32>\n'
            + END,
            ("E001", (2, 47), "Expected ')', not 'tensor'; separate the entries with commas."),
        ),
        (
            MAIN + "  %0 = stablehlo.add %arg0, %arg0 tensor<4xf32>\n" + END,
            ("E001", (2, 35), "Expected ':', not 'tensor'; add ':' before the type."),
        ),
        (
            MAIN + "  %0 = stablehlo.abs %arg0 : tensor<4xf32 f32>\n" + END,
            ("E001", (2, 43), "Expected '>' in tensor type, not 'f32'; write a type here."),
        ),
        (
            MAIN + "  %0 = stablehlo.abs %arg0 : <4xf32>\n" + END,
            ("E001", (2, 30), "Expected non-function type, not '<'; write a type here."),
        ),
        (
            "module attributes {a = 1 : i32 i32} {}\n",
            (
                "E001",
                (1, 32),
                "Expected '}' in attribute dictionary, not 'i32'; write `name = value` entries "
                "separated by commas.",
            ),
        ),
        (
            "module attributes {a = , b = 1} {}\n",
            ("E001", (1, 24), "Expected attribute value, not ','; write a value after '='."),
        ),
        (
            "module attributes {a = 1, , b = 1} {}\n",
            (
                "E001",
                (1, 27),
                "Expected attribute name, not ','; write `name = value` entries separated by "
                "commas.",
            ),
        ),
        (
            MAIN + "  return %arg0 : tensor<4xf32> loc()\n}\n",
            (
                "E001",
                (2, 36),
                "Expected location instance, not ')'; write one location, as "
                '`loc("file.py":1:2)`.',
            ),
        ),
        (
            MAIN + '  return %arg0 : tensor<4xf32> loc("a"::4)\n}\n',
            (
                "E001",
                (2, 40),
                "Expected integer line number in FileLineColRange, not ':'; write the location "
                'as `"file.py":1:2`.',
            ),
        ),
        (
            MAIN + "  %0 = stablehlo.constant dense<[1.0, , 2.0]> : tensor<3xf32>\n" + END,
            (
                "E001",
                (2, 39),
                "Expected element literal of primitive type, not ','; write one number between "
                "commas.",
            ),
        ),
        (
            "func.func (%arg0: tensor<4xf32>) -> tensor<4xf32> {\n" + END,
            (
                "E001",
                (1, 11),
                "Custom op 'func.func' expected valid '@'-identifier for symbol name, not '('; "
                "name the function, as `@name`.",
            ),
        ),
        (
            "func.func @main(%arg0 tensor<4xf32>) -> tensor<4xf32> {\n" + END,
            ("E001", (1, 23), "Expected ':', not 'tensor'; add ':' before the type."),
        ),
        (
            "func.func private @ext(tensor<2xf32>, %a: i32)\n",
            (
                "E001",
                (1, 39),
                "Expected type instead of SSA identifier, not '%a'; name every argument "
                "(`%name: type`) or none.",
            ),
        ),
        (
            "func.func private @ext(%a: tensor<2xf32>, i32)\n",
            (
                "E001",
                (1, 43),
                "Expected SSA identifier, not 'i32'; name every argument (`%name: type`) or none.",
            ),
        ),
        (
            "func.func private @ext(!llvm.ptr, ...)\n",
            ("E001", (1, 35), "Expected non-function type, not '...'; write a type here."),
        ),
        (
            MAIN + "  %0 = stablehlo.add %arg0, , %arg0 : tensor<4xf32>\n" + END,
            (
                "E005",
                (2, 29),
                "Expected SSA operand, not ','; add the operand or remove the comma.",
            ),
        ),
        (
            MAIN + "  %0 = stablehlo.constant dense dense<1.0> : tensor<4xf32>\n" + END,
            (
                "E001",
                (2, 33),
                "Expected '<' after 'dense', not 'dense'; write the literal as `word<...>`.",
            ),
        ),
        (
            MAIN + "  %0 = stablehlo.add stablehlo.add %arg0, %arg0 : tensor<4xf32>\n" + END,
            (
                "E001",
                (2, 21),
                "Expected the operands or the type of 'stablehlo.add', not the end of the "
                "statement; complete the operation.",
            ),
        ),
        (
            "module {\n  public @main() -> () {\n    return\n  }\n}\n",
            (
                "E001",
                (2, 3),
                "Custom op 'public' is unknown; spell the op as `dialect.op`.",
            ),
        ),
        (
            "module module {\n}\n",
            (
                "E001",
                (1, 7),
                "Expected '{' to begin a region, not the end of the statement; write a region "
                "`{...}` here.",
            ),
        ),
    ],
    ids=[
        "type-list-comma",
        "missing-colon",
        "tensor-type",
        "not-a-type",
        "dictionary-entry",
        "attribute-value",
        "attribute-name",
        "empty-location",
        "file-line-col",
        "dense-elements",
        "function-name",
        "argument-colon",
        "unnamed-after-named",
        "named-after-unnamed",
        "variadic",
        "operand-comma",
        "literal",
        "op-name-twice",
        "unknown-op",
        "module-body",
    ],
)
def test_builtin_syntax(text: str, expected: tuple[str, tuple[int, int], str]) -> None:
    """Types, attribute dictionaries, locations, literals and signatures: what every dialect
    shares, checked with MLIR's wording."""
    assert [(code, start, message) for code, start, _, message in issues(text)] == [expected]


def test_builtin_syntax_that_is_valid() -> None:
    text = (
        'module attributes {a = i32, b = (i32) -> i32, c = tensor<4xf32>, d = distinct[0]<"x">,'
        ' e = #foo.bar<1>, f = unit, g = [1, "a"], h = {k}, i = true, j = -1 : i32, k = @x::@y}'
        " {\n  func.func @f(%a: tensor<\n  4xf32>, %b: tensor<?x\n0x4xf32>) -> (tensor<4xf32>"
        ' {x.y = 1}) {\n    return %a : tensor<4xf32> loc(callsite("f"("a.py":1:2) at'
        ' fused["b.py":3:4, unknown]))\n  }\n}\n'
    )
    assert issues(text) == []
