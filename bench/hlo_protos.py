"""Write the HLO proto fixtures of tests/data/hlo/proto/ (opt-in: ``.[bench]``, needs jax).

``python bench/hlo_protos.py [--out DIR]`` lowers each program of ``PROGRAMS`` with jax and
writes, for ``<name>``:

- ``<name>.hlo``: the module's HLO text (``XlaComputation.as_hlo_text()``);
- ``<name>.hlo_module.pb``: the same module as a serialized ``HloModuleProto``;
- ``<name>.hlo.pb``: that proto wrapped in an ``HloProto`` (field 1, ``hlo_module``), what
  XLA's ``--xla_dump_hlo_as_proto`` writes;

and ``truncated.hlo.pb``: the first half of ``returns_constant.hlo.pb`` (an E011 finding).
The same jaxlib version writes the same bytes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "hlo" / "proto"


def _programs() -> dict[str, tuple[Callable[..., Any], list[Any]]]:
    two = jnp.ones(2, jnp.float32)
    return {
        "returns_parameter": (lambda x: x, [jnp.ones((2, 3), jnp.float32)]),
        "returns_constant": (lambda x: (x + 1, jnp.array([1.0, 2.0], jnp.float32)), [two]),
        "returned_twice": (lambda x: (lambda y: (y, y))(jnp.sin(x)), [two]),
        "clean": (lambda x, y: x @ y, [jnp.ones((2, 3)), jnp.ones((3, 2))]),
    }


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def hlo_proto(module_proto: bytes) -> bytes:
    """An ``HloProto`` holding ``module_proto`` as its ``hlo_module`` (field 1, wire type 2)."""
    return b"\x0a" + _varint(len(module_proto)) + module_proto


def write(out: Path) -> list[Path]:
    """Write every fixture into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[Path, bytes] = {}
    for name, (function, args) in _programs().items():
        computation = jax.jit(function).lower(*args).compiler_ir("hlo")
        module = computation.as_serialized_hlo_module_proto()
        written[out / f"{name}.hlo"] = computation.as_hlo_text().encode("utf-8")
        written[out / f"{name}.hlo_module.pb"] = module
        written[out / f"{name}.hlo.pb"] = hlo_proto(module)
    whole = written[out / "returns_constant.hlo.pb"]
    written[out / "truncated.hlo.pb"] = whole[: len(whole) // 2]
    for path, data in written.items():
        path.write_bytes(data)
    return list(written)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    for path in write(parser.parse_args().out):
        print(path)


if __name__ == "__main__":
    main()
