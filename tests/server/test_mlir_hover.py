"""Hover on every value, op, @symbol and ^label of a .mlir document, end to end (issue 30,
point 2): types, producers on one line, uses, signatures, block arguments and predecessors,
in pretty and generic form, beside TensorizerLegalization's own section for @main's
outputs; plain text for clients that take no Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from passlint import pipeline
from passlint.analysis.source import SourceText
from passlint.analysis.text_change import replace_span
from passlint.server.hover import mlir_hover
from passlint.server.mlir_index import MlirIndex, build_index
from passlint.server.views import MlirView, Shift

from .conftest import Session, doc, pos

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

DATA = Path(__file__).resolve().parents[1] / "data"
RULE = "\n\n---\n\n"  # between what a thing is and what the pass does with it
LONG = "0123456789" * 12
LAYOUTS = (
    "operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]"
)

PRETTY = f"""\
module @m {{
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {{output_names = ["sum", "same"]}} {{
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    %1 = func.call @twice(%0) : (tensor<4xf32>) -> tensor<4xf32>
    %2:2 = stablehlo.while(%iterArg = %1, %iterArg_0 = %0) : tensor<4xf32>, tensor<4xf32>
     cond {{
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    }} do {{
      stablehlo.return %iterArg, %iterArg_0 : tensor<4xf32>, tensor<4xf32>
    }}
    %3 = stablehlo.custom_call @target(%2#0) {{backend_config = "{LONG}", {LAYOUTS}}} : (tensor<4xf32>) -> tensor<4xf32>
    %4 = stablehlo.custom_call @target(%3) {{note = "`x`\x1b[2J"}} : (tensor<4xf32>) -> tensor<4xf32>
    return %2#1, %arg0 : tensor<4xf32>, tensor<4xf32>
  }}
  func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {{
    %0 = stablehlo.add %x, %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }}
  func.func private @loop(%n: tensor<i32>) -> tensor<i32> {{
    cf.br ^bb1(%n : tensor<i32>)
  ^bb1(%i: tensor<i32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    cf.cond_br %c, ^bb2, ^bb1(%i : tensor<i32>)
  ^bb2:
    return %i : tensor<i32>
  }}
}}
"""

GENERIC = """\
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "func.call"(%0) <{callee = @helper}> : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%1) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "helper", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    "func.return"(%arg0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
"""

TYPES = """\
func.func @f(%t: tensor<4xf32>, %i: index, %a: i32, %b: i32) -> i1 {
  %e = tensor.extract %t[%i] : tensor<4xf32>
  %c = arith.cmpi slt, %a, %b : i32
  %n = arith.index_cast %i : index to i32
  %s = arith.select %c, %a, %b : i32
  %r = scf.for %k = %i to %i step %i iter_args(%acc = %a) -> (i32) {
    scf.yield %acc : i32
  }
  "x.use"(%e) : (f32) -> ()
  return %c : i1
}
func.func @g(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %z), (%y init: %w) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>)  {
    stablehlo.return %a, %c : tensor<f32>, tensor<i32>
  }
  return %r#0 : tensor<f32>
}
"""

REFERENCES = """\
module @refs {
  ml_program.global private mutable @g(dense<1.0> : tensor<f32>) : tensor<f32>
  func.func @main() -> tensor<f32> {
    %0 = ml_program.global_load @g : tensor<f32>
    ml_program.global_store @g = %0 : tensor<f32>
    %f = func.constant @main : () -> tensor<f32>
    %p = llvm.mlir.addressof @g : !llvm.ptr
    return %0 : tensor<f32>
  }
}
"""


def where(text: str, needle: str, nth: int = 0, into: int = 1) -> types.Position:
    """The position ``into`` characters into the ``nth`` occurrence of ``needle``."""
    found = -1
    for _ in range(nth + 1):
        found = text.index(needle, found + 1)
    before = text[: found + into]
    return pos(before.count("\n"), len(before) - before.rfind("\n") - 1)


async def hover(session: Session, uri: str, needle: str, nth: int = 0, into: int = 1) -> str:
    found = await hover_at(session, uri, needle, nth, into)
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    return found.contents.value


async def hover_at(
    session: Session, uri: str, needle: str, nth: int = 0, into: int = 1
) -> types.Hover | None:
    position = where(session.texts[uri], needle, nth, into)
    return await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=position)
    )


async def opened(session: Session, name: str, text: str) -> str:
    uri = session.open(name, text)
    await session.diagnostics(uri)
    return uri


# -- values ----------------------------------------------------------------------------------------


async def test_a_value_shows_its_type_producer_and_uses(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    expected = (
        "`%0`: `tensor<4xf32>`\n\n"
        "result 0 of `stablehlo.add` (line 3) · 2 uses\n\n"
        "```mlir\n%0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>\n```"
    )
    assert await hover(session, uri, "%0 = stablehlo.add %arg0") == expected  # definition
    assert await hover(session, uri, "@twice(%0)", into=8) == expected  # a use
    found = await hover_at(session, uri, "@twice(%0)", into=8)
    assert found is not None and found.range == types.Range(start=pos(3, 26), end=pos(3, 28))
    # @twice's own %0 is another value
    inner = await hover(session, uri, "%0 = stablehlo.add %x")
    assert inner.startswith("`%0`: `tensor<4xf32>`\n\nresult 0 of `stablehlo.add` (line 17)")


async def test_a_result_of_a_group_and_the_group(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    while_op = (
        "```mlir\n%2:2 = stablehlo.while(%iterArg = %1, %iterArg_0 = %0) : tensor<4xf32>, "
        "tensor<4xf32> cond {...} do {...}\n```"
    )
    one = await hover(session, uri, "%2#0)", into=2)
    assert one.startswith(
        f"`%2#0`: `tensor<4xf32>`\n\nresult 0 of `stablehlo.while` (line 5) · 1 use\n\n{while_op}"
    )
    group = await hover(session, uri, "%2:2")
    assert group.startswith(
        "`%2`: `(tensor<4xf32>, tensor<4xf32>)`\n\n"
        f"results 0, 1 of `stablehlo.while` (line 5) · 2 uses\n\n{while_op}"
    )


async def test_function_block_and_op_arguments(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    assert await hover(session, uri, "%arg1:") == (
        "`%arg1`: `tensor<4xf32>`\n\nargument 1 of `@main` (`func.func`, line 2) · 1 use"
    )
    assert await hover(session, uri, "%x, %x", into=5) == (
        "`%x`: `tensor<4xf32>`\n\nargument 0 of `@twice` (`func.func`, line 16) · 2 uses"
    )
    assert await hover(session, uri, "%i:") == (
        "`%i`: `tensor<i32>`\n\n"
        "argument 0 of block `^bb1` of `@loop` (`func.func`, line 20) · 2 uses"
    )
    # a while's iteration argument: typed by the op's signature, used in its regions
    assert await hover(session, uri, "%iterArg, %iterArg_0 :") == (
        "`%iterArg`: `tensor<4xf32>`\n\nargument 0 of `stablehlo.while` (line 5) · 1 use"
    )


async def test_types_are_what_the_text_spells(session: Session) -> None:
    """A lone ``: T`` types every result, unless it is an indexed operand's or a
    comparison's (then no type is shown rather than a wrong one); ``to`` and ``->`` split
    operand from result types; an operand's type is its definition's."""
    uri = await opened(session, "hover/types.mlir", TYPES)
    assert (await hover(session, uri, "%e =")).startswith(
        "`%e`\n\nresult 0 of `tensor.extract` (line 2)"
    )
    assert (await hover(session, uri, "%c =")).startswith("`%c`\n\nresult 0 of `arith.cmpi`")
    assert (await hover(session, uri, "%n =")).startswith("`%n`: `i32`\n\n")
    assert (await hover(session, uri, "%s =")).startswith("`%s`: `i32`\n\n")
    assert (await hover(session, uri, "%r =")).startswith("`%r`: `i32`\n\nresult 0 of `scf.for`")
    assert await hover(session, uri, "arith.cmpi", into=3) == (
        "`arith.cmpi` · 2 operands, 1 result\n\n"
        "- operands: `%a`: `i32`, `%b`: `i32`\n"
        "- results: `%c`"
    )
    # a generic op lists its operands' types in order: the type %e's definition leaves out
    assert await hover(session, uri, '"x.use"', into=2) == (
        "`x.use` · 1 operand, no results\n\n- operands: `%e`: `f32`"
    )
    # stablehlo.reduce lists inputs, then inits: each operand is typed by its definition
    assert await hover(session, uri, "stablehlo.reduce", into=3) == (
        "`stablehlo.reduce` · 4 operands, 2 results, 1 region\n\n"
        "- operands: `%x`: `tensor<4xf32>`, `%z`: `tensor<f32>`, `%y`: `tensor<4xi32>`, "
        "`%w`: `tensor<i32>`\n"
        "- results: `%r#0`: `tensor<f32>`, `%r#1`: `tensor<i32>`"
    )


# -- ops, symbols, labels ----------------------------------------------------------------------


async def test_an_op_shows_its_operands_results_successors_and_symbols(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    assert await hover(session, uri, "stablehlo.add %arg0", into=3) == (
        "`stablehlo.add` · 2 operands, 1 result\n\n"
        "- operands: `%arg0`: `tensor<4xf32>`, `%arg1`: `tensor<4xf32>`\n"
        "- results: `%0`: `tensor<4xf32>`"
    )
    assert await hover(session, uri, "cf.cond_br", into=3) == (
        "`cf.cond_br` · 2 operands, no results\n\n"
        "- operands: `%c`: `tensor<i1>`, `%i`: `tensor<i32>`\n"
        "- successors: `^bb2`, `^bb1`"
    )
    assert await hover(session, uri, "func.call", into=3) == (
        "`func.call` · 1 operand, 1 result\n\n"
        "- operands: `%0`: `tensor<4xf32>`\n"
        "- results: `%1`: `tensor<4xf32>`\n"
        "- symbols: `@twice`"
    )
    assert await hover(session, uri, "func.func private @twice", into=3) == (
        "`func.func` `@twice`: `(tensor<4xf32>) -> tensor<4xf32>` · no operands, no results, "
        "1 region"
    )


async def test_a_symbol_shows_its_signature_where_defined_and_used(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    expected = (
        "`func.func` `@twice`: `(tensor<4xf32>) -> tensor<4xf32>`\n\n"
        "defined on line 16 · 1 reference"
    )
    assert await hover(session, uri, "@twice(%0)", into=2) == expected
    assert await hover(session, uri, "@twice(%x", into=2) == expected
    assert await hover(session, uri, "@main", into=2) == (
        "`func.func` `@main`: `(tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)`"
        "\n\ndefined on line 2 · no references"
    )
    assert await hover(session, uri, "@m {", into=1) == (
        "`module` `@m`\n\ndefined on line 1 · no references\n\n```mlir\nmodule @m {...}\n```"
    )
    assert await hover(session, uri, "@target", into=2) == (
        "`@target`: no definition in this module · 2 references"
    )
    # a call's symbol is a reference: its definition is the function
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=where(PRETTY, "@twice(%0)", into=2))
    )
    assert isinstance(found, list) and len(found) == 1
    assert isinstance(found[0], types.Location) and found[0].range.start == pos(15, 20)


async def test_ops_that_refer_to_a_symbol_after_their_name(session: Session) -> None:
    """A global read, written or taken the address of, a function made a value: the symbol
    right after these ops' names is a reference; keywords before a symbol op's own symbol
    (``private mutable``) leave it its definition."""
    uri = await opened(session, "hover/references.mlir", REFERENCES)
    expected = (
        "`ml_program.global` `@g`\n\ndefined on line 2 · 3 references\n\n"
        "```mlir\nml_program.global private mutable @g(dense<1.0> : tensor<f32>) : "
        "tensor<f32>\n```"
    )
    assert await hover(session, uri, "@g :", into=1) == expected
    assert await hover(session, uri, "@g =", into=1) == expected
    assert await hover(session, uri, "@g : !", into=1) == expected
    assert await hover(session, uri, "@main :", into=2) == (
        "`func.func` `@main`: `() -> tensor<f32>`\n\ndefined on line 3 · 1 reference"
    )


async def test_a_label_shows_its_arguments_and_predecessors(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    expected = (
        "block `^bb1` of `@loop` (`func.func`, line 20)\n\n"
        "- arguments: `%i`: `tensor<i32>`\n"
        "- predecessors: the entry block (`cf.br`, line 21), `^bb1` (`cf.cond_br`, line 24)"
    )
    assert await hover(session, uri, "^bb1(%i") == expected  # its definition
    assert await hover(session, uri, "^bb1(%n") == expected  # a branch to it
    assert await hover(session, uri, "^bb2:") == (
        "block `^bb2` of `@loop` (`func.func`, line 20)\n\n"
        "- arguments: none\n"
        "- predecessors: `^bb1` (`cf.cond_br`, line 24)"
    )


# -- the pass's own section, generic form, long and hostile ops, plain text ------------------------


async def test_main_outputs_keep_the_pass_section(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    returned = await hover(session, uri, "%2#1,", into=2)
    what, outputs = returned.split(RULE)
    assert what.startswith("`%2#1`: `tensor<4xf32>`\n\nresult 1 of `stablehlo.while` (line 5)")
    assert outputs.startswith(
        "**TensorizerLegalization** (StableHLO variant)\n\n- output 0 `sum` (compute): "
    )
    op = await hover(session, uri, "stablehlo.while", into=3)
    assert op.startswith("`stablehlo.while` · 2 operands, 2 results, 2 regions")
    assert RULE + "**TensorizerLegalization**" in op and "- output 0 `sum`" in op
    argument = await hover(session, uri, "%arg0:")
    assert argument == (
        "`%arg0`: `tensor<4xf32>`\n\nargument 0 of `@main` (`func.func`, line 2) · 2 uses"
        f"{RULE}**TensorizerLegalization** (StableHLO variant)\n\n"
        "- output 1 `same` (input, TL001)"
    )


async def test_generic_form(session: Session) -> None:
    uri = await opened(session, "hover/generic.mlir", GENERIC)
    expected = (
        "`%0`: `tensor<4xf32>`\n\nresult 0 of `stablehlo.add` (line 4) · 1 use\n\n"
        '```mlir\n%0 = "stablehlo.add"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> '
        "tensor<4xf32>\n```"
    )
    assert await hover(session, uri, "%0 =") == expected
    assert await hover(session, uri, "%0) <{") == expected
    assert await hover(session, uri, '"stablehlo.add"', into=3) == (
        "`stablehlo.add` · 2 operands, 1 result\n\n"
        "- operands: `%arg0`: `tensor<4xf32>`, `%arg1`: `tensor<4xf32>`\n"
        "- results: `%0`: `tensor<4xf32>`"
    )
    # the callee, defined by a sym_name string: its signature is the function_type property
    assert await hover(session, uri, "@helper", into=2) == (
        "`func.func` `@helper`: `(tensor<4xf32>) -> tensor<4xf32>`\n\n"
        "defined on line 8 · 1 reference"
    )
    found = await session.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=where(GENERIC, "@helper"))
    )
    assert isinstance(found, list) and isinstance(found[0], types.Location)
    assert found[0].range.start == where(GENERIC, '"helper"', into=0)  # (its sym_name)
    assert await hover(session, uri, "%arg1:") == (
        "`%arg1`: `tensor<4xf32>`\n\n"
        "argument 1 of block `^bb0` of `@main` (`func.func`, line 2) · 1 use"
    )
    assert await hover(session, uri, "^bb0") == (
        "block `^bb0` (entry) of `@main` (`func.func`, line 2)\n\n"
        "- arguments: `%arg0`: `tensor<4xf32>`, `%arg1`: `tensor<4xf32>`\n"
        "- predecessors: none"
    )


async def test_long_and_hostile_ops_stay_on_one_safe_line(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    long = await hover(session, uri, "%3 =")
    assert long.endswith(
        "```mlir\n%3 = stablehlo.custom_call @target(%2#0) {...} : (tensor<4xf32>) -> "
        "tensor<4xf32>\n```"
    )
    hostile = await hover(session, uri, "%4 =")
    assert hostile.endswith(
        '```mlir\n%4 = stablehlo.custom_call @target(%3) {note = "\\x60x\\x60\\x1b[2J"} : '
        "(tensor<4xf32>) -> tensor<4xf32>\n```"
    )
    assert "\x1b" not in hostile


async def test_hover_follows_edits(session: Session) -> None:
    uri = await opened(session, "hover/pretty.mlir", PRETTY)
    session.edit(uri, types.Range(start=pos(2, 0), end=pos(2, 0)), "    // a comment\n")
    await session.diagnostics(uri)
    assert await hover(session, uri, "%0 = stablehlo.add %arg0") == (
        "`%0`: `tensor<4xf32>`\n\n"
        "result 0 of `stablehlo.add` (line 4) · 2 uses\n\n"
        "```mlir\n%0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>\n```"
    )


async def test_plain_text_clients(editor: Session) -> None:
    uri = await opened(editor, "hover/pretty.mlir", PRETTY)
    found = await hover_at(editor, uri, "%0 = stablehlo.add %arg0")
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    if editor.name != "eglot":
        assert found.contents.kind == types.MarkupKind.Markdown
        return
    assert found.contents.kind == types.MarkupKind.PlainText
    assert found.contents.value == (
        "%0: tensor<4xf32>\n\n"
        "result 0 of stablehlo.add (line 3) · 2 uses\n\n"
        "%0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>"
    )
    label = await hover(editor, uri, "^bb2:")
    assert "`" not in label and "**" not in label


# hybrid.mlir with a blank line in @main, where an edit touches no op
HYBRID = (DATA / "mlir" / "handmade__mhlo_fusion_hybrid.mlir").read_text()
SPACED = HYBRID.replace("    %1 = ", "\n    %1 = ", 1)


def moved_and_fresh(text: str, line: int, inserted: str) -> tuple[MlirView, MlirView]:
    """The view of ``text``'s index after ``inserted`` goes in at ``line``'s start, and the
    view of the new text's own index."""
    start = SourceText(text).line_starts[line]
    new_text, change = replace_span(text, start, start, inserted, line)
    source = SourceText(new_text)
    return MlirView(index_of(text), Shift([change]), source), MlirView(
        index_of(new_text), Shift(), source
    )


