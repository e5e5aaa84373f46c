"""The HLO text front end: structure, shapes, spans as 0-based line/column ranges, syntax
issues (never an exception, never a hang) and linear time."""

from __future__ import annotations

from pathlib import Path

import pytest
from linear_time import assert_doubling_linear

from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.findings import Position, Range
from passlint.analysis.hlo.literals import is_splat_constant, literal_elements
from passlint.analysis.hlo.parser import parse_hlo
from passlint.analysis.language import is_hlo_file, language_of
from passlint.config import Settings
from passlint.pipeline import analyze

DATA = Path(__file__).resolve().parents[2] / "data" / "hlo"

JAX = """HloModule jit__lambda, entry_computation_layout={(f32[2,3]{1,0}, f32[2,3]{1,0})->(f32[2,3]{1,0}, f32[2,3]{1,0})}

ENTRY main.1 {
  x.1 = f32[2,3]{1,0} parameter(0)
  y.1 = f32[2,3]{1,0} parameter(1)
  add.1 = f32[2,3]{1,0} add(x.1, y.1)
  ROOT tuple.1 = (f32[2,3]{1,0}, f32[2,3]{1,0}) tuple(add.1, x.1)
}
"""


def _text(text: str, span: tuple[int, int]) -> str:
    return text[span[0] : span[1]]


def test_a_jax_module_is_read_with_spans() -> None:
    parsed = parse_hlo(JAX)
    assert parsed.issues == []
    assert parsed.name == "jit__lambda"
    assert [a.name for a in parsed.attributes] == ["entry_computation_layout"]
    entry = parsed.entry
    assert entry is not None and entry.is_entry and entry.name == "main.1"
    assert [i.name for i in entry.instructions] == ["x.1", "y.1", "add.1", "tuple.1"]
    root = entry.root
    assert root is not None and root.opcode == "tuple" and root.is_root
    assert [o.name for o in root.operands] == ["add.1", "x.1"]
    line = JAX.splitlines()[6]
    column = line.index("x.1)")
    assert parsed.range(root.operands[1].span) == Range(
        Position(6, column), Position(6, column + 3)
    )
    assert parsed.range(root.name_span) == Range(Position(6, 7), Position(6, 14))
    assert _text(JAX, root.span) == JAX.splitlines()[6].strip()
    x = entry.by_name["x.1"]
    assert (x.opcode, x.literal, x.shape.text, x.shape.dims) == (
        "parameter",
        "0",
        "f32[2,3]{1,0}",
        ("2", "3"),
    )
    assert root.shape.is_tuple and [e.text for e in root.shape.elements] == ["f32[2,3]{1,0}"] * 2


def test_old_dumps_with_percent_names_shaped_operands_and_signatures() -> None:
    parsed = parse_hlo((DATA / "old_style.hlo").read_text())
    assert parsed.issues == []
    assert [c.name for c in parsed.computations] == ["%add", "%main.3"]
    entry = parsed.entry
    assert entry is not None and entry.name == "%main.3"
    root = entry.root
    assert root is not None
    assert [(o.name, o.shape.text if o.shape else None) for o in root.operands] == [
        ("%neg", "f32[4]{0}"),
        ("%p0", "f32[4]{0}"),
        ("%tok", "token[]"),
    ]
    gte = entry.by_name["gte"]
    assert gte.operands[0].shape is not None and gte.operands[0].shape.is_tuple
    assert [(a.name, a.value) for a in gte.attributes] == [("index", "0")]
    assert entry.by_name["tok"].shape.text == "token[]"


def test_attributes_with_nested_braces_strings_and_arrows() -> None:
    text = (
        "HloModule m\n\nENTRY e {\n  p = f32[1,4,4,1]{3,2,1,0} parameter(0)\n"
        "  k = f32[3,3,1,1]{3,2,1,0} parameter(1)\n"
        "  ROOT c = f32[1,4,4,1]{3,2,1,0} convolution(p, k), window={size=3x3 pad=1_1x1_1}, "
        'dim_labels=b01f_01io->b01f, metadata={op_name="jit(f)/conv{x}" source_line=3}, '
        'backend_config="{\\"k\\": [1, 2]}", sharding={devices=[2,1]0,1}\n}\n'
    )
    parsed = parse_hlo(text)
    assert parsed.issues == []
    root = parsed.computations[0].root
    assert root is not None
    assert [(a.name, a.value) for a in root.attributes] == [
        ("window", "{size=3x3 pad=1_1x1_1}"),
        ("dim_labels", "b01f_01io->b01f"),
        ("metadata", '{op_name="jit(f)/conv{x}" source_line=3}'),
        ("backend_config", '"{\\"k\\": [1, 2]}"'),
        ("sharding", "{devices=[2,1]0,1}"),
    ]


