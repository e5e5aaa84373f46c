"""The IR built by parse_file: ops, results, uses and their resolution, block arguments,
regions, attribute groups, types, locations and exact spans."""

from __future__ import annotations

import time

import pytest
from mlir_testing import CONSTRUCTS, DATA, at, lc, op_defining, op_named, ops, read

from passlint.analysis.mlir import statements
from passlint.analysis.mlir.fast import templates
from passlint.analysis.mlir.ir import BlockArgument, OpResult, function_name
from passlint.analysis.mlir.lexer import Tok, tokenize
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file


def construct(name: str) -> str:
    return (CONSTRUCTS / name).read_text(encoding="utf-8")


# -- modules -------------------------------------------------------------------------------


def test_explicit_module() -> None:
    text = read("jax__identity.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    (chunk,) = parsed.chunks
    (module,) = chunk.operations
    assert module.name == "module"
    assert module.symbols == ["jit__lambda"]
    assert module.words[:1] == ["attributes"]
    assert [(a.key, a.value, a.group) for a in module.attributes] == [
        ("mhlo.num_partitions", "1 : i32", "dict"),
        ("mhlo.num_replicas", "1 : i32", "dict"),
    ]
    (region,) = module.regions
    assert lc(text, region.span[0]) == (1, 93)
    assert region.span[1] == len(text.rstrip("\n"))
    (func,) = chunk.top_level_operations()
    assert func.name == "func.func" and func.parent_op is module
    assert list(chunk.functions()) == ["main"]
    assert func.words == ["public"]


def test_implicit_module_aliases_and_other_top_level_ops() -> None:
    text = construct("implicit_module.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    (chunk,) = parsed.chunks
    assert [op.name for op in chunk.operations] == ["sdy.mesh", "func.func"]
    assert [op.name for op in chunk.top_level_operations()] == ["sdy.mesh", "func.func"]
    mesh = chunk.operations[0]
    assert at(text, mesh.span) == 'sdy.mesh @mesh = <["x"=2]>'
    assert mesh.symbols == ["mesh"]
    # Aliases, including `#loc` aliases defined after their use.
    assert list(chunk.aliases) == ["#map", "!t", "#loc", "#loc1", "#loc2", "#loc3"]
    assert lc(text, chunk.aliases["#loc"][0]) == (12, 1)
    assert at(text, chunk.aliases["!t"]) == "!t"
    assert list(chunk.functions()) == ["f"]


def test_locations_in_every_position() -> None:
    text = construct("implicit_module.mlir")
    parsed = parse_file(text)
    func = op_named(parsed, "func.func")
    # A location trailing the closing brace belongs to the function statement.
    assert at(text, func.location_span) == "loc(#loc)"
    assert text[func.span[0] : func.span[1]].endswith("} loc(#loc)")
    # Function arguments: the type stops before the location and the attribute dictionary.
    a, b = func.header_arguments
    assert (a.name, a.type_text) == ("%a", "!t")
    assert (b.name, b.type_text) == ("%b", "tensor<?x8xf32>")
    assert lc(text, a.span[0]) == (4, 14)
    assert at(text, b.type_span) == "tensor<?x8xf32>"
    locations = {op.name: at(text, op.location_span) for op in ops(parsed) if op.location_span}
    assert locations == {
        "func.func": "loc(#loc)",
        "test.two": "loc(#loc3)",
        "some.op": "loc(callsite(#loc1 at #loc2))",
        "return": "loc(unknown)",
    }
    # Types inside a location are not part of the signature.
    assert [t.text for t in op_named(parsed, "some.op").signature_types()[1]] == ["!t"]


def test_debuginfo_locations_on_block_arguments_and_closing_braces() -> None:
    text = read("jax__mlp_big_matmul__debuginfo.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    module = parsed.chunks[0].operations[0]
    assert at(text, module.location_span) == "loc(#loc)"
    main, relu = parsed.chunks[0].top_level_operations()
    assert [arg.type_text for arg in main.header_arguments][:2] == [
        "tensor<512x512xf32>",
        "tensor<512xf32>",
    ]
    assert at(text, relu.location_span) == "loc(#loc24)"
    assert relu.header_arguments[0].type_text == "tensor<64x512xf32>"
    assert "#loc32" in parsed.chunks[0].aliases


# -- functions -----------------------------------------------------------------------------


def test_generic_func_func() -> None:
    text = construct("generic_func.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    (func,) = parsed.chunks[0].operations
    assert func.name == "func.func" and func.is_generic
    assert function_name(func) == "main"
    assert parsed.chunks[0].functions() == {"main": func}
    assert [(a.key, a.value, a.group) for a in func.attributes] == [
        ("function_type", "(tensor<4xf32>) -> tensor<4xf32>", "properties"),
        ("sym_name", '"main"', "properties"),
    ]
    assert [at(text, s) for s in func.attribute_group_spans("properties")] == [
        '{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}'
    ]
    (region,) = func.regions
    (block,) = region.blocks
    assert block.label == "^bb0" and at(text, block.label_span) == "^bb0"
    assert block.label_span is not None and lc(text, block.label_span[0]) == (2, 1)
    (arg,) = block.arguments
    assert (arg.name, arg.type_text, arg.owner) == ("%arg0", "tensor<4xf32>", func)
    add, ret = block.operations
    assert ret.name == "func.return" and ret.is_generic
    assert [u.value for u in add.operands] == [arg, arg]
    assert ret.operands[0].value is add.results[0]
    assert [t.text for t in ret.signature_types()[0]] == ["tensor<4xf32>"]
    assert ret.signature_types()[1] == []


def test_pretty_func_signature_and_return_forms() -> None:
    text = read("handmade__mhlo_fusion_hybrid.mlir")
    parsed = parse_file(text)
    funcs = parsed.chunks[0].functions()
    assert list(funcs) == ["main", "my.scale"]
    main = funcs["main"]
    assert [a.name for a in main.header_arguments] == ["%arg0", "%arg1", "%arg2"]
    assert [a.type_text for a in main.header_arguments] == [
        "tensor<8x4xf32>",
        "tensor<4xf32>",
        "tensor<0x4xf32>",
    ]
    assert main.attribute("output_names") is not None
    assert main.words == ["attributes"]
    returns = [op.name for op in ops(parsed) if op.name.endswith("return")]
    assert returns == ["mhlo.return", "mhlo.return", "mhlo.return", "func.return", "return"]
    assert funcs["my.scale"].words[:1] == ["private"]


# -- results and uses ----------------------------------------------------------------------


def test_result_groups_and_numbered_uses() -> None:
    text = construct("implicit_module.mlir")
    parsed = parse_file(text)
    two = op_named(parsed, "test.two")
    assert [r.name for r in two.results] == ["%x", "%y"]
    assert [lc(text, r.span[0]) for r in two.results] == [(5, 3), (5, 7)]
    foo = op_named(parsed, "chlo.foo")
    assert [(r.name, r.index, at(text, r.span)) for r in foo.results] == [
        ("%0#0", 0, "%0"),
        ("%0#1", 1, "%0"),
    ]
    assert all(isinstance(r, OpResult) and r.op is foo for r in foo.results)
    assert [u.value for u in foo.operands] == two.results
    add = op_named(parsed, "tosa.add")
    assert [(u.name, lc(text, u.span[0]), u.span[1] - u.span[0]) for u in add.operands] == [
        ("%0#0", (7, 17), 4),
        ("%0#1", (7, 23), 4),
    ]
    assert [u.value for u in add.operands] == foo.results
    assert [u.operand_index for u in add.operands] == [0, 1]
    assert foo.results[1].uses == [add.operands[1]]
    # An op of an unknown dialect without results still records its uses.
    check = op_named(parsed, "check.expect_almost_eq")
    assert check.results == []
    assert [u.value for u in check.operands] == [add.results[0], two.operands[0].value]


def test_group_name_without_index_uses_the_first_result() -> None:
    parsed = parse_file("%0:2 = a.b : f32\nc.d %0 : f32\n")
    assert parsed.errors == []
    b, d = ops(parsed)
    assert d.operands[0].value is b.results[0]


def test_unresolved_use_has_no_value() -> None:
    parsed = parse_file("func.func @f() {\n  c.d %nowhere : f32\n}\n")
    assert [(e.code, e.message) for e in parsed.errors] == [
        ("E003", "Use of undeclared SSA value name `%nowhere`; define it before this use.")
    ]
    (use,) = op_named(parsed, "c.d").operands
    assert use.name == "%nowhere" and use.value is None


def test_every_function_restarts_numbering() -> None:
    text = read("jax__while_fori_loop.mlir")
    parsed = parse_file(text)
    _main, closed = parsed.chunks[0].functions().values()
    ret = next(op for op in closed.walk() if op.name == "return")
    assert [u.value.op for u in ret.operands if isinstance(u.value, OpResult)] == [
        closed.regions[0].operations[1],
        closed.regions[0].operations[7],
    ]
    assert all(u.value is not None for op in ops(parsed) for u in op.operands)


# -- block arguments -----------------------------------------------------------------------


def test_while_bindings_and_sibling_regions() -> None:
    text = read("jax__while_fori_loop.mlir")
    parsed = parse_file(text)
    loop = op_named(parsed, "stablehlo.while")
    assert [r.name for r in loop.results] == ["%0#0", "%0#1", "%0#2"]
    assert [(a.name, lc(text, a.span[0])) for a in loop.header_arguments] == [
        ("%iterArg", (5, 28)),
        ("%iterArg_1", (5, 45)),
        ("%iterArg_2", (5, 62)),
    ]
    assert all(isinstance(a, BlockArgument) and a.owner is loop for a in loop.header_arguments)
    assert [u.name for u in loop.operands] == ["%c_0", "%c", "%arg0"]
    cond, body = loop.regions
    assert at(text, (cond.span[0], cond.span[0] + 1)) == "{"
    assert lc(text, cond.span[0]) == (6, 10) and lc(text, body.span[0]) == (10, 10)
    # Both regions define %c_3: each use sees its own region's definition.
    cond_c3 = cond.operations[0].results[0]
    body_c3 = body.operations[1].results[0]
    assert cond.operations[1].operands[1].value is cond_c3
    assert body.operations[2].operands[1].value is body_c3
    # %iterArg is visible in both regions.
    assert cond.operations[1].operands[0].value is loop.header_arguments[0]
    assert body.operations[2].operands[0].value is loop.header_arguments[0]
    assert [u.value for u in body.operations[3].operands][1:] == body.operations[0].results
    # The loop's results are used after it.
    assert loop.parent is not None
    ret = next(op for op in loop.parent.operations if op.name == "return")
    assert ret.operands[0].value is loop.results[2]


def test_reducer_arguments() -> None:
    text = read("jax__reduce_argmax.mlir")
    parsed = parse_file(text)
    reduce = op_defining(parsed, "%1#0")
    assert [(a.name, a.type_text) for a in reduce.header_arguments] == [
        ("%arg1", "tensor<f32>"),
        ("%arg3", "tensor<f32>"),
        ("%arg2", "tensor<i32>"),
        ("%arg4", "tensor<i32>"),
    ]
    assert [u.name for u in reduce.operands] == ["%arg0", "%cst", "%0", "%c"]
    (region,) = reduce.regions
    compare = region.operations[0]
    assert [u.value for u in compare.operands] == [
        reduce.header_arguments[0],
        reduce.header_arguments[1],
    ]
    assert lc(text, region.span[0]) == (15, 96)


def test_label_arguments_successors_and_region_scopes() -> None:
    text = construct("regions.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    main = parsed.chunks[0].functions()["main"]
    blocks = main.regions[0].blocks
    assert [(b.label, [a.name for a in b.arguments]) for b in blocks] == [
        (None, []),
        ("^bb1", ["%x"]),
        ("^bb2", []),
    ]
    cond_br = blocks[0].operations[-1]
    assert [u.name for u in cond_br.operands] == ["%arg1", "%2"]
    # manual_computation: header arguments after the attribute groups.
    manual = op_named(parsed, "sdy.manual_computation")
    assert [(a.name, a.type_text) for a in manual.header_arguments] == [("%arg2", "tensor<4xf32>")]
    assert manual.regions[0].operations[0].operands[0].value is manual.header_arguments[0]
    # A region's own %1 shadows the function's %1 defined after it.
    sdy_return = op_named(parsed, "sdy.return")
    assert sdy_return.operands[0].value is manual.regions[0].operations[0].results[0]
    # Sibling regions of stablehlo.if reuse %2; each resolves to its own.
    if_op = op_named(parsed, "stablehlo.if")
    for region in if_op.regions:
        assert region.operations[1].operands[0].value is region.operations[0].results[0]
    # Nested label arguments: %b of the outer block is visible inside the while regions.
    reduce = op_named(parsed, "stablehlo.reduce")
    (outer_block,) = reduce.regions[0].blocks
    a_arg, b_arg = outer_block.arguments
    compare = op_named(parsed, "stablehlo.compare")
    assert compare.operands[1].value is b_arg
    assert op_named(parsed, "stablehlo.add").operands[1].value is a_arg
    assert [lc(text, a.span[0]) for a in outer_block.arguments] == [(17, 10), (17, 27)]
    # Names defined in a region are not visible after it.
    ret = blocks[2].operations[0]
    assert [u.value for u in ret.operands] == [if_op.results[0], reduce.results[0]]


def test_region_scope_pops() -> None:
    text = (
        'func.func @f() {\n  "a.b"() ({\n    %inner = c.d : f32\n  }) : () -> ()\n  e.f %inner\n}\n'
    )
    parsed = parse_file(text)
    assert [(e.code, at(text, (e.start, e.end))) for e in parsed.errors] == [("E003", "%inner")]
    assert op_named(parsed, "e.f").operands[0].value is None


def test_isolated_functions_do_not_see_outer_values() -> None:
    text = "%0 = a.b : f32\nfunc.func @f() {\n  c.d %0 : f32\n}\ne.f %0\n"
    parsed = parse_file(text)
    assert op_named(parsed, "c.d").operands[0].value is None
    assert op_named(parsed, "e.f").operands[0].value is op_named(parsed, "a.b").results[0]


# -- known ops -----------------------------------------------------------------------------


def test_fusion_kinds_regions_and_terminators() -> None:
    text = read("handmade__mhlo_fusion_hybrid.mlir")
    parsed = parse_file(text)
    loop, sched, custom = [op for op in ops(parsed) if op.name == "mhlo.fusion"]
    assert all(op.is_generic for op in (loop, sched, custom))
    kind = loop.attribute("fusion_kind")
    assert kind is not None and (kind.value, kind.group) == (
        "#mhlo<fusion_kind kLoop>",
        "properties",
    )
    assert lc(text, kind.key_span[0]) == (8, 40)
    assert loop.attribute("output_operand_aliasing") is not None
    assert [at(text, s) for s in loop.attribute_group_spans("dict")] == [
        "{output_operand_aliasing = []}"
    ]
    fusion_kind = sched.attribute("FusionKind")
    assert fusion_kind is not None
    assert (fusion_kind.value, fusion_kind.group) == ('"ScheduleFusion"', "dict")
    custom_kind = custom.attribute("fusion_kind")
    assert custom_kind is not None and custom_kind.value == "#mhlo<fusion_kind kCustom>"
    assert [r.name for r in custom.results] == ["%2#0", "%2#1"]
    # Region terminators and the fusion's block arguments.
    (block,) = loop.regions[0].blocks
    assert [a.name for a in block.arguments] == ["%p0", "%p1"]
    terminator = block.operations[-1]
    assert terminator.name == "mhlo.return"
    assert terminator.operands[0].value is block.operations[-2].results[0]
    assert (
        custom.regions[0].operations[-1].operands[1].value
        is custom.regions[0].blocks[0].arguments[0]
    )
    assert [t.text for t in custom.signature_types()[1]] == ["tensor<4xf32>", "tensor<4xf32>"]


def test_composite_name_and_decomposition() -> None:
    text = read("jax__composite_op.mlir")
    parsed = parse_file(text)
    composite = op_named(parsed, "stablehlo.composite")
    assert composite.tok_text(composite.template.name + 1) == '"my.normalize"'
    decomposition = composite.attribute("decomposition")
    assert decomposition is not None and decomposition.value == "@my.normalize"
    attrs = composite.attribute("composite_attributes")
    assert attrs is not None and attrs.value == "{eps = 9.9999999999999995E-7 : f64}"
    assert "my.normalize" in parsed.chunks[0].functions()
    assert [t.text for t in composite.signature_types()[0]] == ["tensor<8xf32>"]
    assert [t.text for t in composite.signature_types()[1]] == ["tensor<8xf32>"]
    hybrid = parse_file(read("handmade__mhlo_fusion_hybrid.mlir"))
    version = op_named(hybrid, "stablehlo.composite").attribute("version")
    assert version is not None and version.value == "1 : i32"


def test_constants_and_copies() -> None:
    text = construct("split_lit_test.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    consts = [op for op in ops(parsed) if op.name.endswith(".constant")]
    assert [(op.name, op.is_generic) for op in consts] == [
        ("stablehlo.constant", False),
        ("stablehlo.constant", False),
        ("mhlo.constant", False),
        ("mhlo.constant", True),
    ]
    values = [
        at(text, (op.name_span[1] + 1, op.tok_span(op.template.colon)[0] - 1)) for op in consts[:3]
    ]
    assert values == ['dense<"0x0000803F00000040">', "dense<>", "dense_resource<blob1>"]
    assert [op.signature_types()[0][0].text for op in consts[:3]] == [
        "tensor<2xf32>",
        "tensor<0x4xf32>",
        "tensor<4xf32>",
    ]
    assert consts[3].signature_types()[0] == []  # generic: `: () -> tensor<2xi32>`
    assert consts[1].signature_types()[0][0].shaped is not None
    assert consts[1].signature_types()[0][0].shaped.num_elements == 0  # type: ignore[union-attr]
    generic_value = consts[3].attribute("value")
    assert generic_value is not None and generic_value.value == "dense<[1, 2]> : tensor<2xi32>"
    assert [t.text for t in consts[3].signature_types()[1]] == ["tensor<2xi32>"]
    generic_copy, pretty_copy = [op for op in ops(parsed) if op.name == "mhlo.copy"]
    assert generic_copy.is_generic and not pretty_copy.is_generic
    assert generic_copy.operands[0].value is consts[0].results[0]
    assert pretty_copy.operands[0].value is generic_copy.results[0]
    assert [t.text for t in pretty_copy.signature_types()[0]] == ["tensor<2xf32>"]
    assert pretty_copy.signature_types()[1] == []


def test_custom_calls_convolutions_and_dot_general() -> None:
    text = construct("split_lit_test.mlir")
    parsed = parse_file(text)
    conv = op_named(parsed, "stablehlo.convolution")
    assert [u.name for u in conv.operands] == ["%arg0", "%arg1"]
    before, after = conv.signature_types()
    assert [t.text for t in before] == ["tensor<1x8x8x207xf32>", "tensor<3x3x207x16xf32>"]
    assert [t.text for t in after] == ["tensor<1x6x6x16xf32>"]
    # `window = {...}` is a custom group, not the attribute dictionary.
    assert [a.key for a in conv.attributes] == ["batch_group_count", "feature_group_count"]
    generic_conv = op_named(parsed, "mhlo.convolution")
    dims = generic_conv.attribute("conv")
    assert (
        dims is not None
        and dims.value == "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>"
    )
    dot = op_named(parsed, "stablehlo.dot_general")
    assert [u.name for u in dot.operands] == ["%a", "%b"]
    assert [t.text for t in dot.signature_types()[1]] == ["tensor<2x4xf32>"]
    generic_call, pretty_call = [op for op in ops(parsed) if op.name == "stablehlo.custom_call"]
    target = generic_call.attribute("call_target_name")
    assert target is not None and target.value == '"foo"'
    assert lc(text, target.key_span[0]) == (7, 5)
    assert pretty_call.symbols == ["bar"]
    assert pretty_call.operands[0].value is generic_call.results[0]
    # Continuation lines `:` and `->` belong to the op.
    add = op_named(parsed, "stablehlo.add")
    assert at(text, add.span).endswith("-> tensor<2x4xf32>")
    assert [t.text for t in add.signature_types()[1]] == ["tensor<2x4xf32>"]


# -- attribute groups ----------------------------------------------------------------------


def test_lone_dictionary_on_its_own_line() -> None:
    text = construct("lone_dictionary.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    call = op_named(parsed, "mhlo.custom_call")
    assert len(call.regions) == 0
    assert [(a.key, a.value) for a in call.attributes] == [
        ("call_target_name", '"foo"'),
        ("backend_config", '""'),
    ]
    (group,) = call.attribute_group_spans()
    assert lc(text, group[0]) == (3, 3) and lc(text, group[1]) == (6, 4)
    unit = op_named(parsed, "test.unit")
    assert len(unit.regions) == 0
    assert [(a.key, a.value, a.value_span) for a in unit.attributes] == [("flag", None, None)]
    assert len(op_named(parsed, "test.empty").regions) == 0
    assert len(op_named(parsed, "test.region").regions) == 1
    assert len(op_named(parsed, "test.region2").regions) == 1
    assert len(op_named(parsed, "stablehlo.case").regions) == 2
    assert [op.name for op in parsed.chunks[0].operations[0].regions[0].operations] == [
        "mhlo.custom_call",
        "test.unit",
        "test.empty",
        "test.region",
        "test.region2",
        "stablehlo.case",
        "return",
    ]


def test_properties_and_dictionary_together() -> None:
    text = '%x = "a.c"() : () -> f32\n%0 = "a.b"(%x) <{p = 1 : i32}> {d = "s", u} : (f32) -> f32\n'
    parsed = parse_file(text)
    assert parsed.errors == []
    op = op_named(parsed, "a.b")
    assert [(a.key, a.value, a.group) for a in op.attributes] == [
        ("p", "1 : i32", "properties"),
        ("d", '"s"', "dict"),
        ("u", None, "dict"),
    ]
    assert [at(text, s) for s in op.attribute_group_spans("properties")] == ["{p = 1 : i32}"]
    assert [at(text, s) for s in op.attribute_group_spans()] == ['{d = "s", u}']
    assert op.attribute("missing") is None


def test_quoted_attribute_keys() -> None:
    parsed = parse_file('"a.b"() {"quoted key" = 1} : () -> ()\n')
    assert [a.key for a in ops(parsed)[0].attributes] == ["quoted key"]


# -- spans ---------------------------------------------------------------------------------


def test_op_spans_names_and_headers() -> None:
    text = read("handmade__mhlo_fusion_hybrid.mlir")
    parsed = parse_file(text)
    fusion = op_named(parsed, "mhlo.fusion")
    assert lc(text, fusion.span[0]) == (8, 5)
    assert lc(text, fusion.span[1]) == (14, 92)  # the end of its line
    assert text[fusion.span[1]] == "\n"
    assert at(text, fusion.name_span) == '"mhlo.fusion"'
    region = fusion.regions[0]
    assert lc(text, region.span[0]) == (8, 82) and lc(text, region.span[1] - 1) == (14, 5)
    assert region.parent is fusion
    copy = op_named(parsed, "mhlo.copy")
    assert at(text, copy.span) == "%12 = mhlo.copy %11 : tensor<8x4xf32>"
    assert at(text, copy.name_span) == "mhlo.copy"
    assert copy.header_span == copy.span
    assert copy.dialect == "mhlo"
    assert [at(text, r.span) for r in copy.results] == ["%12"]
    assert [at(text, u.span) for u in copy.operands] == ["%11"]
    assert copy.parent is region.blocks[0] and copy.parent_op is fusion


def test_types_of_an_op() -> None:
    text = "%0 = a.b %x : (tensor<2x?xf32>, !t) -> tuple<tensor<i32>, tensor<f32>>\n"
    (op,) = ops(parse_file(text))
    before, after = op.signature_types()
    assert [t.text for t in before] == ["tensor<2x?xf32>", "!t"]
    assert [t.text for t in after] == ["tuple<tensor<i32>, tensor<f32>>"]
    shaped = before[0].shaped
    assert shaped is not None and shaped.shape == (2, None)
    assert before[1].shaped is None
    assert at(text, before[0].span) == "tensor<2x?xf32>"


# -- resources, hex strings, caching -------------------------------------------------------


def test_dialect_resources_section() -> None:
    text = read("jaxlib__dense_resource_blob.mlir")
    parsed = parse_file(text)
    assert parsed.errors == []
    (module,) = parsed.chunks[0].operations
    assert module.name == "module"
    const = op_named(parsed, "stablehlo.constant")
    assert "dense_resource<my_weights>" in at(text, const.span)


def test_multi_megabyte_hex_string() -> None:
    blob = "0x" + "0000803F" * 500_000  # 4 MB
    text = (
        "module {\n"
        "  func.func @main() -> tensor<500000xf32> {\n"
        f'    %cst = stablehlo.constant dense<"{blob}"> : tensor<500000xf32>\n'
        "    return %cst : tensor<500000xf32>\n"
        "  }\n"
        "}\n"
        "{-#\n  dialect_resources: {\n    builtin: {\n"
        f'      blob: "{blob}"\n'
        "    }\n  }\n#-}\n"
    )
    started = time.perf_counter()
    parsed = parse_file(text)
    elapsed = time.perf_counter() - started
    assert parsed.errors == []
    const = op_named(parsed, "stablehlo.constant")
    assert [t.text for t in const.signature_types()[0]] == ["tensor<500000xf32>"]
    assert op_named(parsed, "return").operands[0].value is const.results[0]
    assert elapsed < 30  # generous: shared CI machines


def summary(parsed: object) -> list[tuple[object, ...]]:
    from passlint.analysis.mlir.ir import ParsedFile

    assert isinstance(parsed, ParsedFile)
    out: list[tuple[object, ...]] = []
    for op in ops(parsed):
        out.append(
            (
                op.name,
                op.span,
                [(r.name, r.span) for r in op.results],
                [(u.name, u.span, u.value.span if u.value else None) for u in op.operands],
                [(a.name, a.span, a.type_span) for a in op.header_arguments],
                [(a.key, a.key_span, a.value_span, a.group) for a in op.attributes],
                [t.span for t in op.types],
                op.location_span,
                [r.span for r in op.regions],
            )
        )
    return out


@pytest.mark.parametrize(
    "name", ["handmade__mhlo_fusion_hybrid.mlir", "jax__mlp_big_matmul__debuginfo.mlir"]
)
def test_cached_and_fresh_parses_are_equal(name: str) -> None:
    text = read(name)
    shifted = "\n\n  // shifted\n" + text
    memo = MlirMemo()
    cold = summary(parse_file(text, memo))
    warm = summary(parse_file(text, memo))
    fresh = summary(parse_file(text))
    assert cold == warm == fresh
    # The memo is keyed by kind sequences: shifted text reuses templates with its own offsets.
    again = summary(parse_file(shifted, memo))
    assert again == summary(parse_file(shifted))


def test_cached_templates_are_the_templates_of_their_own_kinds_and_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On every fixture, cold and warm: a statement's text between its regions keys its
    template, which is the one its token kinds and words give; and a template shared by
    statements whose words differ only where the checks do not look (``word_class``) is the
    one built for the statement's own words."""
    by_text = by_class = 0
    real_by_text, real_by_kinds = templates.parse_statement, templates.by_kinds_and_words

    def text_keyed(
        text: str, toks: list[Tok], pieces: tuple[str, ...], memo: MlirMemo
    ) -> statements.Template | statements.StatementError:
        nonlocal by_text
        found = real_by_text(text, toks, pieces, memo)
        assert found == statements.parse_statement(text, toks)
        by_text += 1
        return found

    def class_keyed(
        text: str, toks: list[Tok], memo: MlirMemo
    ) -> statements.Template | statements.StatementError:
        nonlocal by_class
        found = real_by_kinds(text, toks, memo)
        own = statements.new_template(statements.terminal_kinds(text, toks), text, toks)
        assert found == own, text
        by_class += 1
        return found

    monkeypatch.setattr(templates, "parse_statement", text_keyed)
    monkeypatch.setattr(templates, "by_kinds_and_words", class_keyed)
    memo = MlirMemo()
    for _ in range(2):
        for path in sorted(DATA.glob("*.mlir")) + sorted(CONSTRUCTS.glob("*.mlir")):
            parse_file(path.read_text(encoding="utf-8"), memo)
    assert by_text > 200 and by_class > 200


def test_an_op_name_or_element_type_does_not_make_a_new_template(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []
    real = statements.new_template

    def counted(
        kinds: tuple[str, ...], text: str, toks: list[Tok], parse: statements.ParseKinds
    ) -> statements.Template | statements.StatementError:
        built.append(text)
        return real(kinds, text, toks, parse)

    monkeypatch.setattr(templates, "new_template", counted)
    memo = MlirMemo()

    def template(text: str) -> statements.Template | statements.StatementError:
        return templates.by_kinds_and_words(text, tokenize(text), memo)

    add = template("%0 = stablehlo.add %a, %b : tensor<4xf32>")
    assert template("%0 = stablehlo.subtract %a, %b : tensor<4xi32>") is add
    assert len(built) == 1
    # A word the checks tell apart (a shaped type's name) makes its own template ...
    assert template("%0 = stablehlo.add %a, %b : vector<4xf32>") is not add
    # ... as does one the checks read: `dense<1 2>` is an error (a comma is missing), `foo<1 2>` is not.
    assert isinstance(
        template("%0 = stablehlo.constant foo<1 2> : tensor<f32>"), statements.Template
    )
    dense = template("%0 = stablehlo.constant dense<1 2> : tensor<f32>")
    assert isinstance(dense, statements.StatementError) and dense.message == "expected '>'"
    # An error is never shared: its message names the statement's own word.
    unknown = template("%0 = add %a, %b : tensor<4xf32>")
    other = template("%0 = sub %a, %b : tensor<4xf32>")
    assert isinstance(unknown, statements.StatementError)
    assert isinstance(other, statements.StatementError)
    assert "'add'" in unknown.message and "'sub'" in other.message
