"""Export issue 26's construct list with jax into ``tests/data/exports/`` (opt-in: ``.[bench]``).

``python bench/export_corpus.py [--out DIR]`` writes one ``jax__<case>.mlir`` per case of
``CASES`` (and ``jax__<case>__generic.mlir`` for the cases of ``GENERIC``, the same module in
MLIR's generic op form) and a ``README.md`` naming the jax version and this command. Each
module is printed by jaxlib without debug locations, so the files hold no path of this machine
and the same jax version writes the same bytes. The cases: the simple ones (identity, an input
returned twice, a compute value returned twice, constants, zero-size arrays, several outputs),
dynamic shapes (``jax.export`` and ``jit(...).lower`` with symbolic shapes), Shardy sharding
annotations, tokens and callbacks, while/cond/case, custom calls, donation, composites and XLA
round trips (HLO and back, before and after XLA's optimisation, and a serialized export).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax

jax.config.update("jax_num_cpu_devices", 2)  # a two-device mesh for the Shardy cases

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import export, lax  # noqa: E402
from jax._src.interpreters import mlir as jax_mlir  # noqa: E402
from jax._src.lib import _jax  # noqa: E402
from jax.experimental import io_callback  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "exports"

F32 = jnp.float32
V4 = jax.ShapeDtypeStruct((4,), F32)
V8 = jax.ShapeDtypeStruct((8,), F32)
M44 = jax.ShapeDtypeStruct((4, 4), F32)
EMPTY = jax.ShapeDtypeStruct((0, 3), F32)


def _context() -> ir.Context:
    context = jax_mlir.make_ir_context()
    context.allow_unregistered_dialects = True
    return context


def _reprint(text: str | bytes) -> ir.Module:
    """A module's text or bytecode read back into an ir.Module (to print it our way)."""
    return ir.Module.parse(text, _context())


def _lower(f: Callable[..., Any], *args: Any, **jit: Any) -> ir.Module:
    module: ir.Module = jax.jit(f, **jit).lower(*args).compiler_ir("stablehlo")
    return module


def _mesh() -> Mesh:
    auto = (jax.sharding.AxisType.Auto,)
    return jax.make_mesh((2,), ("x",), axis_types=auto, devices=jax.devices()[:2])


# --- the simple cases -------------------------------------------------------------------------


def identity() -> ir.Module:
    return _lower(lambda x: x, V4)


def input_twice() -> ir.Module:
    return _lower(lambda x: (x, x), V4)


def compute_twice() -> ir.Module:
    def twice(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        y = jnp.sin(x)
        return y, y

    return _lower(twice, V4)


def constant_dense() -> ir.Module:
    return _lower(lambda: np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))


def constant_splat() -> ir.Module:
    return _lower(lambda: np.ones((4,), np.float32))


def constant_scalar() -> ir.Module:
    return _lower(lambda: np.float32(3.0))


def zero_size_input() -> ir.Module:
    return _lower(lambda x: x, EMPTY)


def zero_size_constant() -> ir.Module:
    return _lower(lambda: (np.zeros((0, 3), np.float32), jnp.zeros((0,), F32)))


def zero_size_compute() -> ir.Module:
    return _lower(lambda x, y: (x * 2.0, y[:0] + 1.0), EMPTY, V4)


def several_outputs() -> ir.Module:
    def outputs(x: jax.Array, y: jax.Array) -> tuple[jax.Array, ...]:
        return x * y, x, y - 1.0, np.arange(4, dtype=np.float32)

    return _lower(outputs, V4, V4)


# --- dynamic shapes ---------------------------------------------------------------------------


def _exported(f: Callable[..., Any], *args: Any) -> ir.Module:
    return _reprint(export.export(jax.jit(f))(*args).mlir_module())


def dynamic_export() -> ir.Module:
    (b,) = export.symbolic_shape("b")
    return _exported(lambda x: (x * 2.0, jnp.sum(x, axis=1)), jax.ShapeDtypeStruct((b, 4), F32))


def dynamic_export_identity() -> ir.Module:
    shape = export.symbolic_shape("b, c")
    return _exported(lambda x: x, jax.ShapeDtypeStruct(shape, F32))


