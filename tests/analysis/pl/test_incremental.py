"""The incremental path equals a from-scratch analysis: after random edits to pl modules,
parsing by cached pieces gives the tree ``ast.parse`` gives (positions included), and the
pass's findings with warm caches equal those of a cold run."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from passlint.analysis.findings import Finding
from passlint.analysis.pl import resolve
from passlint.analysis.pl.frontend import parse_text
from passlint.analysis.pl.model import SyntaxProblem
from passlint.analysis.pl.pieces import clear_piece_cache, parse_pieces
from passlint.passes.materialize_valid_shape_symbols import check_text

DATA = Path(__file__).resolve().parents[2] / "data" / "pl"
SOURCES = ["valid_shape_cases.py", "softmax_prepare.py", "forms/call_forms.py", "forms/nested.py"]
SNIPPETS = [
    " ",
    "\n",
    "\n\n",
    "#",
    "(",
    ")",
    '"""',
    "    ",
    "x = 1\n",
    "    def extra(self):\n        return 1\n",
    "@pl.program\nclass Other:\n    pass\n",
    "else:\n",
    "VALID",
    "n",
    "16",
    ", ",
    "\\\n",
    "\t",
]


def dump(tree: ast.Module | SyntaxProblem) -> str:
    if isinstance(tree, SyntaxProblem):
        return repr(tree)
    return ast.dump(tree, include_attributes=True)


def edit(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    kind = rng.randrange(5)
    if kind == 0:  # insert a snippet anywhere
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(SNIPPETS) + text[at:]
    if kind == 1:  # delete a few characters
        at = rng.randrange(len(text) + 1)
        return text[:at] + text[at + rng.randrange(1, 4) :]
    if kind == 2:  # append a space to a line (the benchmark's edit)
        line = rng.randrange(len(lines))
        lines[line] += " "
    elif kind == 3:  # delete or duplicate a line
        line = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[line]
        else:
            lines.insert(line, lines[line])
    else:  # rename a word
        line = rng.randrange(len(lines))
        lines[line] = lines[line].replace("VALID", "VALIDX", 1).replace("k_", "kk_", 1)
    return "\n".join(lines)


def fresh_findings(path: str, text: str) -> list[Finding]:
    clear_piece_cache()
    resolve.clear_cache()
    return check_text(path, text, None)


@pytest.mark.parametrize("name", SOURCES)
def test_random_edits_parse_and_analyse_like_from_scratch(name: str) -> None:
    rng = random.Random(name)
    path = str(DATA / name)
    text = (DATA / name).read_text()
    for _ in range(40):
        text = edit(rng, text)
        assert dump(parse_pieces(path, text)) == dump(parse_text(path, text))
        warm = check_text(path, text, None)
        assert warm == fresh_findings(path, text)
        check_text(path, text, None)  # warm the caches again for the next edit


def test_classes_are_parsed_member_by_member() -> None:
    clear_piece_cache()
    text = (DATA / "valid_shape_cases.py").read_text()
    parse_pieces("m.py", text)
    head, tail = text.rsplit("        return out\n", 1)  # in main, the last member
    edited = head + "        return  out\n" + tail
    before = resolve_pieces_count()
    parse_pieces("m.py", edited)
    assert resolve_pieces_count() - before == 2  # the touched member and the class piece


def resolve_pieces_count() -> int:
    from passlint.analysis.pl import pieces

    return len(pieces._pieces)