def test_constants_zero_elements_and_splats() -> None:
    text = (
        "HloModule m\nENTRY e {\n  a = f32[2]{0} constant({1, 2})\n  b = f32[3] constant({5, 5.0, 5})\n"
        "  s = f32[] constant(-inf)\n  z = f32[0,4]{1,0} constant({  })\n"
        "  o = f32[2] constant(f32[2] {7, 7})\n  ROOT t = (f32[2]{0}) tuple(a, b, s, z, o)\n}\n"
    )
    parsed = parse_hlo(text)
    assert parsed.issues == []
    by_name = parsed.computations[0].by_name
    assert literal_elements(by_name["a"].literal or "") == ["1", "2"]
    assert [is_splat_constant(by_name[n]) for n in "absz"] == [False, True, True, False]
    assert literal_elements(by_name["o"].literal or "") == ["7", "7"]
    assert by_name["z"].shape.num_elements == 0
    assert by_name["s"].shape.num_elements == 1


def test_element_counts_of_dynamic_and_huge_dimensions() -> None:
    """A 0 dimension makes zero elements beside a dynamic one (as in MLIR's `tensor<?x0xf32>`);
    a dimension of thousands of digits is no number (the fuzz target found int() raising)."""
    huge = "9" * 8001
    text = (
        f"HloModule m\nENTRY e {{\n  a = f32[?,0] parameter(0)\n  b = f32[<=4,2] parameter(1)\n"
        f"  c = f32[{huge}] parameter(2)\n  d = f32[{huge},0] parameter(3)\n"
        f"  ROOT t = (f32[2]{{0}}) tuple(a, b, c, d)\n}}\n"
    )
    parsed = parse_hlo(text)
    assert parsed.issues == []
    counts = [parsed.computations[0].by_name[n].shape.num_elements for n in "abcd"]
    assert counts == [0, None, None, 0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", [((0, 0), "Expected `HloModule name` first, found end of file")]),
        ("HloModule m\nENTRY e {\n  x = f32[2] parameter(0\n}\n", [((2, 22), "Unclosed `(`")]),
        (
            "HloModule m\nENTRY e {\n  ROOT x = f32[2] add(y, y)\n}\n",
            [((2, 22), "Operand 'y' is not an instruction"), ((2, 25), "Operand 'y'")],
        ),
        (
            "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  x = f32[2] parameter(1)\n}\n",
            [((3, 2), "Instruction 'x' is defined twice")],
        ),
        ('HloModule m\nENTRY e {\n  ROOT x = f32[2] constant("ab', [((2, 27), "Unterminated")]),
        ("HloModule m /* open\nENTRY e {}\n", [((0, 12), "Unterminated comment")]),
        ("HloModule m\nENTRY e {\n  ROOT x = f32[2] parameter(0)\n", [((1, 8), "Unclosed")]),
        (
            "HloModule m\nENTRY e {\n  x = f32[2 parameter(0)\n  y = f32[2] parameter(1)\n"
            "  ROOT z = f32[2] f32[2]\n}\n",
            [((2, 12), "Expected a dimension"), ((4, 21), "Expected `(` after opcode")],
        ),
    ],
)
def test_syntax_issues_say_where_and_what(
    text: str, expected: list[tuple[tuple[int, int], str]]
) -> None:
    parsed = parse_hlo(text)
    found = [(parsed.range(i.span).start, i.message) for i in parsed.issues]
    assert len(found) == len(expected), found
    for (start, message), (position, prefix) in zip(found, expected, strict=True):
        assert (start.line, start.column) == position
        assert message.startswith(prefix) and message.endswith("."), message


def test_every_prefix_and_every_broken_line_parses_without_raising() -> None:
    text = (DATA / "outputs.hlo").read_text() + (DATA / "old_style.hlo").read_text()
    for end in range(0, len(text), 7):
        parse_hlo(text[:end])
    lines = text.splitlines(keepends=True)
    for index in range(len(lines)):
        for cut in ("(", "{", '"', "/*", "[", "}", ")", "="):
            parse_hlo("".join(lines[:index]) + cut + "".join(lines[index:]))