def dynamic_lowered() -> ir.Module:
    (b,) = export.symbolic_shape("b")
    x = jax.ShapeDtypeStruct((b, 4), F32)
    return _lower(lambda x: (x, x * 2.0, jnp.zeros((b, 0), F32)), x)


# --- Shardy -----------------------------------------------------------------------------------


def shardy_jit() -> ir.Module:
    row = NamedSharding(_mesh(), P("x"))
    return _lower(lambda x, w: x @ w, M44, M44, in_shardings=(row, None), out_shardings=row)


def shardy_input_returned() -> ir.Module:
    row = NamedSharding(_mesh(), P("x"))
    return _lower(lambda x: (x, x + 1.0), M44, in_shardings=row, out_shardings=(row, row))


def shardy_constraint() -> ir.Module:
    mesh = _mesh()

    def constrained(x: jax.Array) -> jax.Array:
        return lax.with_sharding_constraint(jnp.cos(x), NamedSharding(mesh, P(None, "x")))

    return _lower(constrained, M44)


def shard_map() -> ir.Module:
    mesh = _mesh()

    def per_shard(x: jax.Array) -> jax.Array:
        return lax.psum(x * 2.0, "x")

    mapped = jax.shard_map(per_shard, mesh=mesh, in_specs=P("x"), out_specs=P())
    return _lower(mapped, M44)


# --- tokens and callbacks ---------------------------------------------------------------------


def io_callback_ordered() -> ir.Module:
    return _lower(lambda x: io_callback(np.sin, V4, x, ordered=True), V4)


def io_callback_passthrough() -> ir.Module:
    def logged(x: jax.Array) -> jax.Array:
        io_callback(lambda v: None, None, x, ordered=True)
        return x

    return _lower(logged, V4)


def debug_print() -> ir.Module:
    def printed(x: jax.Array) -> jax.Array:
        jax.debug.print("x = {x}", x=x)
        return x * 2.0

    return _lower(printed, V4)


def pure_callback() -> ir.Module:
    return _lower(lambda x: jax.pure_callback(np.cos, V4, x), V4)


# --- while / cond / case ----------------------------------------------------------------------


def while_loop() -> ir.Module:
    def loop(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))

    return _lower(loop, V4)


