"""Real MLIR: every corpus copy parses cleanly; a representative set is pinned (ops, results,
uses and ranges); a large generated model dump; the shared big file when present."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from ir_dump import dump
from mlir_testing import CONSTRUCTS, DATA, SHARED_CORPUS, at, lc, ops, read

from passlint.analysis.mlir.fast.lines import normalize
from passlint.analysis.mlir.ir import BlockArgument, OpResult, ParsedFile
from passlint.analysis.mlir.lexer import SPACE
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from generate import mlir_module

CORPUS = sorted(p.name for p in DATA.glob("*.mlir"))
REPRESENTATIVE = [
    "jax__identity.mlir",
    "jax__return_input_twice.mlir",
    "jax__reduce_argmax.mlir",
    "jax__while_fori_loop.mlir",
    "jax__composite_op.mlir",
    "handmade__mhlo_fusion_hybrid.mlir",
    "jax__mlp_big_matmul__debuginfo.mlir",
]
EXPECTED = DATA / "expected"


def test_the_corpus_copies_are_all_here() -> None:
    assert len(CORPUS) == 20
    assert set(REPRESENTATIVE) <= set(CORPUS)


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_file_parses_without_issues(name: str) -> None:
    parsed = parse_file(read(name))
    assert parsed.errors == []
    assert all(u.value is not None for op in ops(parsed) for u in op.operands)


@pytest.mark.parametrize("path", sorted(CONSTRUCTS.glob("*.mlir")), ids=lambda p: p.name)
def test_construct_fixture_parses_without_issues(path: Path) -> None:
    assert parse_file(path.read_text(encoding="utf-8")).errors == []


def where(text: str, offset: int) -> str:
    line, column = lc(text, offset)
    return f"{line}:{column}"


def snapshot(text: str, parsed: ParsedFile) -> list[dict[str, object]]:
    """Every op: name, range, results, uses with the place of their definition, arguments."""
    out: list[dict[str, object]] = []
    for op in ops(parsed):
        uses = []
        for use in op.operands:
            value = use.value
            kind = "result" if isinstance(value, OpResult) else "argument"
            assert value is not None
            uses.append(
                f"{use.name}@{where(text, use.span[0])} -> {kind} {value.name}"
                f"@{where(text, value.span[0])}"
            )
        out.append(
            {
                "op": op.name,
                "range": f"{where(text, op.span[0])}-{where(text, op.span[1])}",
                "results": [f"{r.name}@{where(text, r.span[0])}" for r in op.results],
                "uses": uses,
                "arguments": [
                    f"{a.name}: {a.type_text}@{where(text, a.span[0])}"
                    for a in [
                        *op.header_arguments,
                        *(
                            arg
                            for region in op.regions
                            for b in region.blocks
                            for arg in b.arguments
                        ),
                    ]
                ],
                "regions": [
                    f"{where(text, r.span[0])}-{where(text, r.span[1])}" for r in op.regions
                ],
            }
        )
    return out


@pytest.mark.parametrize("name", REPRESENTATIVE)
def test_representative_file_is_pinned(name: str) -> None:
    text = read(name)
    found = snapshot(text, parse_file(text))
    expected_path = EXPECTED / (name.removesuffix(".mlir") + ".json")
    if os.environ.get("PASSLINT_UPDATE_EXPECTED"):
        expected_path.parent.mkdir(exist_ok=True)
        expected_path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    assert found == json.loads(expected_path.read_text(encoding="utf-8"))


def test_identity_in_full() -> None:
    text = read("jax__identity.mlir")
    parsed = parse_file(text)
    module, func, ret = ops(parsed)
    assert (module.name, func.name, ret.name) == ("module", "func.func", "return")
    assert (lc(text, func.span[0]), lc(text, func.span[1])) == ((2, 3), (4, 4))
    (arg,) = func.header_arguments
    assert isinstance(arg, BlockArgument)
    assert (arg.name, lc(text, arg.span[0]), arg.type_text) == ("%arg0", (2, 26), "tensor<4xf32>")
    (use,) = ret.operands
    assert (at(text, use.span), lc(text, use.span[0]), use.value) == ("%arg0", (3, 12), arg)
    assert arg.uses == [use]
    assert [t.text for t in ret.signature_types()[0]] == ["tensor<4xf32>"]


def test_return_input_twice_in_full() -> None:
    text = read("jax__return_input_twice.mlir")
    parsed = parse_file(text)
    func = ops(parsed)[1]
    ret = ops(parsed)[2]
    (arg,) = func.header_arguments
    assert [(u.name, lc(text, u.span[0]), u.operand_index) for u in ret.operands] == [
        ("%arg0", (3, 12), 0),
        ("%arg0", (3, 19), 1),
    ]
    assert all(u.value is arg for u in ret.operands) and len(arg.uses) == 2
    results = [a for a in func.attributes if a.key == "jax.result_info"]
    assert results == []  # result attributes are not the function's attribute dictionary


LAYER = """\
    %{n}0 = stablehlo.dot_general %{p}, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32> loc(#loc{n})
    %{n}1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32> loc(#loc{n})
    %{n}2 = stablehlo.add %{n}0, %{n}1 : tensor<64x256xf32> loc(#loc{n})
    %cst_{n} = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc{n})
    %{n}3 = stablehlo.reduce(%{n}2 init: %cst_{n}) applies stablehlo.maximum across dimensions = [1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32> loc(#loc{n})
    %{n}4 = stablehlo.broadcast_in_dim %{n}3, dims = [0] : (tensor<64xf32>) -> tensor<64x256xf32> loc(#loc{n})
    %{n}5 = stablehlo.subtract %{n}2, %{n}4 : tensor<64x256xf32> loc(#loc{n})
    %{n}6 = stablehlo.exponential %{n}5 : tensor<64x256xf32> loc(#loc{n})
    %{n}7:2 = "mhlo.fusion"(%{n}6, %{n}2) <{{fusion_kind = #mhlo<fusion_kind kLoop>}}> ({{
    ^bb0(%a{n}: tensor<64x256xf32>, %b{n}: tensor<64x256xf32>):
      %{n}8 = stablehlo.multiply %a{n}, %b{n} : tensor<64x256xf32>
      mhlo.return %{n}8, %a{n} : tensor<64x256xf32>, tensor<64x256xf32>
    }}) : (tensor<64x256xf32>, tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>)
    %{n}9 = stablehlo.tanh %{n}7#1 : tensor<64x256xf32> loc(#loc{n})
"""


def generated_model(layers: int) -> str:
    body = []
    previous = "arg0"
    for n in range(1, layers + 1):
        body.append(LAYER.format(n=n, p=previous))
        previous = f"{n}9"
    locs = "".join(f'#loc{n} = loc("model.py":{n}:1 to :9)\n' for n in range(1, layers + 1))
    return (
        "module @jit_model attributes {mhlo.num_partitions = 1 : i32} {\n"
        "  func.func public @main(%arg0: tensor<64x256xf32>, %arg1: tensor<256x256xf32>, "
        '%arg2: tensor<256xf32>) -> (tensor<64x256xf32> {jax.result_info = "result"}) {\n'
        + "".join(body)
        + f"    return %{previous} : tensor<64x256xf32>\n"
        "  }\n"
        "}\n" + locs
    )


def test_large_generated_modeldump() -> None:
    layers = 1500
    text = generated_model(layers)
    assert len(text) > 2_000_000
    started = time.perf_counter()
    parsed = parse_file(text)
    elapsed = time.perf_counter() - started
    assert parsed.errors == []
    all_ops = ops(parsed)
    assert len(all_ops) == 3 + layers * 12
    assert all(u.value is not None for op in all_ops for u in op.operands)
    assert len(parsed.chunks[0].aliases) == layers
    # The last layer's ops sit where the text puts them.
    last_tanh = [op for op in all_ops if op.name == "stablehlo.tanh"][-1]
    assert at(text, last_tanh.results[0].span) == f"%{layers}9"
    assert (
        last_tanh.operands[0].value
        is [op for op in all_ops if op.name == "mhlo.fusion"][-1].results[1]
    )
    assert elapsed < 60


BIG = SHARED_CORPUS / "big" / "jax_transformer_560L.mlir"


@pytest.mark.skipif(not BIG.exists(), reason="../shared/corpus is not available in this clone")
def test_shared_big_file() -> None:
    """The reference parse of the big file, and the fast path's IR of it the same: every op's
    kept tokens, template, spans, results, uses and what they resolve to, arguments and
    regions (what ``dump`` reads besides is derived from these and the text; it is compared
    in full on a slice of the file below)."""
    text = BIG.read_text(encoding="utf-8")
    parsed = parse_file(text)
    assert parsed.errors == []
    all_ops = ops(parsed)
    assert len(all_ops) == 51_570
    assert all(u.value is not None for op in all_ops for u in op.operands)
    assert _outline(parse_file(text, MlirMemo())) == _outline(parsed)


def _outline(parsed: ParsedFile) -> list[object]:
    """Each op's own data, without what ``dump`` derives from it (attributes, types)."""
    out: list[object] = [[(e.start, e.end, e.message) for e in parsed.errors]]
    for op in ops(parsed):
        out.append(
            (
                op.tokens,
                op.name,
                op.span,
                op.template,
                None if op.parent_op is None else op.parent_op.span,
                [(r.name, r.start, r.index) for r in op.results],
                [
                    (u.name, u.start, u.operand_index, u.value and (u.value.name, u.value.start))
                    for u in op.operands
                ],
                [(a.name, a.start, a.index, a.type_span) for a in op.header_arguments],
                [
                    (
                        region.span,
                        [(b.label, b.label_span, len(b.operations)) for b in region.blocks],
                    )
                    for region in op.regions
                ],
                [
                    (a.name, a.start, a.index, a.type_span)
                    for r in op.regions
                    for b in r.blocks
                    for a in b.arguments
                ],
            )
        )
    return out


FAST_PATH_FILES = [
    *sorted(p.name for p in DATA.glob("*.mlir")),
    *sorted(str(p.relative_to(DATA)) for p in CONSTRUCTS.glob("*.mlir")),
    *sorted(str(p.relative_to(DATA)) for p in (DATA / "invalid").glob("*.mlir")),
    *sorted(str(p.relative_to(DATA)) for p in (DATA / "generic").glob("*.mlir")),
    "generated",
    "generated-generic",
]


@pytest.mark.parametrize("name", FAST_PATH_FILES)
def test_line_shape_fast_path_gives_the_same_ir_as_tokens(name: str) -> None:
    if name == "generated-generic":
        text = mlir_module(6, generic=True)
    elif name == "generated":
        text = generated_model(60)
    else:
        text = (DATA / name).read_text()
    assert dump(parse_file(text, MlirMemo())) == dump(parse_file(text))


def test_fast_path_on_the_shared_big_file_matches_tokens() -> None:
    """``dump`` of the fast path and of the reference on a slice of the big file: its first
    lines and its last ones, which hold every line shape of the file at least as often as
    the file does, up to three times (each fast path takes a line, a statement, from its
    second or third sighting on). (The whole file's IR is compared in
    ``test_shared_big_file``.)"""
    if not BIG.is_file():
        pytest.skip("../shared is not beside this clone")
    lines = BIG.read_text().split("\n")
    head, tail = lines[:BIG_HEAD], lines[-BIG_TAIL:]
    shapes = Counter(_shape(line) for line in lines)
    held = Counter(_shape(line) for line in head + tail)
    assert all(held[shape] >= min(count, 3) for shape, count in shapes.items())
    text = "\n".join(head + tail)
    assert dump(parse_file(text, MlirMemo())) == dump(parse_file(text))


BIG_HEAD, BIG_TAIL = 240, 100  # lines of the big file's slice (3% of its text)


def _shape(line: str) -> str:
    return normalize(line).strip(SPACE)