@pytest.mark.parametrize(("line", "inserted"), [(0, "// a comment\n"), (14, "    // a note\n")])
def test_a_moved_index_hovers_as_the_new_one(line: int, inserted: str) -> None:
    """Right after an edit the server answers from the last analysis through the edit's
    shift (``views``): everywhere off the changed lines, its hover is the new analysis'."""
    moved, fresh = moved_and_fresh(SPACED, line, inserted)
    changed = range(line, line + inserted.count("\n") + 1)  # (the line it went in too)
    answered = 0
    for offset in range(0, len(fresh.source.text), 2):
        if fresh.source.position(offset).line not in changed:
            found = mlir_hover(moved, offset)
            assert found == mlir_hover(fresh, offset), offset
            answered += found is not None
    assert answered > 200


def test_what_lies_on_a_changed_line_is_not_read() -> None:
    """A value whose op is on a line changed since the last analysis: its type and op wait
    for the new analysis; a block of an op on such a line names no op."""
    moved, _ = moved_and_fresh(HYBRID, 14, "    // a note\n")  # (%1's line is changed)
    text = moved.source.text
    found = mlir_hover(moved, text.index("%1, %cst") + 1)
    assert found is not None and found[0].startswith("`%1` · 1 use" + RULE)
    found = mlir_hover(moved, text.index("^bb0(%q0") + 1)
    assert found is not None
    assert found[0].startswith("block `^bb0` (entry) of an op on a changed line\n\n")


def index_of(text: str) -> MlirIndex:
    analysis = pipeline.analyze_document("x.mlir", text)
    assert analysis.parsed is not None
    return build_index(analysis.parsed, SourceText(text), analysis.tensorizer, analysis.findings)
