"""Fuzzing the MLIR front end, TensorizerLegalization and its fixes (see fuzz_checks)."""

from __future__ import annotations

from fuzz_checks import check_document
from fuzz_gen import mlir_module, mutated_mlir
from hypothesis import given

PATH = "/fuzz/model.mlir"


@given(mlir_module())
def test_generated_modules(text: str) -> None:
    check_document("mlir generated", PATH, {PATH: text}, "/fuzz")


@given(mutated_mlir())
def test_mutated_fixtures(text: str) -> None:
    check_document("mlir mutated", PATH, {PATH: text}, "/fuzz")
