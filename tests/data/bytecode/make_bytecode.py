"""Write the MLIR bytecode fixtures of tests/server/test_bytecode.py (needs jaxlib: `.[bytecode]`).

``python tests/data/bytecode/make_bytecode.py`` writes beside itself, from ``IDENTITY`` (a
StableHLO module whose @main returns its argument: TL001):

- ``identity.mlirbc``: the module as MLIR bytecode (``write_bytecode``);
- ``identity.portable.mlirbc``: the module as a StableHLO portable artifact (VHLO bytecode,
  as ``jax.export`` serializes modules) for the current StableHLO version.

The same jaxlib version writes the same bytes.
"""

from __future__ import annotations

import io
from pathlib import Path

from jax._src.interpreters import mlir as jax_mlir
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

HERE = Path(__file__).resolve().parent

IDENTITY = """\
module @identity {
  func.func public @main(%arg0: tensor<2x3xf32> loc("model.py":3:8)) -> tensor<2x3xf32> {
    %0 = stablehlo.abs %arg0 : tensor<2x3xf32> loc("model.py":4:10)
    return %arg0 : tensor<2x3xf32>
  }
}
"""


def main() -> None:
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(IDENTITY)
        written = io.BytesIO()
        module.operation.write_bytecode(written)
    (HERE / "identity.mlirbc").write_bytes(written.getvalue())
    version = stablehlo.get_current_version()
    portable = stablehlo.serialize_portable_artifact_str(IDENTITY, version)
    (HERE / "identity.portable.mlirbc").write_bytes(portable)


if __name__ == "__main__":
    main()
