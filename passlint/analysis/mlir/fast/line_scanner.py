"""The line scanner: the statement scanner (``structure.Scanner``) over a chunk's line table,
for a parse with a memo.

Tokens are cut line by line as the scanner asks for them (``_has``), and a line of a simple
shape is taken whole as a ``LineStatement`` without being cut at all, as is a statement the
memo keeps (``statement_memo``: a ``MemoStatement``); the next line's shape answers, without
cutting it, whether a statement starts there and whether a ``{`` ending a line opens a region.
Everything else is the reference scanner's, so the statements are the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passlint.analysis.mlir.ir import SyntaxIssue
from passlint.analysis.mlir.lexer import ELEMENTS_MIN, Tok
from passlint.analysis.mlir.structure import (
    DICT_KEY_FOLLOWERS,
    MAX_REGION_DEPTH,
    LineStatement,
    MemoStatement,
    Scanner,
    Statement,
    StatementHead,
    StatementSyntax,
    begins_after,
    ending,
)

if TYPE_CHECKING:
    from passlint.analysis.mlir.fast.lines import LineShape, LineTable
    from passlint.analysis.mlir.fast.statement_memo import Candidate
    from passlint.analysis.mlir.memo import MlirMemo


def scan_lines(
    text: str, lines: LineTable, memo: MlirMemo
) -> tuple[list[Statement], list[SyntaxIssue]]:
    """``structure.scan`` of the chunk ``lines`` covers, its tokens cut as the scanner goes;
    one-line statements of a simple shape come back as LineStatements, statements the memo
    keeps as MemoStatements."""
    scanner = LineScanner(text, lines, memo)
    statements = scanner.scan_body(closing=False)
    return statements, scanner.errors


class LineScanner(Scanner):
    """The scanner over a line table (module docstring)."""

    def __init__(self, text: str, lines: LineTable, memo: MlirMemo) -> None:
        super().__init__(text, [])
        self.lines = lines
        self.memo = memo  # (its kept statements are taken as MemoStatements)
        self.next_line = 0  # first line not yet tokenized

    def _has(self, index: int) -> bool:
        """Is there a token at ``index``? Tokenizes further lines as needed: in one go, the
        lines up to the next one that may be taken uncut (``LineShape.cut_with_previous``: a
        one-line operation's shape, a statement_memo candidate's first line), but for the
        blank lines before it (so the scanner reads that line's shape past them, and may take
        it as a LineStatement or a kept copy, untokenized)."""
        toks = self.toks
        if index < len(toks):
            return True
        lines = self.lines
        count, shapes = lines.count, lines.shapes
        while index >= len(toks) and self.next_line < count:
            # (blank lines hold no token: passed once, not again at each of them)
            first = last = lines.filled(self.next_line)
            if first == count:
                self.next_line = count
                break
            while last + 1 < count and shapes[last + 1].cut_with_previous:
                last += 1
            while last > first and shapes[last].blank:
                last -= 1
            self.next_line = last + 1
            lines.tokens(first, last, toks)
            if last + 1 < count:
                toks.append(lines.line_break(last))
        return index < len(toks)

    def _take_line(self) -> tuple[Statement | None, Candidate | None]:
        line = self._fresh_line()
        if line is None:
            return None, None
        taken = self._line_statement(line)
        if taken is not None:
            return taken, None
        seen = self._candidate(line)
        if seen is None:
            return None, None
        kept = self.memo.kept
        entry = kept.get(seen.key)
        if entry is not None and self._fits(entry.depth, seen.last_line):
            self.next_line = seen.last_line + 1
            self.line_end = seen.end
            return MemoStatement(seen.start, seen.end, entry), None
        if entry is not None or not kept.sighted(seen.key):
            return None, None  # (kept already, or seen for the first time)
        return None, seen

    def _remember(self, statement: StatementSyntax, seen: Candidate) -> None:
        """The builder keeps the IR of a statement that is the whole candidate, scanned
        without a broken bracket (by its text: ``memo_key``)."""
        if not statement.broken and statement.start == seen.start and statement.end == seen.end:
            statement.memo_key = seen.key

    def _next_line_starts_statement(self, out: list[Tok], head: StatementHead) -> bool:
        """At a newline that ends the tokens cut so far: does the next non-blank line's shape
        say a statement starts there, after the statement ``out``? (Answered without
        tokenizing that line; False when only its tokens can tell: the scanner cuts them and
        ``_begins_statement`` answers.)"""
        if self.pos + 1 < len(self.toks):
            return False
        shape = self._next_shape()
        if shape is None:
            return True
        if shape.start is None or head.read(out).listing:
            return False
        return begins_after(shape.start, ending(self.text, out[-1]))

    def _next_shape(self) -> LineShape | None:
        """The shape of the first non-blank line not cut into tokens yet (None: none)."""
        lines = self.lines
        line = lines.filled(self.next_line)
        return lines.shapes[line] if line < lines.count else None

    def _end_of_input(self) -> int:
        return self.lines.end

    def _fresh_line(self) -> int | None:
        """The first non-blank line not cut into tokens yet, when the scanner stands at a
        line start (no token cut ahead); None otherwise, or at the end."""
        lines = self.lines
        if self.pos < len(self.toks):
            return None
        line = lines.filled(self.next_line)
        return line if line < lines.count else None

    def _line_statement(self, line: int) -> LineStatement | None:
        """Line ``line`` (``_fresh_line``) as a LineStatement, when it has a simple shape and
        the line after it does not continue it."""
        lines = self.lines
        shape = lines.shapes[line]
        if shape.template is None:
            return None
        after = lines.filled(line + 1)
        if after < lines.count:
            start = lines.shapes[after].start
            if start is None or not begins_after(start, shape.end):
                return None
        begin, end = lines.text_span(line)
        if shape.short_only and end - begin >= ELEMENTS_MIN:
            return None
        self.next_line = line + 1
        self.line_end = end
        return LineStatement(begin, end, shape)

    def _region_by_next_line(self, index: int) -> bool | None:
        """``_is_region_brace`` for a ``{`` that ends its line, read from the shape of the
        next line without cutting its tokens (so the region's first statement can be taken
        from its line shape too); None when the shape does not settle it."""
        toks = self.toks
        if index + 2 != len(toks) or toks[index + 1].kind != "NL":
            return None
        shape = self._next_shape()
        if shape is None or not shape.head:
            return None
        kind = shape.head[0]
        if kind in ("VALUE_ID", "CARET_ID", "RBRACE"):
            return True  # (a `}` on a later line: an empty region)
        if kind not in ("BARE_ID", "STRING"):
            return False
        if kind == "BARE_ID" and shape.first_word == "return":
            return True
        if len(shape.head) < 2:
            return None
        after = shape.head[1]
        if after in DICT_KEY_FOLLOWERS:
            return False
        return after == "LPAR" if kind == "STRING" else True

    def _candidate(self, line: int) -> Candidate | None:
        """The statement_memo candidate at line ``line`` (``_fresh_line``), when a statement
        starts there."""
        lines = self.lines
        if lines.shapes[line].start not in ("always", "after-op"):
            return None
        return self.memo.candidate(lines, line)

    def _fits(self, depth: int, last_line: int) -> bool:
        """May a kept statement nesting ``depth`` regions, ending on ``last_line``, stand
        here: its regions nest no deeper than allowed, and it ends there (the next line that
        is not blank starts a statement after a region, as ``_next_line_starts_statement``
        reads it, or there is none)?"""
        lines = self.lines
        if self.depth + depth > MAX_REGION_DEPTH:
            return False
        after = lines.filled(last_line + 1)
        if after >= lines.count:
            return True
        start = lines.shapes[after].start
        return start is not None and begins_after(start, "op")  # (a REGION ends it: "op")
