"""Regenerate the stored ground truth of passlint's pl corpus (tests/data/pl) with the real
pass: ``PASSLINT_PYPTO_PYTHON=... python tests/oracle/regenerate.py``. The unit tests that
run without an oracle (test_stored_truth.py) compare passlint with this file."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[1] / "data" / "pl"
STORED = CORPUS / "oracle" / "truth.json"


def portable(document: dict[str, Any]) -> dict[str, Any]:
    """The document without what depends on the machine it was recorded on."""
    out = dict(document)
    out["root"] = "."
    out.pop("recorder_errors", None)
    out["pypto"] = {k: v for k, v in document.get("pypto", {}).items() if k != "checkout_commit"}
    return out


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from oracle.oracle_run import oracle_python, record

    python, why = oracle_python()
    if python is None:
        print(why, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        truth = record(python, CORPUS, [CORPUS], Path(scratch) / "truth.json")
    STORED.write_text(json.dumps(portable(truth.document), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {STORED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
