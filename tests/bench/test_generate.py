"""The benchmark inputs are valid MLIR: jaxlib's parser (MLIR's own) accepts them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from passlint import pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import constant_module, layers_for, lit_corpus, mlir_module

ir = pytest.importorskip("jaxlib.mlir.ir")


@pytest.fixture(scope="module")
def context():  # type: ignore[no-untyped-def]
    from jax._src.interpreters import mlir as jax_mlir

    made = jax_mlir.make_ir_context()
    made.allow_unregistered_dialects = True
    return made


@pytest.mark.parametrize(
    "text",
    [
        mlir_module(3),
        mlir_module(3, generic=True),
        constant_module(4096, hex_blob=True),
        constant_module(4096, hex_blob=False),
    ],
    ids=["pretty", "generic", "hex-constant", "decimal-constant"],
)
def test_jaxlib_accepts_the_generated_modules(context, text: str) -> None:  # type: ignore[no-untyped-def]
    ir.Module.parse(text, context)
    assert not [f for f in pipeline.analyze("g.mlir", text) if f.code.startswith("E")]


def test_generic_form_is_what_jaxlib_prints(context) -> None:  # type: ignore[no-untyped-def]
    """The same ops as the pretty module, each printed by MLIR's generic printer."""
    printed = ir.Module.parse(mlir_module(2), context).operation.get_asm(print_generic_op_form=True)
    ours = mlir_module(2, generic=True)
    assert printed.count("\n") == ours.count("\n")
    assert sorted(_op_names(printed)) == sorted(_op_names(ours))


def _op_names(text: str) -> list[str]:
    return [
        line.split('"')[1]
        for line in text.splitlines()
        if '= "' in line or line.lstrip().startswith('"')
    ]


def test_layers_for_hits_the_size() -> None:
    for size in (200_000, 1_000_000):
        for generic in (False, True):
            got = len(mlir_module(layers_for(size, generic), generic))
            assert abs(got - size) / size < 0.02


def test_lit_corpus_chunks_are_valid_but_the_expected_errors(context) -> None:  # type: ignore[no-untyped-def]
    from passlint.analysis.mlir.parser import split_chunks

    for name, text in lit_corpus(6, 60_000).items():
        findings = pipeline.analyze(name, text)
        for start, end in split_chunks(text):
            chunk = text[start:end]
            if "expected-error" in chunk:
                continue
            ir.Module.parse(chunk, context)
            first, last = text.count("\n", 0, start), text.count("\n", 0, end)
            assert not [
                f
                for f in findings
                if f.code.startswith("E") and first <= f.range.start.line <= last
            ]
