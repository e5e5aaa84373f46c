"""MLIR bytecode as text (``passlint.analysis.mlir.bytecode``): the fixtures of
tests/data/bytecode (``make_bytecode.py``) and the jax exports of tests/data/formats read
by jaxlib (skipped without it) into the text passlint analyses; bytes jaxlib cannot read,
too many bytes and a missing jaxlib each refused with their own error."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.mlir.bytecode import (
    INSTALL,
    BytecodeTooLarge,
    BytecodeUnavailable,
    BytecodeUnreadable,
    bytecode_to_text,
    is_bytecode,
)
from passlint.config import Settings

DATA = Path(__file__).resolve().parents[2] / "data"
BYTECODE = DATA / "bytecode"
FORMATS = DATA / "formats"
LIMIT = 1 << 20


def _codes(text: str) -> list[str]:
    findings = pipeline.analyze("bytecode.mlir", text, Settings())
    return [finding.code for finding in findings]


def test_the_magic() -> None:
    assert is_bytecode((BYTECODE / "identity.mlirbc").read_bytes())
    assert is_bytecode(b"ML\xefR")
    assert not is_bytecode(b"module {}")
    assert not is_bytecode(b"ML\xef")


@pytest.mark.parametrize("name", ["identity.mlirbc", "identity.portable.mlirbc"])
def test_bytecode_and_portable_artifact_read_as_stablehlo(name: str) -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    text = bytecode_to_text((BYTECODE / name).read_bytes(), LIMIT)
    assert "func.func public @main(%arg0: tensor<2x3xf32> loc(" in text
    assert "return %arg0 : tensor<2x3xf32>" in text
    assert "vhlo." not in text  # (the portable artifact is StableHLO again)
    assert '#loc3 = loc("model.py":4:10)' in text  # every location is kept
    assert _codes(text) == ["TL001"]


def test_the_jax_exports_read_as_their_text_reads() -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    exports = DATA / "exports"
    for path in sorted(FORMATS.glob("*.mlirbc")):
        case = path.name.split(".")[0]
        text = bytecode_to_text(path.read_bytes(), 64 * LIMIT)
        original = (exports / f"{case}.mlir").read_text(encoding="utf-8")
        assert _codes(text) == _codes(original), path.name


def test_bytes_jaxlib_cannot_read_are_refused_with_its_words() -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    data = (BYTECODE / "identity.mlirbc").read_bytes()
    with pytest.raises(BytecodeUnreadable) as cut:
        bytecode_to_text(data[: len(data) // 2], LIMIT)
    assert str(cut.value).startswith("jaxlib cannot read it: ")
    assert "produced by: MLIR" in str(cut.value)
    with pytest.raises(BytecodeUnreadable, match=r"^jaxlib cannot read it: "):
        bytecode_to_text(data + b"\x00garbage", LIMIT)  # (bytes after the module too)


def test_text_is_not_bytecode(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BytecodeUnreadable, match=r"^not MLIR bytecode \(it does not start"):
        bytecode_to_text(b"module {}\n", LIMIT)
    assert capfd.readouterr() == ("", "")


def test_nothing_is_printed(capfd: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jaxlib.mlir.ir")
    data = (BYTECODE / "identity.portable.mlirbc").read_bytes()
    with pytest.raises(BytecodeUnreadable, match=r"failed to deserialize|attempting to parse"):
        bytecode_to_text(data[:-20], LIMIT)
    assert capfd.readouterr() == ("", "")


def test_more_than_the_limit_is_not_read() -> None:
    data = (BYTECODE / "identity.mlirbc").read_bytes()
    with pytest.raises(BytecodeTooLarge) as large:
        bytecode_to_text(data, len(data) - 1)
    assert (large.value.size, large.value.limit) == (len(data), len(data) - 1)


@pytest.mark.parametrize("missing", ["jax", "jaxlib"])
def test_without_jaxlib_the_extra_to_install_is_named(
    missing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (jaxlib is imported first: where it is not installed at all, it is what is missing)
    named = missing if importlib.util.find_spec("jaxlib") is not None else "jaxlib"
    for name in [m for m in sys.modules if m == missing or m.startswith(missing + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # (an import of it fails)
    with pytest.raises(BytecodeUnavailable) as unavailable:
        bytecode_to_text((BYTECODE / "identity.mlirbc").read_bytes(), LIMIT)
    assert str(unavailable.value) == (
        f"reading MLIR bytecode needs jaxlib's MLIR bindings ({named} is not installed): "
        "install them with `pip install jax==0.10.2 jaxlib==0.10.2` (passlint's optional "
        "extra `bytecode`)"
    )
    assert INSTALL == "pip install jax==0.10.2 jaxlib==0.10.2"
