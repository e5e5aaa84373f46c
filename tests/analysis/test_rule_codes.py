"""Rule codes are checked names and each rule is one declaration (issue 28, point 4): a code
is spelled once, as the ``code=`` of its ``Rule(...)`` (or, for a code raised away from its
rule, as a constant of ``passlint.analysis.codes`` that the rule and its raisers name); no
other string of the package is a code (a typo there would be a KeyError at run time, not an
error mypy reports); every declared rule is in the catalog, with its documentation; the VS
rules of the catalog are those declared beside their checks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from passlint.analysis import codes
from passlint.analysis.findings import Severity
from passlint.analysis.rules import Rule
from passlint.catalog import RULES
from passlint.passes.materialize_valid_shape_symbols.rules import VS_RULES

PACKAGE = Path(codes.__file__).resolve().parent.parent
CODES_MODULE = Path(codes.__file__).resolve()
# The code pattern, from the catalog's own prefixes (TL, VS, E, PL): a prefix and three digits.
PREFIXES = sorted({code.rstrip("0123456789") for code in RULES})
CODE = re.compile(rf"(?:{'|'.join(PREFIXES)})\d{{3}}")


def _constants() -> dict[str, str]:
    return {name: value for name, value in vars(codes).items() if CODE.fullmatch(name)}


def test_every_code_constant_is_a_catalog_code_named_as_its_value() -> None:
    constants = _constants()
    assert constants  # the MLIR front end's codes, at least
    assert all(name == value for name, value in constants.items())
    assert set(constants) <= set(RULES)
    assert all(rule.code == code for code, rule in RULES.items())


def _declared_codes(source: str) -> list[str]:
    """The code of every ``Rule(...)`` call of ``source``: its ``code=`` string, or the name
    of the ``codes`` constant it gives."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id != "Rule":
                continue
            code = next(k.value for k in node.keywords if k.arg == "code")
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                found.append(code.value)
            elif isinstance(code, ast.Attribute) and isinstance(code.value, ast.Name):
                assert code.value.id == "codes", ast.unparse(code)
                found.append(code.attr)
            else:
                raise AssertionError(f"a rule's code is a string or a codes constant: {code}")
    return found


def test_every_rule_is_declared_once_and_is_in_the_catalog() -> None:
    """A ``Rule(...)`` left out of its group's list, or a code declared twice, fails here."""
    declared = [
        code
        for path in sorted(PACKAGE.rglob("*.py"))
        for code in _declared_codes(path.read_text(encoding="utf-8"))
    ]
    assert sorted(declared) == sorted(RULES)


def test_every_rule_has_its_documentation() -> None:
    for rule in RULES.values():
        assert rule.name.strip() and rule.summary.strip() and rule.why.strip(), rule.code


def test_the_vs_rules_are_the_ones_the_pass_declares() -> None:
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


def _rule_codes(tree: ast.Module) -> set[int]:
    """The ids of the ``code=`` strings of the ``Rule(...)`` calls of a module."""
    return {
        id(keyword.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Rule"
        for keyword in node.keywords
        if keyword.arg == "code"
    }


def bare_codes(source: str) -> list[tuple[int, str]]:
    """The (line, text) of every string constant of ``source`` that is a rule code, docstrings
    and the ``code=`` of a ``Rule(...)`` (where a code is declared) left out."""
    tree = ast.parse(source)
    allowed = _docstrings(tree) | _rule_codes(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in allowed
        and CODE.fullmatch(node.value)
    ]


def test_the_scan_finds_a_bare_code_and_skips_docstrings_and_declarations() -> None:
    source = (
        '"""About VS001."""\n\nR = Rule(code="VS009")\n\n'
        'def f():\n    """TL001"""\n    return "VS001" == x\n'
    )
    assert bare_codes(source) == [(7, "VS001")]
    assert _declared_codes(source) == ["VS009"]


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