def test_which_files_are_hlo() -> None:
    assert language_of("a.hlo", "") == "hlo"
    assert language_of("a.hlo.txt", "garbage") == "hlo"
    dump = (DATA / "dump.txt").read_text()
    assert language_of("module_0001.txt", dump) == "hlo"
    assert is_hlo_file("module_0001.txt", dump.encode())
    notes = (DATA / "notes.txt").read_text()
    assert language_of("notes.txt", notes) is None
    assert not is_hlo_file("notes.txt", notes.encode())
    assert language_of("x.txt", "\ufeff  // c\n/* d */ HloModule m") == "hlo"
    assert language_of("x.txt", "HloModules") is None


def _module(n: int) -> str:
    lines = ["HloModule big, entry_computation_layout={()->f32[2]{0}}", "", "ENTRY main {"]
    lines.append("  p.0 = f32[2]{0} parameter(0)")
    for i in range(1, n):
        lines.append(
            f'  a.{i} = f32[2]{{0}} add(p.0, p.0), metadata={{op_name="jit(f)/add" '
            f'source_file="f.py" source_line={i}}}'
        )
    lines.append(f"  ROOT t = (f32[2]{{0}}) tuple({', '.join(f'a.{i}' for i in range(1, n))})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def test_parsing_is_linear_in_the_input() -> None:
    assert_doubling_linear(_module, parse_hlo, 256)


def test_a_run_of_errors_is_linear_too() -> None:
    assert_doubling_linear(lambda n: "HloModule m\nENTRY e {\n" + "  x = (((\n" * n, parse_hlo, 256)


def test_a_header_of_many_comments_is_linear() -> None:
    """``/**/`` repeated before a text that is not ``HloModule``: the header's repetition may
    not try each way of splitting the comments (exponential: 30 of them took a minute)."""
    assert language_of("a.txt", "/**/" * 40 + " x") is None
    assert language_of("a.txt", "/**/" * 40 + " HloModule m") == "hlo"
    assert_doubling_linear(
        lambda n: "/**/ // c\n" * n + "x", lambda t: language_of("a.txt", t), 4096
    )
    assert_doubling_linear(
        lambda n: ("/**/ // c\n" * n + "x").encode(), lambda d: is_hlo_file("a.txt", d), 4096
    )


def test_tuple_shapes_nested_too_deep_are_an_error_not_a_recursion_error() -> None:
    deep = "HloModule m\nENTRY e {\n  ROOT x = " + "(" * 100_000 + "f32[] " + ")" * 100_000
    parsed = parse_hlo(deep + " tuple()\n}\n")
    assert [issue.message for issue in parsed.issues][:1] == [
        "Tuple shape nesting too deep: more than 100 levels; flatten the tuple."
    ]
    allowed = "HloModule m\nENTRY e {\n  ROOT x = " + "(" * 100 + "f32[] " + ")" * 100
    assert parse_hlo(allowed + " tuple()\n}\n").issues == []


# -- what XLA's own parser and tools accept (openxla/xla's hlo_parser.cc, hlo-opt) ----------


def test_a_module_without_header_is_its_computations() -> None:
    """``HloParserImpl::Run``: a text that starts with ``ENTRY`` or with ``name {`` is a
    module without the ``HloModule`` line (XLA's emitter and lit tests are written so)."""
    text = (
        "// RUN: fusion_to_mlir %s | FileCheck %s\n\nadd {\n  a = f32[] parameter(0)\n"
        "  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\nfused {\n"
        "  p = f32[8] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add\n}\n// CHECK: reduce\n"
    )
    parsed = parse_hlo(text)
    assert parsed.issues == []
    assert parsed.name is None
    assert [c.name for c in parsed.computations] == ["add", "fused"]
    entry = parsed.entry  # no ENTRY: the last computation, as XLA takes it
    assert entry is not None and entry.name == "fused"
    assert parse_hlo("ENTRY main {\n  ROOT p = f32[2] parameter(0)\n}\n").issues == []


def test_a_text_that_is_no_module_still_needs_the_header() -> None:
    """Neither ``HloModule``, ``ENTRY`` nor ``name {``: XLA would read a single instruction,
    which is no module; a computation with a signature needs the header too."""
    for text in (
        "x = f32[2] parameter(0)\n",
        "%c (p: f32[]) -> f32[] {\n  ROOT p = f32[] parameter(0)\n}\n",
    ):
        messages = [issue.message for issue in parse_hlo(text).issues]
        assert len(messages) == 1 and messages[0].startswith("Expected `HloModule name` first")


SPLIT = """// RUN: hlo-opt %s --split-input-file | FileCheck %s

HloModule first, is_scheduled=true

ENTRY main {
  ROOT p = f32[2] parameter(0)
}

// -----

HloModule second

ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(p)
}

// -----

body {
  ROOT x = f32[2] add(y, y)
}
"""


def test_a_lit_file_of_several_modules_is_read_module_by_module() -> None:
    """``hlo-opt --split-input-file`` cuts at ``// -----`` (opt_main.cc): each part is a
    module of its own, with its header or none; errors are found in every part."""
    parsed = parse_hlo(SPLIT)
    assert [(c.name, c.is_entry) for c in parsed.computations] == [
        ("main", True),
        ("main", True),
        ("body", False),
    ]
    assert (parsed.name, [a.name for a in parsed.attributes]) == ("first", ["is_scheduled"])
    assert parsed.entry is parsed.computations[0]
    line = SPLIT.splitlines().index("  ROOT x = f32[2] add(y, y)")
    found = [(parsed.range(i.span).start.line, i.message) for i in parsed.issues]
    assert [where for where, _ in found] == [line, line]
    assert all(message.startswith("Operand 'y' is not an instruction") for _, message in found)


def test_only_a_line_of_exactly_five_dashes_splits() -> None:
    """A comment rule of more dashes is a comment (XLA's tools read such a file whole)."""
    text = (
        "// ------------\n// About this test.\n// ------------\nHloModule m\n\n"
        "ENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n"
    )
    parsed = parse_hlo(text)
    assert parsed.issues == [] and parsed.name == "m"
    assert parse_hlo(text.replace("\n", "\r\n")).issues == []


def test_an_unterminated_string_in_one_module_leaves_the_next_one_read() -> None:
    text = (
        'HloModule a\nENTRY e {\n  ROOT c = f32[] custom-call(), custom_call_target="x\n}\n'
        "// -----\nHloModule b\nENTRY e {\n  ROOT q = f32[2] add(z, z)\n}\n"
    )
    messages = [issue.message for issue in parse_hlo(text).issues]
    assert messages[0].startswith("Unterminated string")
    assert [m for m in messages if m.startswith("Operand 'z'")] == [messages[1], messages[2]]


def test_an_instruction_without_a_shape_where_xla_infers_it() -> None:
    """``ParseInstructionRhs``: the shape may be left out before an opcode whose shape XLA
    infers (``CanInferShape``); ``parameter``, ``constant``, ``fusion`` and the like need it."""
    text = (
        "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  b = s32[2] parameter(1)\n"
        "  n = negate(a)\n  ROOT t = tuple(n, b)\n}\n"
    )
    parsed = parse_hlo(text)
    assert parsed.issues == []
    entry = parsed.computations[0]
    root = entry.root
    assert root is not None and root.opcode == "tuple" and root.shape.text == ""
    assert root.shape.num_elements is None and [o.name for o in root.operands] == ["n", "b"]
    assert entry.by_name["n"].shape.text == ""
    broken = parse_hlo("HloModule m\nENTRY e {\n  ROOT p = parameter(0)\n}\n")
    assert [(parsed.range(i.span).start.line, i.message[:44]) for i in broken.issues] == [
        (2, "Expected a shape before opcode 'parameter'; ")
    ]


def test_splitting_is_linear_in_the_input() -> None:
    module = "HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n"
    assert_doubling_linear(lambda n: (module + "// -----\n") * n, parse_hlo, 64)
    assert_doubling_linear(lambda n: "  // ----\n" * n + module, parse_hlo, 256)


def test_an_inferred_shape_root_tuple_gives_its_findings() -> None:
    text = (
        "fused {\n  ROOT q = f32[2] parameter(0)\n}\n\nENTRY e {\n  p = f32[2] parameter(0)\n"
        "  n = negate(p)\n  ROOT t = tuple(p, n, n)\n}\n"
    )
    findings = analyze("m.hlo", text, Settings())
    assert [(f.code, f.range.start.line) for f in findings] == [("TL001", 7), ("TL003", 7)]
    fixes = [f.fix for f in findings if f.fix is not None]
    fixed = apply_edits(text, edits_by_path(fixes)["m.hlo"])
    assert fixed == text.replace(
        "  ROOT t = tuple(p, n, n)\n",
        "  p.copy = f32[2] copy(p)\n  n.copy = copy(n)\n  ROOT t = tuple(p.copy, n, n.copy)\n",
    )  # (the copy of a value whose shape XLA infers has its shape inferred too)
    assert analyze("m.hlo", fixed, Settings()) == []
