"""The pl pass's standalone checks, one file each (``check.Check``): every module of this
folder declares ``CHECK``, the rule with its documentation and the detector that raises it,
and is found here by its file, so adding a rule is adding a file (and its test). They are
listed in code order; the catalog reads their rules from ``CHECKS``."""

from __future__ import annotations

import importlib
import pkgutil

from passlint.passes.materialize_valid_shape_symbols.check import Check


def _checks() -> tuple[Check, ...]:
    found: list[Check] = []
    for info in pkgutil.iter_modules(__path__):
        declared = getattr(importlib.import_module(f"{__name__}.{info.name}"), "CHECK", None)
        if not isinstance(declared, Check):
            raise TypeError(f"{__name__}.{info.name} declares no CHECK")
        found.append(declared)
    return tuple(sorted(found, key=lambda check: check.rule.code))


CHECKS = _checks()
