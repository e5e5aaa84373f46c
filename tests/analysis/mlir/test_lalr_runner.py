"""The LALR runner gives lark's own parse of every statement's kinds: the same tree (rule
names, children, token kinds and positions) or the same rejection."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lark import Token, Tree
from lark.exceptions import UnexpectedToken
from mlir_testing import CONSTRUCTS, DATA

from passlint.analysis.mlir import grammar, lalr_tables, statements
from passlint.analysis.mlir.lalr import Rejected, grammar_digest
from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.mlir.parser import parse_file

FILES = sorted(DATA.glob("*.mlir")) + sorted(CONSTRUCTS.glob("*.mlir"))


def _kinds_of_every_statement() -> set[tuple[str, ...]]:
    seen: set[tuple[str, ...]] = set()
    run = statements._runner().parse

    def recording(kinds: tuple[str, ...]) -> object:
        seen.add(kinds)
        return run(kinds)

    memo = MlirMemo()
    runner = statements._runner()
    runner.parse = recording  # type: ignore[method-assign]
    try:
        for path in FILES:
            parse_file(path.read_text(encoding="utf-8"), memo)
    finally:
        del runner.parse
    return seen


def _lark(kinds: tuple[str, ...]) -> object:
    stream = [Token(kind, kind, start_pos=i) for i, kind in enumerate(kinds)]
    try:
        return _plain(grammar.lark_parser().parse(stream))  # type: ignore[arg-type]
    except UnexpectedToken as error:
        index = error.token.start_pos if error.token.type != "$END" else len(kinds)
        return Rejected(index, tuple(sorted(error.expected)))


def _plain(node: Tree[Token] | Token) -> object:
    if isinstance(node, Token):
        return (node.type, node.start_pos)
    return (str(node.data), [_plain(child) for child in node.children])


def _runner(kinds: tuple[str, ...]) -> object:
    parsed = statements._runner().parse(kinds)
    return parsed if isinstance(parsed, Rejected) else _plain(parsed)


KINDS = sorted(_kinds_of_every_statement())
BROKEN = [
    (),
    ("VALUE_ID",),
    ("VALUE_ID", "EQUAL", "STRING", "LPAR", "VALUE_ID", "VALUE_ID", "RPAR"),
    ("BARE_ID", "LPAR", "RPAR", "RPAR"),
    ("STRING", "LPAR", "RPAR", "COLON", "LPAR", "RPAR", "ARROW"),
    ("CARET_ID", "LPAR", "VALUE_ID", "COLON"),
]


def _cases() -> Iterator[tuple[str, ...]]:
    yield from KINDS
    yield from BROKEN


def test_the_fixtures_give_many_statement_shapes() -> None:
    assert len(KINDS) > 100


@pytest.mark.parametrize("kinds", list(_cases()), ids=lambda k: " ".join(k)[:60] or "empty")
def test_runner_parses_as_lark_does(kinds: tuple[str, ...]) -> None:
    assert _runner(kinds) == _lark(kinds)


def test_runner_rejections_are_statement_errors() -> None:
    parsed = statements.parse_kinds(BROKEN[2])
    assert isinstance(parsed, statements.StatementError)
    assert parsed.index == 5 and "COMMA" in parsed.expected


def test_the_written_tables_are_the_grammars() -> None:
    """``lalr_tables.py`` was written from this ``mlir.lark`` (else run
    `python -m passlint.analysis.mlir.lalr`); the runner of those tables is the one the
    parser uses, and the tests above compare its trees with lark's."""
    assert grammar_digest(grammar.grammar()) == lalr_tables.GRAMMAR_SHA256
    runner = statements._runner()
    assert runner.start_state == lalr_tables.START and len(runner.states) == len(lalr_tables.STATES)


def test_a_changed_grammar_is_analysed_by_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lalr_tables, "GRAMMAR_SHA256", "0" * 64)
    statements._runner.cache_clear()
    try:
        runner = statements._runner()
        assert len(runner.states) == len(lalr_tables.STATES)
        for kinds in KINDS[:40]:
            parsed = runner.parse(kinds)
            assert (parsed if isinstance(parsed, Rejected) else _plain(parsed)) == _lark(kinds)
    finally:
        statements._runner.cache_clear()
