"""The pl front end's shortcuts give what the long way gives: statements whose every ``(``
opens a pypto call are not walked for call sites, late-parameter checks skip annotations
that name no later parameter, and pieces not yet cached are parsed in groups."""

from __future__ import annotations

import ast
import textwrap

import pytest

from passlint.analysis.pl import frontend
from passlint.analysis.pl.frontend import build_module, parse_text
from passlint.analysis.pl.model import Module
from passlint.analysis.pl.pieces import PieceMemo, parse_pieces
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

HEADER = "import pypto.language as pl\nfrom pypto.language import submit, load as ld\n\n"

STATEMENTS = [
    "t = pl.load(x, [0, 0], [16, 128])",
    "out = self.k(a, out)",
    "out = (self.k)(a, out)",
    "out = pl.submit(self.k, a, out)",
    "out = submit(self.k, a, out)",
    "out = pl.distributed.spmd_submit(self.k, a, out)",
    "out = pl.load(self.k(a, out))",
    "out = pl . load(self.k(a, out))",
    "out = pl.store(t, [0, 0], ld(self.k(a, out)))",
    'note = "pl.load(" + str(self.k(a, out))',
    'note = f"{self.k(a, out)}"',
    "out = x.pl.load(a)",
    "out = pl.load(a)(self.k(a, out))",
    "out = [self.k(a, out) for a in (x, y)]",
    "out = pl.load(\n            self.k(a, out), [0, 0])",
    "if pl.load(a):\n            out = self.k(a, out)",
    "out = k(a, out); pl.load(a)",
    "out = ld(a, out)",
]


def program(statement: str) -> str:
    return (
        HEADER
        + "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.Orchestration)\n"
        + "    def main(self, x, y, a, out):\n        "
        + statement
        + "\n        return out\n"
    )


def calls(text: str, walk_all: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with monkeypatch.context() as patch:
        if walk_all:
            patch.setattr(frontend._Builder, "_only_pypto_calls", lambda self, span: False)
        tree = parse_text("m.py", text)
        assert isinstance(tree, ast.Module)
        module = build_module("m.py", text, tree, frontend.ModelMemo())
    assert isinstance(module, Module)
    return [
        f"{site.form} {site.target_kind} {site.target_name} {site.span}"
        for function in module.functions
        for site in function.calls
    ]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_call_sites_equal_those_of_walking_every_statement(
    statement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = program(statement)
    assert calls(text, False, monkeypatch) == calls(text, True, monkeypatch)


def test_statements_of_pypto_calls_only_are_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[ast.stmt] = []
    shallow = frontend._shallow_nodes

    def spy(stmt: ast.stmt) -> list[ast.AST]:
        walked.append(stmt)
        return shallow(stmt)

    monkeypatch.setattr(frontend, "_shallow_nodes", spy)
    calls(program("t = pl.store(pl.load(x, [0, 0], [16, 128]), [0, 0], out)"), False, monkeypatch)
    assert walked == []
    calls(program("out = self.k(a, out)"), False, monkeypatch)
    assert len(walked) == 1


LATE = HEADER + textwrap.dedent(
    """\
    N = pl.dynamic("N")
    LAYOUT = pl.dynamic("LAYOUT")

    @pl.function(type=pl.FunctionType.InCore)
    def k(x: pl.Tensor[[N, 128], pl.FP32, pl.TensorView(valid_shape=[N, LAYOUT])],
          LAYOUT: pl.Scalar[pl.INDEX], layout: pl.Tensor[[16, 16], pl.FP32]):
        return x
    """
)


def test_a_later_parameter_named_in_an_earlier_annotation_is_still_found() -> None:
    codes = [f.code for f in check_text("m.py", LATE, None)]
    assert codes.count("VS005") == 1  # LAYOUT; "layout" only appears inside other words


# -- grouped parsing of uncached pieces -----------------------------------------------------

MEMBERS = [
    "    def f{i}(self):\n        return {i}\n",
    "    x{i} = 1; y{i} = 2\n",
    "    @staticmethod\n    @pl.function\n    def g{i}():\n        pass\n",
    '    DOC{i} = """\n    not a member\n    """\n',
    "    # a comment\n\n    z{i} = (1,\n    2)\n",
]


@pytest.mark.parametrize("seed", range(12))
def test_a_cold_parse_by_groups_equals_ast_parse(seed: int) -> None:
    import random

    rng = random.Random(seed)
    body = "".join(rng.choice(MEMBERS).format(i=i) for i in range(rng.randrange(2, 60)))
    top = "".join(f"def t{i}():\n    return {i}\n\n" for i in range(rng.randrange(0, 30)))
    text = HEADER + top + "class C:\n" + body + top.replace("def t", "def u")
    memo = PieceMemo()
    grouped = parse_pieces("m.py", text, memo)
    expected = ast.dump(ast.parse(text), include_attributes=True)
    assert ast.dump(grouped, include_attributes=True) == expected
    # each piece was cached with its own statements: editing any one piece reparses it alone
    lines = text.split("\n")
    target = rng.randrange(len(lines))
    lines[target] += "  # edited"
    edited = "\n".join(lines)
    assert ast.dump(parse_pieces("m.py", edited, memo), include_attributes=True) == ast.dump(
        ast.parse(edited), include_attributes=True
    )


def test_a_group_whose_statement_spans_two_pieces_is_parsed_piece_by_piece() -> None:
    # the string's middle line starts at member indentation: it is cut as a piece of its own
    text = HEADER + 'class C:\n    a = 1\n    s = """\n    b = 2\n    """\n    c = 3\n'
    memo = PieceMemo()
    tree = parse_pieces("m.py", text, memo)
    assert ast.dump(tree, include_attributes=True) == ast.dump(
        ast.parse(text), include_attributes=True
    )
    assert not any(stmts == [] for stmts in memo.pieces.values())


def test_a_line_of_unicode_whitespace_at_a_cut_is_a_syntax_error_not_a_crash() -> None:
    # found by the fuzzer: "\xa0" is whitespace to str.split but starts no piece
    text = HEADER + "class C:\n\xa0\n    a = 1\n"
    memo = PieceMemo()
    assert parse_pieces("m.py", text, memo) == parse_text("m.py", text)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_node_ranges_equal_ranges_of_their_spans(newline: str) -> None:
    from passlint.analysis.pl.positions import Positions
    from passlint.analysis.source import SourceText

    text = newline.join(
        ["x = 'é' + f(ü, 1)", "def g(a: T['ß', 2]):", "    return (a,", "        '日本')", ""]
    )
    pos = Positions(SourceText(text))
    for node in ast.walk(ast.parse(text)):
        if hasattr(node, "lineno"):
            assert pos.range(node) == pos.source.range(*pos.span(node))
