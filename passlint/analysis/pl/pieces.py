"""Parsing a pl source by pieces, so that an edit re-parses only the piece it touched.

A text is cut into top-level statements (a line at column 0 that is not a comment, a
decorator's def/class or an ``else``/``except``-like continuation starts one), and a class
into its members, each parsed alone and cached by its text and first line. Every piece is
parsed at its real line (padded with newlines), so nodes carry the positions a whole-file
parse gives. If any piece fails to parse, the whole text is parsed instead (its error is the
one Python reports), so a cut that splits a string or a bracket can only cost time, never
change the tree.
"""

from __future__ import annotations

import ast
import warnings

from passlint.analysis.pl.frontend import parse_text
from passlint.analysis.pl.model import SyntaxProblem

_CONTINUATIONS = ("else", "elif", "except", "finally", "case")
_PIECE_CACHE_SIZE = 20_000
_pieces: dict[tuple[str, int, str], list[ast.stmt]] = {}
_BLANK_OR_COMMENT = frozenset(" \t#\r\f")


def parse_pieces(path: str, text: str) -> ast.Module | SyntaxProblem:
    """``parse_text``, reusing the parsed statements of unchanged pieces."""
    if "\t" in text or "\\\n" in text:  # tabs and explicit joins: keep it simple
        return parse_text(path, text)
    lines = text.split("\n")
    body: list[ast.stmt] = []
    for start, end, is_class in _top_level(lines):
        stmts = _parse_piece(lines, start, end, is_class)
        if stmts is None:
            return parse_text(path, text)
        body.extend(stmts)
    return ast.Module(body=body, type_ignores=[])


def clear_piece_cache() -> None:
    _pieces.clear()


def _starts_piece(line: str, indent: int) -> bool:
    if len(line) <= indent or line[indent] in _BLANK_OR_COMMENT:
        return False
    if indent and line[:indent].strip():
        return False
    if line[indent] == ")" or line[indent] == "]" or line[indent] == "}":
        return False
    word = line[indent:].split(None, 1)[0].rstrip(":")
    return word not in _CONTINUATIONS


def _cuts(lines: list[str], first: int, last: int, indent: int) -> list[int]:
    """Lines in [first, last) that start a statement at ``indent`` (decorators glued)."""
    cuts: list[int] = []
    glued = False
    for number in range(first, last):
        line = lines[number]
        if not _starts_piece(line, indent):
            continue
        if not glued:
            cuts.append(number)
        glued = line[indent] == "@"
    return cuts


def _top_level(lines: list[str]) -> list[tuple[int, int, bool]]:
    cuts = _cuts(lines, 0, len(lines), 0)
    if not cuts or cuts[0] != 0:
        cuts.insert(0, 0)
    bounds = [*cuts[1:], len(lines)]
    out = []
    for start, end in zip(cuts, bounds, strict=True):
        is_class = any(lines[n].startswith("class ") for n in range(start, min(end, start + 8)))
        out.append((start, end, is_class))
    return out


def _parse_piece(lines: list[str], start: int, end: int, is_class: bool) -> list[ast.stmt] | None:
    piece = "\n".join(lines[start:end])
    key = (piece, start, "class" if is_class else "top")
    found = _pieces.get(key)
    if found is not None:
        return found
    stmts = _parse_class(lines, start, end) if is_class else None
    if stmts is None:
        stmts = _parse_at(piece, start)
    if stmts is None:
        return None
    if len(_pieces) >= _PIECE_CACHE_SIZE:
        _pieces.clear()
    _pieces[key] = stmts
    return stmts


def _parse_at(piece: str, start: int, wrapper: str = "") -> list[ast.stmt] | None:
    """Parse ``piece`` as if it began at 0-based line ``start`` (``wrapper``: one line put
    just before it, e.g. ``class _:`` for class members)."""
    padding = "\n" * (start - (1 if wrapper else 0))
    try:
        with warnings.catch_warnings():  # warnings about the user's code are not ours
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(padding + wrapper + piece, type_comments=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if wrapper:
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.ClassDef):
            return None
        return tree.body[0].body
    return tree.body


def _parse_class(lines: list[str], start: int, end: int) -> list[ast.stmt] | None:
    """A class piece: the header with its first member, then every other member alone."""
    header_end = next((n + 1 for n in range(start, end) if lines[n].startswith("class ")), None)
    if header_end is None:
        return None
    first = next(
        (
            n
            for n in range(header_end, end)
            if lines[n].strip() and not lines[n].lstrip().startswith("#")
        ),
        None,
    )
    if first is None:
        return None
    indent = len(lines[first]) - len(lines[first].lstrip(" "))
    if indent == 0:
        return None
    members = _cuts(lines, first, end, indent)
    if len(members) < 2 or members[0] != first:
        return None
    head = _parse_at("\n".join(lines[start : members[1]]), start)
    if head is None or len(head) != 1 or not isinstance(head[0], ast.ClassDef):
        return None
    cls = head[0]
    body = list(cls.body)
    bounds = [*members[2:], end]
    for member_start, member_end in zip(members[1:], bounds, strict=True):
        piece = "\n".join(lines[member_start:member_end])
        key = (piece, member_start, "member")
        stmts = _pieces.get(key)
        if stmts is None:
            stmts = _parse_at(piece, member_start, "class _:\n")
            if stmts is None:
                return None
            _pieces[key] = stmts
        body.extend(stmts)
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
