"""A statement's template from the memo: by the statement's text, by its token kinds and
words, by its kinds and word classes, and its parse tree by its kinds.

Why the same IR: ``statements.new_template`` reads a statement's token kinds, and its words
only where they name types or where the builtin checks read them (``word_class`` keeps
every distinction those checks make); a template holds token positions, never offsets or
names. So statements with the same text, or the same kinds and words, or the same kinds
and word classes, have the same template, and the same kinds the same parse tree. Errors
are only shared by text and by kinds and words: their messages name the words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token, Tree

from passlint.analysis.mlir.lexer import Tok
from passlint.analysis.mlir.statements import (
    indices_of,
    new_template,
    parse_kinds,
    terminal_kinds,
)
from passlint.analysis.mlir.syntax_rules import word_class
from passlint.analysis.mlir.template import StatementError, Template

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo

# Each part is bounded: past the limit it starts afresh (fuzzed or generated input can be
# endless).
CACHE_LIMIT = 20_000
# A statement of more tokens is not kept by its kinds and words: a header of 30,000
# arguments would be a key of megabytes, kept for nothing (no other statement repeats it).
LONGEST_KEPT = 4096


def parse_statement(
    text: str, toks: list[Tok], pieces: tuple[str, ...], memo: MlirMemo
) -> Template | StatementError:
    """``statements.parse_statement`` through the memo. ``pieces``: the statement's text
    between its regions (what the tokens are cut from, so it stands for them as a key)."""
    found = memo.by_text.get(pieces)
    if found is None:
        found = by_kinds_and_words(text, toks, memo)
        memo.by_text.offer(pieces, found, sum(map(len, pieces)))
    return found


def by_kinds_and_words(text: str, toks: list[Tok], memo: MlirMemo) -> Template | StatementError:
    """The template by kinds and words, and by kinds and word classes: statements that
    differ in an op name or an element type (`stablehlo.add` and `stablehlo.subtract`, f32
    and i32) share one."""
    kinds = terminal_kinds(text, toks)
    if len(kinds) > LONGEST_KEPT:
        return new_template(kinds, text, toks, lambda kinds: parse_tree(kinds, memo))
    bare = indices_of(kinds, "BARE_ID")
    named = sorted(bare + indices_of(kinds, "BANG_ID"))
    words = tuple(text[toks[i].start : toks[i].end] for i in named)
    key = (kinds, words)
    found = memo.templates.get(key)
    if found is None:
        classes = (kinds, tuple(word_class(text[toks[i].start : toks[i].end]) for i in bare))
        found = memo.by_classes.get(classes) or new_template(
            kinds, text, toks, lambda kinds: parse_tree(kinds, memo)
        )
        if len(memo.templates) >= CACHE_LIMIT:
            memo.templates.clear()
            memo.by_classes.clear()
        memo.templates[key] = found
        if isinstance(found, Template):
            memo.by_classes[classes] = found
    return found


def parse_tree(kinds: tuple[str, ...], memo: MlirMemo) -> Tree[Token] | StatementError:
    """``statements.parse_kinds`` by kinds."""
    tree = memo.trees.get(kinds)
    if tree is None:
        tree = parse_kinds(kinds)
        if len(memo.trees) >= CACHE_LIMIT:
            memo.trees.clear()
        memo.trees[kinds] = tree
    return tree
