"""The rule catalog: every rule of passlint by code, in the order `passlint rules` and
docs/rules.md list them. Each group of rules is declared where it is raised (or, until it
moves there, in ``passlint.analysis.rules``); this module only puts them together."""

from __future__ import annotations

from passlint.analysis.rules import FRONT_END_RULES, PASSLINT_RULES, TENSORIZER_RULES, Rule
from passlint.passes.materialize_valid_shape_symbols.findings import VS_RULES

RULES: dict[str, Rule] = {**TENSORIZER_RULES, **VS_RULES, **FRONT_END_RULES, **PASSLINT_RULES}


def default_selected(code: str) -> bool:
    return not RULES[code].opt_in
