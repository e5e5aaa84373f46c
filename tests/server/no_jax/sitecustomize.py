"""Put first on ``PYTHONPATH`` (tests/server/test_bytecode.py): in that Python, `jax` and
`jaxlib` cannot be imported, as where the optional extra is not installed."""

import sys

sys.modules["jax"] = None  # type: ignore[assignment]
sys.modules["jaxlib"] = None  # type: ignore[assignment]
