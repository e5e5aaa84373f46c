"""HLO findings agree with the MLIR findings of the same module as jaxlib's HLO-to-StableHLO
converter makes it (opt-in: skipped when jax is not importable, `.[bench]`).

For each program: jax lowers it to an ``XlaComputation``; its HLO text goes to passlint's HLO
analysis, its ``HloModuleProto`` to ``hlo_to_stablehlo`` (bytecode, printed as text with
jaxlib's MLIR bindings) and then to passlint's MLIR analysis; the TL codes must be equal, slot
by slot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")
ir = pytest.importorskip("jaxlib.mlir.ir")

from jax._src.interpreters import mlir as jax_mlir  # noqa: E402
from jax._src.lib import xla_client  # noqa: E402

from passlint.analysis.edits import apply_edits, edits_by_path  # noqa: E402
from passlint.pipeline import analyze  # noqa: E402


def _programs() -> dict[str, tuple[Callable[..., Any], list[Any], list[str]]]:
    """name -> (function, arguments, the TL codes both analyses must give)."""
    two = jnp.ones(2, jnp.float32)
    return {
        "returns_input": (lambda x: x, [jnp.ones((2, 3))], ["TL001"]),
        "returns_constant": (lambda x: (x + 1, jnp.array([1.0, 2.0])), [two], ["TL002"]),
        "returns_scalar_constant": (lambda x: (x + 1, jnp.float32(3)), [two], ["TL007"]),
        "returns_broadcast_constant": (lambda x: (x, np.ones(3, np.float32)), [two], ["TL001"]),
        "same_value_twice": (lambda x: (lambda y: (y, y))(jnp.sin(x)), [two], ["TL003"]),
        "input_twice": (lambda x: (x, x), [two], ["TL001", "TL001"]),
        "constant_twice": (
            lambda x: (lambda c: (x + 1, c, c))(jnp.array([1.0, 2.0])),
            [two],
            ["TL002", "TL002"],
        ),
        "zero_size_input": (lambda x: x, [jnp.ones((0, 4))], ["TL006"]),
        "zero_size_result": (lambda x: (x + 1, jnp.zeros((0, 3))), [two], ["TL006"]),
        "normal": (lambda x, y: x @ y, [jnp.ones((2, 3)), jnp.ones((3, 2))], []),
        "tuple": (lambda x, y: (x + y, x, y * 2), [two, two], ["TL001"]),
        "nested_tuple": (lambda x, y: ((x + y, (x, y)), y - x), [two, two], ["TL001", "TL001"]),
    }


PROGRAMS = _programs()


def _hlo_and_stablehlo(function: Callable[..., Any], args: list[Any]) -> tuple[str, str]:
    computation = jax.jit(function).lower(*args).compiler_ir("hlo")
    hlo = computation.as_hlo_text()
    proto = computation.as_serialized_hlo_module_proto()
    bytecode = xla_client._xla.mlir.hlo_to_stablehlo(proto)
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(bytecode)
        return hlo, module.operation.get_asm(enable_debug_info=False)


def _tl_codes(path: str, text: str) -> list[str]:
    findings = analyze(path, text)
    assert not [f for f in findings if f.code.startswith("E")], findings
    return [f.code for f in findings if f.code.startswith("TL")]


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_hlo_and_converted_stablehlo_give_the_same_codes(name: str) -> None:
    function, args, expected = PROGRAMS[name]
    hlo, stablehlo = _hlo_and_stablehlo(function, args)
    assert hlo.lstrip().startswith("HloModule")
    mlir_codes = _tl_codes("converted.mlir", stablehlo)
    hlo_codes = _tl_codes("module.hlo", hlo)
    assert hlo_codes == mlir_codes, (hlo, stablehlo)
    assert hlo_codes == expected


@pytest.mark.parametrize("name", [n for n, p in PROGRAMS.items() if p[2]])
def test_the_fixed_hlo_is_still_hlo_xla_reads(name: str) -> None:
    """The fixed text of a real export parses again and keeps only the findings that had no
    copy fix (jaxlib's Python API offers no HLO text parser to read it back with)."""
    function, args, _ = PROGRAMS[name]
    hlo, _ = _hlo_and_stablehlo(function, args)
    findings = analyze("module.hlo", hlo)
    fixes = [f.fix for f in findings if f.fix is not None]
    fixed = apply_edits(hlo, edits_by_path(fixes).get("module.hlo", []))
    after = analyze("module.hlo", fixed)
    assert [f.code for f in after] == [f.code for f in findings if f.fix is None]
