"""Rule codes are checked names (issue 28, point 4): every code of the catalog is a constant of
``passlint.analysis.codes``, and no other module of the package spells a code as a bare string
(a typo there would be a KeyError at run time, not an error mypy reports); the VS rules of the
catalog are those declared beside their checks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from passlint.analysis import codes
from passlint.analysis.findings import Severity
from passlint.analysis.rules import Rule
from passlint.catalog import RULES
from passlint.passes.materialize_valid_shape_symbols.findings import VS_RULES

PACKAGE = Path(codes.__file__).resolve().parent.parent
CODES_MODULE = Path(codes.__file__).resolve()
# The code pattern, from the catalog's own prefixes (TL, VS, E, PL): a prefix and three digits.
PREFIXES = sorted({code.rstrip("0123456789") for code in RULES})
CODE = re.compile(rf"(?:{'|'.join(PREFIXES)})\d{{3}}")


def _constants() -> dict[str, str]:
    return {name: value for name, value in vars(codes).items() if CODE.fullmatch(name)}


def test_every_catalog_code_is_a_constant_named_as_its_value() -> None:
    constants = _constants()
    assert all(name == value for name, value in constants.items())
    assert sorted(constants) == sorted(RULES)
    assert all(rule.code == code for code, rule in RULES.items())


def test_the_vs_rules_are_the_ones_declared_beside_their_checks() -> None:
    vs_rules = [code for code in RULES if code.startswith("VS")]
    assert vs_rules == list(VS_RULES)
    assert all(RULES[code] is VS_RULES[code] for code in vs_rules)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def bare_codes(source: str) -> list[tuple[int, str]]:
    """The (line, text) of every string constant of ``source`` that is a rule code, docstrings
    left out."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and CODE.fullmatch(node.value)
    ]


def test_the_scan_finds_a_bare_code_and_skips_docstrings() -> None:
    source = '"""About VS001."""\n\ndef f():\n    """TL001"""\n    return "VS001" == x\n'
    assert bare_codes(source) == [(5, "VS001")]


def test_no_bare_rule_code_outside_the_codes_module() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.resolve() != CODES_MODULE
        for line, text in bare_codes(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_a_rule_takes_keyword_arguments_only() -> None:
    with pytest.raises(TypeError):
        Rule("X001", "x", Severity.ERROR, "summary", "why")  # type: ignore[misc]
    rule = Rule(code="X001", name="x", severity=Severity.ERROR, summary="s.", why="w.")
    assert rule.anchor == "x001-x"
