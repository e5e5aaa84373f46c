"""Parsing a pl source by pieces, so that an edit re-parses only the piece it touched.

A text is cut into top-level statements (a line at column 0 that is not a comment, a
decorator's def/class or an ``else``/``except``-like continuation starts one), and a class
of two or more members into its members, each parsed alone and kept (in a ``PieceMemo``)
by its text and first line. Every piece is parsed at its real line (padded with newlines;
far down a long text, moved down after parsing), so nodes carry the positions a whole-file
parse gives. If any piece fails to parse, the whole text is parsed instead (its error is the
one Python reports), so a cut that splits a string or a bracket can only cost time, never
change the tree.

Pieces not in the memo are parsed a run of neighbours at a time, up to ``_GROUP_LINES``
(the padding lines cost as much as a piece's own text, and CPython parses a text of 80 lines
faster per line than one of 200 or one of 10), and the run's statements are handed to the
pieces whose lines they lie on; a run whose statements do not fall cleanly one piece or more
each is parsed piece by piece instead.
"""

from __future__ import annotations

import ast
import bisect
import warnings
from collections import OrderedDict

from passlint.analysis.pl.frontend import parse_text
from passlint.analysis.pl.model import SyntaxProblem
from passlint.analysis.pl.python_text import decoding_problem, parser_text
from passlint.analysis.pl.walk import nodes_below
from passlint.analysis.source import has_lone_cr

_CONTINUATIONS = ("else", "elif", "except", "finally", "case")
_PIECE_CACHE_SIZE = 20_000
_GROUP_LINES = 80
# A piece this far down or less is padded with newlines to its line: CPython reads 5,000
# newlines in a quarter of the time it takes to move a group's nodes down (15 ns a line,
# 0.6 us a node, about 500 nodes).
_PADDED_LINES = 5_000
# Whole classes, put together from their members: their keys are the class's whole text, so
# only the last few are kept (a program class is most of a module: each edit makes one).
_CLASS_CACHE_SIZE = 8
_BLANK_OR_COMMENT = frozenset(" \t#\r\f")
_NO_START = frozenset(["", *_BLANK_OR_COMMENT, ")", "]", "}"])


class PieceMemo:
    """The parsed statements of each piece (by text, first line and kind: ``pieces``) and
    of the last whole classes (``classes``) that ``parse_pieces`` reuses (part of a
    ``PlMemo``)."""

    def __init__(self) -> None:
        self.pieces: dict[tuple[str, int, str], list[ast.stmt]] = {}
        self.classes: OrderedDict[tuple[str, int], list[ast.stmt]] = OrderedDict()

    def clear(self) -> None:
        self.pieces.clear()
        self.classes.clear()


def parse_pieces(path: str, text: str, memo: PieceMemo) -> ast.Module | SyntaxProblem:
    """``parse_text``, reusing the parsed statements of unchanged pieces kept in ``memo``."""
    if _unusual(text) or decoding_problem(text) is not None:
        return parse_text(path, text)
    lines = parser_text(text).split("\n")
    body: list[ast.stmt] = []
    run: list[tuple[int, int]] = []  # top-level pieces parsed whole
    for start, end, members in [*_top_level(lines), (len(lines), len(lines), [])]:
        if members is None:
            run.append((start, end))
            continue
        parsed = _parse_run(memo, lines, run, "top", "")
        if parsed is None:
            return parse_text(path, text)
        body.extend(stmt for stmts in parsed for stmt in stmts)
        run = []
        if start == end:
            break  # the end marker
        class_stmts = _parse_piece(memo, lines, start, end, members)
        if class_stmts is None:
            return parse_text(path, text)
        body.extend(class_stmts)
    return ast.Module(body=body, type_ignores=[])


def _unusual(text: str) -> bool:
    """Is ``text`` parsed whole, to keep it simple: it has tabs or form feeds (indentation
    that columns do not tell), explicit line joins, or a line end other than ``\\n`` and
    ``\\r\\n`` (a piece's lines are counted by ``\\n``)."""
    tricky = "\t" in text or "\f" in text or "\\\n" in text or "\\\r" in text
    return tricky or has_lone_cr(text)


