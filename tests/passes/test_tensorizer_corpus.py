"""TensorizerLegalization over every real sample: pinned codes, fix-all and legalize round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.edits import apply_edits, edits_by_path
from passlint.analysis.mlir.parser import parse_file
from passlint.passes.tensorizer_legalization.apply import legalize_text

DATA = Path(__file__).parent.parent / "data" / "mlir"

EXPECTED = {
    "handmade__mhlo_fusion_hybrid.mlir": ["TL001", "TL001", "TL002", "TL006"],
    "jax__composite_op.mlir": [],
    "jax__cond.mlir": [],
    "jax__identity.mlir": ["TL001"],
    "jax__identity_two_args.mlir": ["TL001", "TL001"],
    "jax__large_hex_constant.mlir": [],
    "jax__mlp_big_matmul__debuginfo.mlir": [],
    "jax__named_outputs_sharding.mlir": [],
    "jax__reduce_argmax.mlir": [],
    "jax__return_constant_scalar.mlir": ["TL007"],  # rank 0: a splat for stage A
    "jax__return_dense_constant.mlir": ["TL002"],
    "jax__return_input_and_compute.mlir": ["TL001", "TL001"],
    "jax__return_input_twice.mlir": ["TL001", "TL001"],
    "jax__return_np_splat_constants.mlir": ["TL007", "TL007"],
    "jax__return_same_ssa_twice.mlir": ["TL003"],
    "jax__return_splat_constant.mlir": [],
    "jax__tuple_outputs_dict.mlir": ["TL001"],
    "jax__while_fori_loop.mlir": [],
    "jax__zero_size_arrays.mlir": ["TL006", "TL006", "TL006"],
    "jaxlib__dense_resource_blob.mlir": ["TL002"],
}
COPY_CODES = {"TL001", "TL002", "TL003"}


def test_every_sample_is_pinned() -> None:
    assert sorted(p.name for p in DATA.glob("*.mlir")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_codes_per_sample(name: str) -> None:
    text = (DATA / name).read_text()
    assert [f.code for f in pipeline.analyze(name, text)] == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fix_all_reparses_clears_copies_and_is_idempotent(name: str) -> None:
    text = (DATA / name).read_text()
    fixes = [f.fix for f in pipeline.analyze(name, text) if f.fix is not None]
    fixed = apply_edits(text, edits_by_path(fixes).get(name, []))
    assert parse_file(fixed).errors == []
    after = pipeline.analyze(name, fixed)
    assert not [f for f in after if f.code in COPY_CODES]
    assert [f for f in after if f.fix is not None] == []
    expected_left = [c for c in EXPECTED[name] if c not in COPY_CODES]
    assert [f.code for f in after] == expected_left


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_legalize_output_reparses_without_copy_findings(name: str) -> None:
    text = (DATA / name).read_text()
    legalized = legalize_text(text)
    assert parse_file(legalized).errors == []
    # The pass names a value returned twice twice (TL003 stays: passlint's fix copies it).
    pass_copies = COPY_CODES - {"TL003"}
    assert not [f for f in pipeline.analyze(name, legalized) if f.code in pass_copies]
    # Legalizing again changes only stage A's own scalar constants: rank 0 is a splat too.
    again = legalize_text(legalized)
    assert [f.code for f in pipeline.analyze(name, again) if f.code in pass_copies] == []
