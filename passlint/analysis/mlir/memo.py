"""What the MLIR front end may remember between files: one object, made by its caller (a
``passlint check`` run, a server worker) and passed to ``parse_file`` and ``outline_main``.

Without one the parser is the reference pipeline: every statement tokenized, parsed and
built afresh, and nothing of the ``fast`` package is imported. With one it takes the fast
paths, which the builder, the scanner and the validation reach through this object's
methods, and which give the same IR (each ``fast`` module's docstring says why):

- parses by token kinds (``trees``), templates by kinds and words (``templates``) and by
  kinds and word classes (``by_classes``), and by the statement's own text (``by_text``):
  ``fast.templates``;
- line shapes (``shapes``) and the tokens of lines seen twice (``cut_lines``):
  ``fast.lines``; the scanner over them, which takes lines of a simple shape and kept
  statements whole: ``fast.line_scanner``; and the ops of one-line statements:
  ``fast.line_operations``;
- the IR of region statements repeated verbatim (``kept``): ``fast.statement_memo``;
- the type counts of a generic op's function type, by template (``counts``):
  ``fast.type_counts``;
- @main's header op by the header's text and place (``headers``, ``generics``):
  ``fast.main_headers``, for ``main_outline``.

Each part is bounded (past its bound it starts afresh); ``clear`` forgets everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from passlint.analysis.mlir.fast import (
    line_operations,
    line_scanner,
    main_headers,
    statement_memo,
    templates,
    type_counts,
)
from passlint.analysis.mlir.fast.lines import LineTable, shape_of
from passlint.analysis.mlir.seen_twice import SeenTwice
from passlint.analysis.mlir.template import StatementError, Template

if TYPE_CHECKING:
    from collections.abc import Callable

    from lark import Token, Tree

    from passlint.analysis.mlir.fast.lines import LineShape
    from passlint.analysis.mlir.fast.main_headers import Headers, Key, Stamp
    from passlint.analysis.mlir.fast.statement_memo import Candidate, Entry
    from passlint.analysis.mlir.ir import Operation, SyntaxIssue
    from passlint.analysis.mlir.lexer import Tok
    from passlint.analysis.mlir.structure import LineStatement, MemoStatement, Statement

Kinds = tuple[str, ...]


@dataclass(slots=True)
class MlirMemo:
    """The caches of the MLIR front end (see the module's docstring)."""

    trees: dict[Kinds, Tree[Token] | StatementError] = field(default_factory=dict)
    templates: dict[tuple[Kinds, tuple[str, ...]], Template | StatementError] = field(
        default_factory=dict
    )
    by_classes: dict[tuple[Kinds, tuple[object, ...]], Template] = field(default_factory=dict)
    # Bounded by the characters of the texts held.
    by_text: SeenTwice[tuple[str, ...], Template | StatementError] = field(
        default_factory=lambda: SeenTwice(2_000_000)
    )
    shapes: dict[str, LineShape] = field(default_factory=dict)
    # Bounded by tokens held.
    cut_lines: SeenTwice[str, tuple[Tok, ...]] = field(default_factory=lambda: SeenTwice(100_000))
    # Bounded by the characters of the statements held (their rows take a few times that).
    kept: SeenTwice[str, Entry] = field(default_factory=lambda: SeenTwice(1_000_000))
    counts: dict[int, tuple[Template, tuple[int | None, int | None]]] = field(default_factory=dict)
    headers: Headers = field(default_factory=dict)  # the custom form's
    generics: Headers = field(default_factory=dict)  # the generic form's

    # -- the fast paths, as the builder, the scanner and the validation consult them --------
    def line_table(self, text: str, start: int, end: int) -> LineTable:
        """The lines of the chunk ``text[start:end]`` with their shapes."""
        return LineTable(text, start, end, self)

    def shape(self, key: str) -> LineShape:
        """The shape of the normalized line ``key`` (``fast.lines.shape_of``), kept."""
        return shape_of(key, self)

    def scan_lines(self, text: str, lines: LineTable) -> tuple[list[Statement], list[SyntaxIssue]]:
        """The chunk's statements, scanned over its lines (``fast.line_scanner``)."""
        return line_scanner.scan_lines(text, lines, self)

    def candidate(self, lines: LineTable, line: int) -> Candidate | None:
        """The statement that may be a kept one's copy, whose first line is ``line``."""
        return statement_memo.candidate(lines, line)

    def parse_statement(
        self, text: str, toks: list[Tok], pieces: tuple[str, ...]
    ) -> Template | StatementError:
        """``statements.parse_statement``, remembered."""
        return templates.parse_statement(text, toks, pieces, self)

    def line_operation(
        self, text: str, line: LineStatement, shared: Callable[[str], str]
    ) -> Operation | None:
        """The op of a one-line statement of a simple shape (None: tokenize it)."""
        return line_operations.line_operation(text, line, shared)

    def relocated(self, statement: MemoStatement, text: str) -> Operation:
        """The IR of a copy of a kept statement, at the copy's place."""
        return statement_memo.relocated(statement.entry.row, statement.start, text)

    def keep(self, key: str, op: Operation, start: int) -> None:
        """Keep the IR of the statement ``key`` (for its later copies)."""
        statement_memo.keep(self.kept, key, op, start)

    def type_counts(self, op: Operation) -> tuple[int | None, int | None]:
        """``validate.type_counts`` of a generic op, remembered by template."""
        return type_counts.type_counts(op, self.counts)

    def main_header(
        self, headers: Headers, key: Key, stamp: Stamp, build: Callable[[], Operation | None]
    ) -> Operation | None:
        """@main's header op (``build`` parses it), remembered by the header's text and
        place in ``headers`` (this memo's ``headers`` or ``generics``)."""
        return main_headers.remembered(headers, key, stamp, build)

    def clear(self) -> None:
        """Forget every cached parse, template, shape and IR."""
        for part in (self.trees, self.templates, self.by_classes, self.shapes, self.counts):
            part.clear()
        self.headers.clear()
        self.generics.clear()
        self.by_text.clear()
        self.cut_lines.clear()
        self.kept.clear()
