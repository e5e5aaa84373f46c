"""TensorizerLegalization over the generated real-export corpus (tests/data/exports/, written
by bench/export_corpus.py with jax 0.10.2): no syntax error, and the TL codes each module's
returned values imply. Runs without jax; the jaxlib checks are in test_export_jaxlib.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from passlint import pipeline

EXPORTS = Path(__file__).resolve().parents[1] / "data" / "exports"

# The codes of each export, in slot order, derived by hand from what @main returns, by the
# case table of passlint/passes/tensorizer_legalization/cases.py (StableHLO variant: every
# file has `stablehlo.*` ops) and the rule catalog (`passlint rules`):
# - a block argument of main with at least one element (a dynamic `?` dimension included:
#   nothing proves it empty) is copied: TL001, once per slot it is returned at;
# - a value with zero elements (a static dimension 0, argument or op result, a `dense<>`
#   constant too) is replaced by stage B: TL006;
# - a `stablehlo.constant` is TL007 when it is a splat (every element equal, rank 0
#   included: stage A broadcasts it) and TL002 otherwise (copied);
# - one compute value at two slots: TL003 on the later slot;
# - any other op result (call, custom_call, while, case, composite without `CompositeKind`,
#   fusion that is not ScheduleFusion, `mhlo.copy`, sdy ops) is named in place: no code.
# `__generic` files are the same modules in generic form: the same codes.
EXPECTED: dict[str, list[str]] = {
    # two `stablehlo.composite` results (jax writes no CompositeKind)
    "jax__composite.mlir": [],
    "jax__composite__generic.mlir": [],
    "jax__composite_versioned.mlir": [],  # %0#0, %0#1 of one composite
    "jax__compute_twice.mlir": ["TL003"],  # the `stablehlo.sine` %0 at slots 0 and 1
    "jax__compute_twice__generic.mlir": ["TL003"],
    "jax__cond.mlir": [],  # a `stablehlo.case` result
    "jax__constant_dense.mlir": ["TL002"],  # dense<[[1, 2], [3, 4]]>: not a splat
    "jax__constant_dense__generic.mlir": ["TL002"],
    "jax__constant_scalar.mlir": ["TL007"],  # tensor<f32>: rank 0 is a splat
    "jax__constant_splat.mlir": ["TL007"],  # dense<1.0> : tensor<4xf32>
    "jax__constant_splat__generic.mlir": ["TL007"],
    "jax__custom_call_ffi.mlir": [],  # both results of one custom_call
    "jax__custom_call_lapack.mlir": [],  # a func.call result
    "jax__debug_print.mlir": [],  # a multiply (the callback returns nothing)
    "jax__donation.mlir": ["TL001"],  # slot 1 is %arg1 (the donated %arg0 is not returned)
    "jax__donation_returned.mlir": ["TL001"],  # slot 0 is the donated %arg0
    "jax__dynamic_export.mlir": [],  # results of the call to @_wrapped_jax_export_main
    "jax__dynamic_export_identity.mlir": [],  # the input comes back through that call
    # slot 0 %arg1 : tensor<?x4xf32>; slot 1 a multiply; slot 2 tensor<?x0xf32> has a 0
    "jax__dynamic_lowered.mlir": ["TL001", "TL006"],
    "jax__dynamic_lowered__generic.mlir": ["TL001", "TL006"],
    "jax__identity.mlir": ["TL001"],
    "jax__identity__generic.mlir": ["TL001"],
    "jax__input_twice.mlir": ["TL001", "TL001"],  # an input, not a compute value: no TL003
    "jax__input_twice__generic.mlir": ["TL001", "TL001"],
    "jax__io_callback_ordered.mlir": [],  # the token and the value: custom_call results
    "jax__io_callback_ordered__generic.mlir": [],
    "jax__io_callback_passthrough.mlir": ["TL001"],  # slot 1 is %arg1 (slot 0 the token)
    "jax__optimization_barrier.mlir": [],  # both results of the barrier
    "jax__optimization_barrier__generic.mlir": [],
    "jax__pure_callback.mlir": [],
    "jax__scan.mlir": [],  # two `stablehlo.while` results
    # slot 0 a multiply, slot 1 %arg0, slot 2 a subtract, slot 3 dense<[0, 1, 2, 3]>
    "jax__several_outputs.mlir": ["TL001", "TL002"],
    "jax__several_outputs__generic.mlir": ["TL001", "TL002"],
    "jax__shard_map.mlir": [],  # an `sdy.manual_computation` result
    "jax__shardy_constraint.mlir": [],  # an `sdy.sharding_constraint` result
    "jax__shardy_constraint__generic.mlir": [],
    "jax__shardy_input_returned.mlir": ["TL001"],  # slot 0 is the sharded %arg0
    "jax__shardy_jit.mlir": [],  # a dot_general
    "jax__switch.mlir": ["TL001"],  # slot 0 the case, slot 1 %arg1
    "jax__vhlo_roundtrip.mlir": ["TL001"],  # slot 1 is %arg1
    "jax__while_loop.mlir": [],  # both `stablehlo.while` results
    "jax__while_loop__generic.mlir": [],
    # slot 0 a kLoop fusion, slot 1 XLA's own `mhlo.copy` of %arg0 (an op result), slot 2 a
    # `mhlo.copy` of tensor<0xf32>
    "jax__xla_optimized.mlir": ["TL006"],
    "jax__xla_optimized__generic.mlir": ["TL006"],
    "jax__xla_roundtrip.mlir": ["TL001", "TL006"],  # slot 1 %arg0, slot 2 dense<> : tensor<0xf32>
    "jax__zero_size_compute.mlir": ["TL006", "TL006"],  # a multiply and an add, both empty
    # dense<> : tensor<0x3xf32> (empty before being a constant) and an empty broadcast
    "jax__zero_size_constant.mlir": ["TL006", "TL006"],
    "jax__zero_size_input.mlir": ["TL006"],  # %arg0 : tensor<0x3xf32>
    "jax__zero_size_input__generic.mlir": ["TL006"],
}


def test_every_export_is_pinned() -> None:
    assert sorted(p.name for p in EXPORTS.glob("*.mlir")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_syntax_error_and_the_expected_codes(name: str) -> None:
    text = (EXPORTS / name).read_text(encoding="utf-8")
    codes = [finding.code for finding in pipeline.analyze(name, text)]
    assert [code for code in codes if code.startswith("E")] == []
    assert codes == EXPECTED[name]
