"""Inputs tried and crashes seen per fuzz target, for the run's summary."""

from __future__ import annotations

from collections import Counter

TRIED: Counter[str] = Counter()
CRASHES: Counter[str] = Counter()
