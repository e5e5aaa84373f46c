"""What the MLIR front end may remember between files: one object, made by its caller (a
``passlint check`` run, a server worker) and passed to ``parse_file`` and ``outline_main``.

Without one the parser is the reference pipeline: every statement tokenized, parsed and
built afresh. With one it takes the fast paths, which give the same IR:

- parses by token kinds (``trees``), templates by kinds and words (``templates``) and by
  kinds and word classes (``by_classes``), and by the statement's own text (``by_text``):
  ``statements``;
- line shapes (``shapes``) and the tokens of lines seen twice (``cut_lines``): ``lines``;
- the IR of region statements repeated verbatim (``kept``): ``statement_memo``;
- the type counts of a generic op's function type, by template (``counts``): ``validate``;
- @main's header op by the header's text and place (``headers``, ``generics``):
  ``main_outline``.

Each part is bounded (past its bound it starts afresh); ``clear`` forgets everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from passlint.analysis.mlir.seen_twice import SeenTwice
from passlint.analysis.mlir.template import StatementError, Template

if TYPE_CHECKING:
    from lark import Token, Tree

    from passlint.analysis.mlir.ir import Operation
    from passlint.analysis.mlir.lexer import Tok
    from passlint.analysis.mlir.lines import LineShape
    from passlint.analysis.mlir.statement_memo import Entry

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
    headers: dict[tuple[int, str], Operation | None] = field(default_factory=dict)
    generics: dict[tuple[int, str], tuple[int, str, Operation | None]] = field(default_factory=dict)

    def clear(self) -> None:
        """Forget every cached parse, template, shape and IR."""
        for part in (self.trees, self.templates, self.by_classes, self.shapes, self.counts):
            part.clear()
        self.headers.clear()
        self.generics.clear()
        self.by_text.clear()
        self.cut_lines.clear()
        self.kept.clear()