def scan() -> ir.Module:
    def cumulative(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return lax.scan(lambda c, r: (c + r, c * r), jnp.zeros((4,), F32), x)

    return _lower(cumulative, M44)


def cond() -> ir.Module:
    def branch(p: jax.Array, x: jax.Array) -> jax.Array:
        return lax.cond(p, lambda v: v + 1.0, lambda v: v, x)

    return _lower(branch, jax.ShapeDtypeStruct((), jnp.bool_), V4)


def switch() -> ir.Module:
    branches = [lambda v: v + 1.0, lambda v: v * 3.0, lambda v: jnp.exp(v)]

    def case(i: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return lax.switch(i, branches, x), x

    return _lower(case, jax.ShapeDtypeStruct((), jnp.int32), V4)


# --- custom calls -----------------------------------------------------------------------------


def custom_call_ffi() -> ir.Module:
    call = jax.ffi.ffi_call("passlint_test_kernel", (V4, V4))
    return _lower(lambda x: call(x, scale=np.float32(2.0)), V4)


def custom_call_lapack() -> ir.Module:
    return _lower(jnp.linalg.cholesky, M44)


def optimization_barrier() -> ir.Module:
    return _lower(lambda x, y: lax.optimization_barrier((x, y * 2.0)), V4, V4)


# --- donation ---------------------------------------------------------------------------------


def donation() -> ir.Module:
    return _lower(lambda x, y: (x + y, y), V4, V4, donate_argnums=(0,))


def donation_returned() -> ir.Module:
    return _lower(lambda x, y: (x, y * 2.0), V4, V4, donate_argnums=(0, 1))


# --- composites -------------------------------------------------------------------------------


def composite() -> ir.Module:
    @functools.partial(lax.composite, name="passlint.normalize")
    def normalize(x: jax.Array, eps: float = 1e-6) -> jax.Array:
        return x / (jnp.sqrt(jnp.sum(x * x)) + eps)

    return _lower(lambda x: (normalize(x, eps=1e-6), normalize(x * 2.0, eps=1e-3)), V8)


def composite_versioned() -> ir.Module:
    @functools.partial(lax.composite, name="passlint.softplus", version=2)
    def softplus(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return jnp.log1p(jnp.exp(x)), jnp.exp(x)

    return _lower(softplus, V8)


# --- XLA round trips --------------------------------------------------------------------------


def _round_trip_program(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    return jnp.sin(x) * y + 1.0, x, jnp.zeros((0,), F32)


def xla_roundtrip() -> ir.Module:
    """StableHLO → HLO → StableHLO, as XLA's HLO importer prints it back."""
    text = jax.jit(_round_trip_program).lower(V8, V8).as_text()
    computation = _jax.mlir.mlir_module_to_xla_computation(
        text, use_tuple_args=False, return_tuple=False
    )
    return _reprint(_jax.mlir.hlo_to_stablehlo(computation.as_serialized_hlo_module_proto()))


def xla_optimized() -> ir.Module:
    """XLA's optimised HLO (fusions, XLA's own copies) imported back into StableHLO/MHLO."""
    compiled = jax.jit(_round_trip_program).lower(V8, V8).compile()
    (hlo,) = compiled.runtime_executable().hlo_modules()
    return _reprint(_jax.mlir.hlo_to_stablehlo(hlo.as_serialized_hlo_module_proto()))


def vhlo_roundtrip() -> ir.Module:
    """A portable artifact (VHLO bytecode for StableHLO 1.0.0, as ``jax.export`` serializes
    modules) deserialized again."""
    text = jax.jit(lambda x, y: (x * y, y)).lower(V4, V4).as_text()
    artifact = _jax.mlir.serialize_portable_artifact(text, "1.0.0")
    module: ir.Module = _jax.mlir.deserialize_portable_artifact(artifact, _context())
    return module


CASES: dict[str, Callable[[], ir.Module]] = {
    f.__name__: f
    for f in (
        identity,
        input_twice,
        compute_twice,
        constant_dense,
        constant_splat,
        constant_scalar,
        zero_size_input,
        zero_size_constant,
        zero_size_compute,
        several_outputs,
        dynamic_export,
        dynamic_export_identity,
        dynamic_lowered,
        shardy_jit,
        shardy_input_returned,
        shardy_constraint,
        shard_map,
        io_callback_ordered,
        io_callback_passthrough,
        debug_print,
        pure_callback,
        while_loop,
        scan,
        cond,
        switch,
        custom_call_ffi,
        custom_call_lapack,
        optimization_barrier,
        donation,
        donation_returned,
        composite,
        composite_versioned,
        xla_roundtrip,
        xla_optimized,
        vhlo_roundtrip,
    )
}

# The cases also written in generic op form (`print(print_generic_op_form=True)`).
GENERIC = (
    "identity",
    "input_twice",
    "compute_twice",
    "constant_dense",
    "constant_splat",
    "zero_size_input",
    "several_outputs",
    "dynamic_lowered",
    "shardy_constraint",
    "io_callback_ordered",
    "while_loop",
    "optimization_barrier",
    "composite",
    "xla_optimized",
)


def _text(module: ir.Module, generic: bool) -> str:
    text: str = module.operation.get_asm(enable_debug_info=False, print_generic_op_form=generic)
    return text if text.endswith("\n") else text + "\n"


def export_all() -> dict[str, str]:
    """Every file of the corpus by name: the modules and the README."""
    files: dict[str, str] = {}
    for name, make in CASES.items():
        module = make()
        files[f"jax__{name}.mlir"] = _text(module, generic=False)
        if name in GENERIC:
            files[f"jax__{name}__generic.mlir"] = _text(module, generic=True)
    files["README.md"] = (
        "# Real jax exports (issue 26)\n\n"
        f"Written by `python bench/export_corpus.py` with jax {jax.__version__} and jaxlib "
        f"{jax.lib.__version__} (`pip install -e '.[bench]'`), printed without debug "
        "locations; do not edit by hand: run the command again. Each `jax__<case>.mlir` is "
        "the module of the function `<case>` in that script, `__generic` the same module in "
        "MLIR's generic op form.\n"
    )
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder (tests/data/exports)")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    files = export_all()
    for stale in out.glob("jax__*.mlir"):
        if stale.name not in files:
            stale.unlink()
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {len(files)} files to {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
