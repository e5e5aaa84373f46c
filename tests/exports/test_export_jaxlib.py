"""The generated real-export corpus against MLIR's own parser (jaxlib, `.[bench]`; skipped
without it): bench/export_corpus.py writes the committed files byte for byte; per file,
jaxlib parses the export; the TL codes its reading of @main implies are
the pinned ones (test_export_codes.EXPECTED, which passlint gives); `passlint check --fix`
output parses with nothing fixable left; `passlint legalize` output parses.

Where passlint is wrong today the case is xfail(strict=True), naming issue 26's bullet."""

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

_GENERIC_SCALAR = (
    "issue 26, legalize bullet 3: stage A in generic-form files names the new scalar "
    "constant after a numeric result name (`%0_scalar = \"stablehlo.constant\"() ...`), "
    "jaxlib: \"expected '=' after SSA name\""
)
_CUSTOM_SYNTAX = (
    "issue 26, legalize bullet 2: `neuron.symName` placed where the op's custom syntax has "
    "no attribute dictionary (`stablehlo.{op} ... {{neuron.symName = [...]}} : ...`), "
    "jaxlib: \"expected ':'\""
)
# `passlint legalize` output jaxlib rejects today (the message jaxlib gives, where).
LEGALIZE_REJECTED = {
    "jax__composite__generic.mlir": _GENERIC_SCALAR,  # %19_scalar at 5:8
    "jax__constant_splat__generic.mlir": _GENERIC_SCALAR,  # %0_scalar at 3:7
    "jax__dynamic_lowered.mlir": (
        "issue 26, legalize bullet 1: a dynamic dimension, `stablehlo.custom_call "
        "@AwsNeuronZeroSizedOp() {neuron.actual_shape = array<i64: ?, 0>, ...}`, "
        'jaxlib: "expected integer literal" at 21:90'
    ),
    "jax__dynamic_lowered__generic.mlir": _GENERIC_SCALAR,  # %0_scalar at 4:7
    "jax__optimization_barrier.mlir": _CUSTOM_SYNTAX.format(op="optimization_barrier"),
    "jax__optimization_barrier__generic.mlir": _GENERIC_SCALAR,  # %0_scalar at 4:7
    "jax__scan.mlir": _CUSTOM_SYNTAX.format(op="while"),  # at 11:96
    "jax__several_outputs__generic.mlir": _GENERIC_SCALAR,  # %2_scalar at 6:7
    "jax__while_loop.mlir": _CUSTOM_SYNTAX.format(op="while"),  # at 5:62
    "jax__while_loop__generic.mlir": _GENERIC_SCALAR,  # %0_scalar at 4:7
    "jax__xla_optimized__generic.mlir": _GENERIC_SCALAR,  # %6_scalar at 17:9
}


def _cases(xfails: dict[str, str]) -> list[Any]:
    return [
        pytest.param(name, marks=pytest.mark.xfail(reason=xfails[name], strict=True))
        if name in xfails
        else name
        for name in NAMES
    ]


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


def _codes_jaxlib_implies(module: Any) -> list[str]:
    """The codes of design.md §3 (StableHLO variant) for @main's returned values, read from
    jaxlib's IR: an input with elements TL001, zero elements TL006, a constant TL007 when
    splat else TL002, a compute value at an earlier slot TL003, any other op result none."""
    (main,) = [
        op
        for op in module.body.operations
        if op.operation.name == "func.func"
        and ir.StringAttr(op.operation.attributes["sym_name"]).value == "main"
    ]
    block = main.operation.regions[0].blocks[0]
    (returned,) = [op for op in block.operations if op.operation.name == "func.return"]
    codes: list[str] = []
    seen: list[Any] = []
    for value in returned.operation.operands:
        if isinstance(value.type, ir.RankedTensorType) and 0 in value.type.shape:
            codes.append("TL006")
        elif isinstance(value, ir.BlockArgument):
            codes.append("TL001")
        elif value.owner.operation.name == "stablehlo.constant":
            splat = ir.DenseElementsAttr(value.owner.operation.attributes["value"]).is_splat
            codes.append("TL007" if splat else "TL002")
        elif value in seen:
            codes.append("TL003")
        seen.append(value)
    return codes


@pytest.mark.parametrize("name", NAMES)
def test_jaxlib_parses_the_export(name: str, oracle: Any) -> None:
    verdict = oracle.verdict((EXPORTS / name).read_text(encoding="utf-8"))
    assert verdict.kind == "ok", (verdict.message, verdict.where)


@pytest.mark.parametrize("name", NAMES)
def test_the_codes_are_what_jaxlibs_reading_implies(name: str, context: Any) -> None:
    module = ir.Module.parse((EXPORTS / name).read_text(encoding="utf-8"), context)
    assert _codes_jaxlib_implies(module) == EXPECTED[name]


@pytest.mark.parametrize("name", NAMES)
def test_fix_output_parses_and_leaves_nothing_fixable(
    name: str, oracle: Any, fixed: tuple[Path, dict[str, list[str]]]
) -> None:
    folder, fixable = fixed
    verdict = oracle.verdict((folder / name).read_text(encoding="utf-8"))
    assert verdict.kind == "ok", (verdict.message, verdict.where)
    assert fixable.get(name, []) == []


@pytest.mark.parametrize("name", _cases(LEGALIZE_REJECTED))
def test_legalize_output_parses(name: str, oracle: Any) -> None:
    result = _passlint("legalize", str(EXPORTS / name))
    assert result.returncode == 0, result.stderr
    verdict = oracle.verdict(result.stdout)
    assert verdict.kind == "ok", (verdict.message, verdict.where)
