"""`legalize` output is valid MLIR: jaxlib (MLIR's own parser) accepts every golden output
and the legalized form of every fixture it accepts (opt-in: skipped without jaxlib, `.[bench]`).

``roundtrip_failures`` is the check-roundtrip helper other suites can call on their texts;
``pytest --check-roundtrip PATH`` runs it over every ``.mlir`` file under PATH too (the corpus,
a user's modules).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from passlint.passes.tensorizer_legalization.apply import legalize_text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from jaxlib_oracle import Oracle, available

DATA = Path(__file__).parent.parent / "data"
pytestmark = pytest.mark.skipif(not available(), reason="needs jaxlib (pip install -e '.[bench]')")


def roundtrip_failures(named_texts: Iterable[tuple[str, str]]) -> list[str]:
    """``name: verdict message`` for each text jaxlib accepts whose ``legalize`` output it
    rejects (a text jaxlib rejects is not the pass's input, and is skipped)."""
    oracle = Oracle()
    failures = []
    try:
        for name, text in named_texts:
            if oracle.verdict(text).rejected:
                continue
            verdict = oracle.verdict(legalize_text(text))
            if verdict.rejected:
                failures.append(f"{name}: {verdict.kind} {verdict.message} {verdict.where}")
    finally:
        oracle.close()
    return failures


def _texts(paths: Iterable[Path], root: Path = DATA) -> Iterator[tuple[str, str]]:
    for path in paths:
        name = str(path.relative_to(root)) if path != root else path.name
        yield name, path.read_text(encoding="utf-8")


def test_every_golden_output_parses() -> None:
    oracle = Oracle()
    try:
        goldens = sorted((DATA / "legalize").glob("*.legalized.mlir"))
        assert goldens
        verdicts = {path.name: oracle.verdict(path.read_text()) for path in goldens}
    finally:
        oracle.close()
    assert {name: v.kind for name, v in verdicts.items() if v.rejected} == {}


def test_every_fixtures_legalize_output_parses() -> None:
    paths = sorted(
        path
        for folder in ("legalize", "mlir", "tl")
        for path in (DATA / folder).glob("**/*.mlir")
        if not path.name.endswith(".legalized.mlir")
    )
    assert len(paths) > 40
    assert roundtrip_failures(_texts(paths)) == []


def test_named_modules_legalize_output_parses(request: pytest.FixtureRequest) -> None:
    roots = [Path(path).resolve() for path in request.config.getoption("--check-roundtrip")]
    if not roots:
        pytest.skip("no --check-roundtrip PATH given")
    failures = []
    for root in roots:
        paths = [root] if root.is_file() else sorted(root.glob("**/*.mlir"))
        assert paths, f"--check-roundtrip {root}: no .mlir file there"
        failures += roundtrip_failures(_texts(paths, root))
    assert failures == []
