"""Write the jax export corpus in the other formats passlint reads (issue 31; opt-in: ``.[bench]``).

``python bench/export_formats.py [--out DIR]`` reads every ``jax__<case>.mlir`` that
``bench/export_corpus.py`` wrote to ``tests/data/exports/`` (not the ``__generic`` copies: the
same modules) and writes beside each other into ``tests/data/formats/``:

- ``jax__<case>.hlo``: the module as XLA HLO text (jaxlib's MLIR-to-HLO conversion);
- ``jax__<case>.hlo_module.pb``: the same module as a serialized ``HloModuleProto`` (what a
  Neuron compile cache holds);
- ``jax__<case>.hlo.pb``: that proto wrapped in an ``HloProto`` (field 1, ``hlo_module``:
  what ``--xla_dump_hlo_as_proto`` writes);
- ``jax__<case>.mlirbc``: the module as MLIR bytecode;
- ``jax__<case>.portable.mlirbc``: the module as a StableHLO portable artifact (VHLO
  bytecode, as ``jax.export`` serializes modules), for the current StableHLO version.

A module jaxlib cannot convert to HLO (dynamic shapes) gets no HLO files, and one holding a
dialect VHLO does not (Shardy's ``sdy``, ``mhlo``) no portable artifact; the README lists
them. The same jaxlib version writes the same bytes.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import jax
from hlo_protos import hlo_proto
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib import xla_client
from jax._src.lib.mlir.dialects import hlo as stablehlo
from jaxlib.mlir import ir

ROOT = Path(__file__).resolve().parent.parent
EXPORTS = ROOT / "tests" / "data" / "exports"
OUT = ROOT / "tests" / "data" / "formats"


def formats_of(text: str) -> tuple[dict[str, bytes], list[str]]:
    """The module ``text`` in each format by suffix, and the formats jaxlib cannot write it
    in, with its reason."""
    files: dict[str, bytes] = {}
    missing: list[str] = []
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        bytecode = io.BytesIO()
        module.operation.write_bytecode(bytecode)
        files[".mlirbc"] = bytecode.getvalue()
        version = stablehlo.get_current_version()
        try:
            files[".portable.mlirbc"] = stablehlo.serialize_portable_artifact_str(text, version)
        except ValueError as error:  # (a dialect VHLO does not hold: sdy, mhlo)
            missing.append(f"no portable artifact ({error})")
    try:
        computation = xla_client._xla.mlir.mlir_module_to_xla_computation(
            text, use_tuple_args=False, return_tuple=False
        )
    except Exception as error:  # (jaxlib raises its own XlaRuntimeError)
        missing.append(f"no HLO ({str(error).splitlines()[0]})")
        return files, missing
    files[".hlo"] = computation.as_hlo_text().encode("utf-8")
    module_proto = computation.as_serialized_hlo_module_proto()
    files[".hlo_module.pb"] = module_proto
    files[".hlo.pb"] = hlo_proto(module_proto)
    return files, missing


def export_formats(exports: Path = EXPORTS) -> dict[str, bytes]:
    """Every file of the formats corpus by name, the README included."""
    files: dict[str, bytes] = {}
    missing: list[str] = []
    for path in sorted(exports.glob("jax__*.mlir")):
        if path.stem.endswith("__generic"):
            continue
        converted, not_written = formats_of(path.read_text(encoding="utf-8"))
        for suffix, data in converted.items():
            files[path.stem + suffix] = data
        missing += [f"- `{path.name}`: {why}" for why in not_written]
    readme = (
        "# The jax exports in other formats (issue 31)\n\n"
        f"Written by `python bench/export_formats.py` with jax {jax.__version__} and jaxlib "
        f"{jax.lib.__version__} (`pip install -e '.[bench]'`) from `tests/data/exports/"
        "jax__<case>.mlir`; do not edit by hand: run the command again. Per case: `.hlo` (HLO "
        "text), `.hlo_module.pb` (`HloModuleProto`), `.hlo.pb` (`HloProto`), `.mlirbc` (MLIR "
        "bytecode) and `.portable.mlirbc` (a StableHLO portable artifact).\n\n"
        "Not written (jaxlib cannot convert the module):\n\n" + "\n".join(missing) + "\n"
    )
    files["README.md"] = readme.encode("utf-8")
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder (tests/data/formats)")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    files = export_formats()
    for stale in out.glob("jax__*"):
        if stale.name not in files:
            stale.unlink()
    for name, data in files.items():
        (out / name).write_bytes(data)
    sys.stdout.write(f"wrote {len(files)} files to {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