def _starts_piece(line: str, indent: int) -> bool:
    if len(line) <= indent or line[indent] in _BLANK_OR_COMMENT:
        return False
    if indent and line[:indent].strip():
        return False
    if line[indent] == ")" or line[indent] == "]" or line[indent] == "}":
        return False
    words = line[indent:].split(None, 1)
    return bool(words) and words[0].rstrip(":") not in _CONTINUATIONS  # none: "\xa0" etc.


def _cuts(lines: list[str], first: int, last: int, indent: int) -> list[int]:
    """Lines in [first, last) that start a statement at ``indent`` (decorators glued)."""
    cuts: list[int] = []
    glued = False
    for number in [  # a first sift, a C-speed loop: the character at ``indent`` may start one
        n for n in range(first, last) if lines[n][indent : indent + 1] not in _NO_START
    ]:
        line = lines[number]
        if not _starts_piece(line, indent):
            continue
        if not glued:
            cuts.append(number)
        glued = line[indent] == "@"
    return cuts


def _top_level(lines: list[str]) -> list[tuple[int, int, list[int] | None]]:
    """The top-level pieces, each with the lines starting the members of a class parsed
    member by member (None: a piece parsed whole, with its neighbours)."""
    cuts = _cuts(lines, 0, len(lines), 0)
    if not cuts or cuts[0] != 0:
        cuts.insert(0, 0)
    bounds = [*cuts[1:], len(lines)]
    out = []
    for start, end in zip(cuts, bounds, strict=True):
        header = next(
            (n for n in range(start, min(end, start + 8)) if lines[n].startswith("class ")), None
        )
        out.append((start, end, _members(lines, header + 1, end) if header is not None else None))
    return out


def _members(lines: list[str], body: int, end: int) -> list[int] | None:
    """The lines starting the members of a class whose body spans lines [body, end), when
    there are two or more (a class of one member is parsed whole)."""
    first = next(
        (n for n in range(body, end) if lines[n].strip() and not lines[n].lstrip().startswith("#")),
        None,
    )
    if first is None:
        return None
    indent = len(lines[first]) - len(lines[first].lstrip(" "))
    if indent == 0:
        return None
    members = _cuts(lines, first, end, indent)
    return members if len(members) >= 2 and members[0] == first else None


def _parse_piece(
    memo: PieceMemo, lines: list[str], start: int, end: int, members: list[int]
) -> list[ast.stmt] | None:
    """A class piece, from the memo or parsed (``_parse_class``, else as one piece)."""
    classes = memo.classes
    piece = "\n".join(lines[start:end])
    key = (piece, start)
    found = classes.get(key)
    if found is not None:
        classes.move_to_end(key)
        return found
    stmts = _parse_class(memo, lines, start, end, members)
    if stmts is None:
        stmts = _parse_at(piece, start)
    if stmts is None:
        return None
    classes[key] = stmts
    if len(classes) > _CLASS_CACHE_SIZE:
        classes.popitem(last=False)
    return stmts


def _remember(memo: PieceMemo, key: tuple[str, int, str], stmts: list[ast.stmt]) -> None:
    if len(memo.pieces) >= _PIECE_CACHE_SIZE:
        memo.pieces.clear()
    memo.pieces[key] = stmts


