"""The generated real-export corpus against MLIR's own parser (jaxlib, `.[bench]`; skipped
without it): bench/export_corpus.py writes the committed files byte for byte; and per file,
jaxlib parses the export; the TL codes its reading of @main implies are the pinned ones
(test_export_codes.EXPECTED, which passlint gives); `passlint check --fix` output parses with
nothing fixable left; `passlint legalize` output parses, and reads as the pass leaves it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_export_codes import EXPECTED, EXPORTS

ir = pytest.importorskip("jaxlib.mlir.ir")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from jaxlib_oracle import Oracle  # noqa: E402

NAMES = sorted(EXPECTED)


def _passlint(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "passlint", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def oracle() -> Any:
    made = Oracle()
    yield made
    made.close()


@pytest.fixture(scope="module")
def context() -> Any:
    from jax._src.interpreters import mlir as jax_mlir

    made = jax_mlir.make_ir_context()
    made.allow_unregistered_dialects = True
    return made


class _Legalized:
    """`passlint legalize` of each export, run once per file for the tests that read it."""

    def __init__(self) -> None:
        self._runs: dict[str, subprocess.CompletedProcess[str]] = {}

    def __call__(self, name: str) -> subprocess.CompletedProcess[str]:
        if name not in self._runs:
            self._runs[name] = _passlint("legalize", str(EXPORTS / name))
        return self._runs[name]


@pytest.fixture(scope="module")
def legalized() -> _Legalized:
    return _Legalized()


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    """The corpus after one `passlint check --fix`, and the codes with a fix per file that a
    check of the fixed files still reports."""
    folder = tmp_path_factory.mktemp("exports") / "exports"
    shutil.copytree(EXPORTS, folder)
    result = _passlint("check", "--fix", "--exit-zero", "-q", str(folder))
    assert result.returncode == 0, result.stderr
    report = _passlint("check", "--output-format", "json", "--exit-zero", str(folder))
    assert report.returncode == 0, report.stderr
    fixable: dict[str, list[str]] = {}
    for finding in json.loads(report.stdout)["findings"]:
        if finding["fix"] is not None:
            fixable.setdefault(Path(finding["path"]).name, []).append(finding["code"])
    return folder, fixable


def test_the_script_writes_the_committed_files(tmp_path: Path) -> None:
    import jax

    if jax.__version__ != "0.10.2":
        pytest.skip(f"the exports are jax 0.10.2's; this is jax {jax.__version__}")
    script = Path(__file__).resolve().parents[2] / "bench" / "export_corpus.py"
    result = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    written = {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir())}
    assert written == {p.name: p.read_bytes() for p in sorted(EXPORTS.iterdir())}


def _main(module: Any) -> Any:
    (main,) = [
        op.operation
        for op in module.body.operations
        if op.operation.name == "func.func"
        and ir.StringAttr(op.operation.attributes["sym_name"]).value == "main"
    ]
    return main


def _returned(main: Any) -> list[Any]:
    block = main.regions[0].blocks[0]
    (returned,) = [op for op in block.operations if op.operation.name == "func.return"]
    return list(returned.operation.operands)


def _operations(op: Any) -> Any:
    """Every operation nested in ``op``, at any depth."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation
                yield from _operations(inner.operation)


def _slot_codes(module: Any) -> list[str | None]:
    """The code of the case table (``cases.py``, StableHLO variant) for each value @main returns, read from
    jaxlib's IR: an input with elements TL001, zero elements TL006, a constant TL007 when
    splat else TL002, a compute value at an earlier slot TL003, any other op result none."""
    codes: list[str | None] = []
    seen: list[Any] = []
    for value in _returned(_main(module)):
        code = None
        if isinstance(value.type, ir.RankedTensorType) and 0 in value.type.shape:
            code = "TL006"
        elif isinstance(value, ir.BlockArgument):
            code = "TL001"
        elif value.owner.operation.name == "stablehlo.constant":
            splat = ir.DenseElementsAttr(value.owner.operation.attributes["value"]).is_splat
            code = "TL007" if splat else "TL002"
        elif value in seen:
            code = "TL003"
        codes.append(code)
        seen.append(value)
    return codes


def _differences_from_the_pass(export: Any, legalized: Any) -> list[str]:
    """Where jaxlib's reading of ``legalize`` output differs from what the pass leaves
    (``cases.py``): every `neuron.actual_shape` a StringAttr; each output an op result whose
    `neuron.symName` holds, at its result index, the name of the last slot returning it (a
    value returned twice is named twice, the second name overwriting the first); an output
    the pass names in place (no code, or TL003) still comes from the export's op, no copy."""
    differences = []
    for op in _operations(legalized.operation):
        if "neuron.actual_shape" in op.attributes:
            shape = op.attributes["neuron.actual_shape"]
            if not isinstance(shape, ir.StringAttr):
                differences.append(f"`{op.name}` has neuron.actual_shape = {shape}")
    values = _returned(_main(legalized))
    exported = _returned(_main(export))
    for slot, (value, code) in enumerate(zip(values, _slot_codes(export), strict=True)):
        if isinstance(value, ir.BlockArgument):
            differences.append(f"output {slot} returns an input")
            continue
        owner = value.owner.operation
        last = max(i for i, other in enumerate(values) if other == value)
        names = owner.attributes.get("neuron.symName", [])
        named = [ir.FlatSymbolRefAttr(name).value for name in names]
        if named[value.result_number : value.result_number + 1] != [f"output{last}"]:
            differences.append(f"output {slot}: `{owner.name}` has neuron.symName {named}")
        if code in (None, "TL003") and owner.name != exported[slot].owner.operation.name:
            differences.append(f"output {slot} comes from a `{owner.name}`")
    return differences


@pytest.mark.parametrize("name", NAMES)
def test_jaxlib_parses_the_export(name: str, oracle: Any) -> None:
    verdict = oracle.verdict((EXPORTS / name).read_text(encoding="utf-8"))
    assert verdict.kind == "ok", (verdict.message, verdict.where)


@pytest.mark.parametrize("name", NAMES)
def test_the_codes_are_what_jaxlibs_reading_implies(name: str, context: Any) -> None:
    module = ir.Module.parse((EXPORTS / name).read_text(encoding="utf-8"), context)
    assert [code for code in _slot_codes(module) if code is not None] == EXPECTED[name]


@pytest.mark.parametrize("name", NAMES)
def test_fix_output_parses_and_leaves_nothing_fixable(
    name: str, oracle: Any, fixed: tuple[Path, dict[str, list[str]]]
) -> None:
    folder, fixable = fixed
    verdict = oracle.verdict((folder / name).read_text(encoding="utf-8"))
    assert verdict.kind == "ok", (verdict.message, verdict.where)
    assert fixable.get(name, []) == []


@pytest.mark.parametrize("name", NAMES)
def test_legalize_output_parses(name: str, oracle: Any, legalized: _Legalized) -> None:
    result = legalized(name)
    assert result.returncode == 0, result.stderr
    verdict = oracle.verdict(result.stdout)
    assert verdict.kind == "ok", (verdict.message, verdict.where)


@pytest.mark.parametrize("name", NAMES)
def test_legalize_output_is_what_the_pass_leaves(
    name: str, context: Any, legalized: _Legalized
) -> None:
    result = legalized(name)
    assert result.returncode == 0, result.stderr
    output = ir.Module.parse(result.stdout, context)
    export = ir.Module.parse((EXPORTS / name).read_text(encoding="utf-8"), context)
    assert _differences_from_the_pass(export, output) == []