def _parse_run(
    memo: PieceMemo, lines: list[str], spans: list[tuple[int, int]], kind: str, wrapper: str
) -> list[list[ast.stmt]] | None:
    """The statements of each piece of a run of adjacent pieces (None: one does not parse);
    pieces kept in ``memo`` are reused, the others parsed in groups of up to
    ``_GROUP_LINES``."""
    keys = [("\n".join(lines[start:end]), start, kind) for start, end in spans]
    found = [memo.pieces.get(key) for key in keys]
    out: list[list[ast.stmt]] = []
    at = 0
    while at < len(spans):
        stmts = found[at]
        if stmts is not None:
            out.append(stmts)
            at += 1
            continue
        last = at + 1
        while (
            last < len(spans)
            and found[last] is None
            and spans[last][1] - spans[at][0] <= _GROUP_LINES
        ):
            last += 1
        group = _parse_group(lines, spans[at:last], wrapper) if last - at > 1 else None
        if group is None:
            group = []
            for key, (start, _) in zip(keys[at:last], spans[at:last], strict=True):
                alone = _parse_at(key[0], start, wrapper)
                if alone is None:
                    return None
                group.append(alone)
        for key, stmts in zip(keys[at:last], group, strict=True):
            _remember(memo, key, stmts)
        out.extend(group)
        at = last
    return out


def _parse_group(
    lines: list[str], spans: list[tuple[int, int]], wrapper: str
) -> list[list[ast.stmt]] | None:
    """Adjacent pieces parsed together, their statements handed out by line; None when the
    group does not parse or a statement does not lie within one piece."""
    first, end = spans[0][0], spans[-1][1]
    stmts = _parse_at("\n".join(lines[first:end]), first, wrapper)
    if stmts is None:
        return None
    starts = [start + 1 for start, _ in spans]  # 1-based first lines
    out: list[list[ast.stmt]] = [[] for _ in spans]
    for stmt in stmts:
        top = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        index = bisect.bisect_right(starts, top) - 1
        if index < 0 or (stmt.end_lineno or stmt.lineno) > spans[index][1]:
            return None
        out[index].append(stmt)
    return out if all(out) else None


def _parse_at(piece: str, start: int, wrapper: str = "") -> list[ast.stmt] | None:
    """Parse ``piece`` as if it began at 0-based line ``start`` (``wrapper``: one line put
    just before it, e.g. ``class _:`` for class members): padded with newlines, or (far
    down a text, where padding every piece would cost time quadratic in the lines) parsed
    where it is and its nodes moved down."""
    before = start - (1 if wrapper else 0)
    padding = before if before <= _PADDED_LINES else 0
    try:
        with warnings.catch_warnings():  # warnings about the user's code are not ours
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse("\n" * padding + wrapper + piece, type_comments=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if padding != before:
        _move_down(tree.body, before)
    if wrapper:
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.ClassDef):
            return None
        return tree.body[0].body
    return tree.body


def _move_down(stmts: list[ast.stmt], lines: int) -> None:
    """Add ``lines`` to the line numbers of every node of ``stmts``."""
    for node in nodes_below(stmts):
        lineno = getattr(node, "lineno", None)
        if lineno is not None:
            node.lineno = lineno + lines  # type: ignore[attr-defined]
            end = getattr(node, "end_lineno", None)
            if end is not None:
                node.end_lineno = end + lines  # type: ignore[attr-defined]


def _parse_class(
    memo: PieceMemo, lines: list[str], start: int, end: int, members: list[int]
) -> list[ast.stmt] | None:
    """A class piece: the header with its first member, then every other member alone."""
    head = _parse_at("\n".join(lines[start : members[1]]), start)
    if head is None or len(head) != 1 or not isinstance(head[0], ast.ClassDef):
        return None
    cls = head[0]
    body = list(cls.body)
    spans = list(zip(members[1:], [*members[2:], end], strict=True))
    parsed = _parse_run(memo, lines, spans, "member", "class _:\n")
    if parsed is None:
        return None
    body.extend(stmt for stmts in parsed for stmt in stmts)
    last = body[-1]
    new = ast.ClassDef(
        name=cls.name,
        bases=cls.bases,
        keywords=cls.keywords,
        body=body,
        decorator_list=cls.decorator_list,
        lineno=cls.lineno,
        col_offset=cls.col_offset,
        end_lineno=last.end_lineno,
        end_col_offset=last.end_col_offset,
    )
    if hasattr(cls, "type_params"):
        new.type_params = cls.type_params  # type: ignore[attr-defined]
    return [new]
