"""Line shapes: the fast path for the common one-line statement.

Model dumps repeat a few dozen line shapes tens of thousands of times. A line's *shape* is its
text with comment lines emptied and strings, SSA names, symbols and digits abstracted (C-speed
substitutions over the chunk). Each distinct shape is tokenized, scanned and parsed once; a
line whose shape is a complete one-line operation is then turned into IR from its shape plus
its own SSA names, without tokenizing it (``line_operations``). Everything else goes through
the token-level scanner, its tokens cut line by line (the tokens of a line seen twice kept).

Why the same IR: the substitutions keep every line and every token kind, so a line's shape
tokenizes, scans and parses as the line itself does but for the names and digits; the names
are read back from the line itself, and a shape whose answer could differ for a line of
its own (an element list long enough to be one token, a line continued by the next) is not
taken for it. The tokens of a line depend on its text alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any

from passlint.analysis.mlir.fast import templates
from passlint.analysis.mlir.lexer import SPACE, STRING_OR_REST, Tok, moved_tokens, tokenize
from passlint.analysis.mlir.statements import StatementError, Template, parse_statement
from passlint.analysis.mlir.structure import (
    End,
    Start,
    StatementSyntax,
    ending,
    scan,
    statement_start,
)
from passlint.analysis.source import line_starts, split_lines

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo

_STRING = re.compile(STRING_OR_REST)  # (unrolled: linear on huge blobs)
_SSA = re.compile(r"%(?:[A-Za-z_$.\-][\w$.\-]*|\d+)(?:#\d+)?")
# Named values become ``%v``; numbered ones keep their digits for ``_DIGITS``: ``%1a`` is the
# value ``%1`` and the word ``a`` (a letter may not follow digits in a name), ``%va`` is one.
# A name ending like a shaped type's word stays: ``%xtensor<8xf32>`` has a ``DIMS`` token.
_NAMED_SSA = re.compile(r"%[A-Za-z_$.\-][\w$.\-]*+(?<!tensor)(?<!vector)(?<!memref)")
# A line holding only a comment (a test file's `// CHECK:` lines are a third of it).
_COMMENT_LINE = re.compile(r"^[ \t]*//[^\r\n]*", re.MULTILINE)
# Symbols (`@name`; quoted ones are `@""` by then): a test file's functions differ in little else.
_SYMBOL = re.compile(r"@[A-Za-z_$.\-][\w$.\-]*")
# Digit runs other than a lone ``0`` (which may start a ``0x`` hex number) become ``1``: a
# ``0`` made from ``8`` would turn ``8xf32`` (an integer and a word) into a hex number.
# Written to start with one character class, which the regex engine scans for at C speed.
_DIGITS = re.compile(r"[0-9](?<!0(?!\d))\d*")
_STATEMENT_STARTS = frozenset(("VALUE_ID", "BARE_ID", "STRING"))
# Braces are allowed: a line whose statement scans alone with no region and no error holds
# dictionaries only (the generic form's `<{properties}>` and `{attributes}`).
_NOT_SIMPLE = frozenset(("ERROR", "BAD_STRING", "RESOURCE_OPEN", "RESOURCE_CLOSE", "CARET_ID"))
_SHAPE_LIMIT = 50_000
# Longer lines (a constant of megabytes) are neither cached nor parsed from their shape:
# where a statement starts and ends is read from their first and last tokens.
_LONG_LINE = 4096
_BLOCK = 1 << 20  # characters of a chunk normalized at once, at least


@dataclass(frozen=True, slots=True)
class LineShape:
    """What one normalized line is: blank, a continuation, or a complete one-line op."""

    blank: bool
    # Does a statement start at the line's first token? None when the answer
    # depends on the next lines' tokens (`%0 =` alone: a binding if a value follows).
    start: Start | None = "never"
    end: End = "open"  # how the line's last token ends an operation
    template: Template | None = None  # set when the line is a complete one-line operation
    values: int = 0  # how many SSA value tokens the line has
    value_tokens: tuple[int, ...] = ()  # token index of each SSA value, in order
    head: tuple[str, ...] = ()  # the kinds of its first two tokens
    first_word: str = ""  # its first token's text when that is a word
    # The template holds only for a line shorter than ``ELEMENTS_MIN``: the line has an
    # element list, which is one ELEMENTS token in a line long enough and which its shape
    # (digit runs cut to one) may have cut below that length.
    short_only: bool = False
    # Is the line cut into tokens with the lines before it, when they are? Not when it may
    # be taken uncut: a one-line operation, or a statement_memo candidate's first line.
    cut_with_previous: bool = True
    op_name: str = ""  # a one-line operation's name (digits abstracted), unquoted


_new = tuple.__new__


def _cut(key: str, memo: MlirMemo | None) -> tuple[Tok, ...]:
    """The tokens of one line's text ``key``, relative to its start, offered to the memo
    (which keeps them for lines seen twice (lines repeat verbatim: closing lines such as
    `} : (tensor<f32>) -> tensor<f32>`, the signatures and attribute lines of tests copied
    across files))."""
    cut = tuple(tokenize(key))
    if memo is not None:
        memo.cut_lines.offer(key, cut, len(cut))
    return cut


def _unknown(key: str) -> None:
    """What a line's shape or tokens are known as without a memo: nothing."""
    return None


def normalize(text: str) -> str:
    """Comment lines emptied; strings, SSA names, symbols and digit runs abstracted; lines
    and token kinds are preserved (an unterminated string becomes a lone quote), but where a
    string runs over a lone \\r (the line table then does not add up).

    (Each substitution is skipped where its first character is not in the text; a string's
    is a function: Python expands a template such as ``"\\g<closed>`` at each match, twice
    as slow.)"""
    if "//" in text:
        text = _COMMENT_LINE.sub("", text)
    if '"' in text:
        text = _STRING.sub(_abstract_string, text)
    if "%" in text:
        text = _NAMED_SSA.sub("%v", text)
    if "@" in text:
        text = _SYMBOL.sub("@s", text)
    return _DIGITS.sub("1", text)


def _abstract_string(match: re.Match[str]) -> str:
    """A string's shape: ``""``, or ``"`` for one its line ends unclosed."""
    return '""' if match.group("closed") else '"'


def shape_of(key: str, memo: MlirMemo | None = None) -> LineShape:
    """The shape of the normalized line ``key`` (the memo keeps each distinct one)."""
    if len(key) > _LONG_LINE:
        return _long_shape(key)
    if memo is None:
        return _compute_shape(key, None)
    found = memo.shapes.get(key)
    if found is None:
        found = _compute_shape(key, memo)
        if len(memo.shapes) >= _SHAPE_LIMIT:
            memo.shapes.clear()
        memo.shapes[key] = found
    return found


def _long_shape(key: str) -> LineShape:
    head = tokenize(key, 0, 512)
    tail = tokenize(key, len(key) - 512)
    if not head or not tail:
        return LineShape(blank=False)
    return LineShape(False, _line_start(key, head), ending(key, tail[-1]), **_head(key, head))


def _compute_shape(key: str, memo: MlirMemo | None) -> LineShape:
    toks = tokenize(key)
    if not toks:
        return LineShape(blank=True)
    kinds = [tok.kind for tok in toks]
    start = _line_start(key, toks)
    header = start != "never" and key.endswith("{")
    end, head = ending(key, toks[-1]), _head(key, toks)
    plain = LineShape(False, start, end, cut_with_previous=not header, **head)
    if start == "never" or kinds[0] not in _STATEMENT_STARTS or _NOT_SIMPLE & set(kinds):
        return plain
    if "//" in key:
        return plain  # a comment
    statements, errors = scan(key, toks)
    statement = statements[0] if len(statements) == 1 else None
    if errors or not isinstance(statement, StatementSyntax) or statement.regions:
        return plain
    if statement.broken or len(statement.toks) != len(toks):
        return plain
    if memo is None:
        template = parse_statement(key, toks)
    else:
        template = templates.by_kinds_and_words(key, toks, memo)
    if isinstance(template, StatementError) or template.kind != "op":
        return plain
    if template.arguments or template.bindings:
        return plain
    value_tokens = tuple(i for i, kind in enumerate(kinds) if kind == "VALUE_ID")
    name = key[toks[template.name].start : toks[template.name].end] if template.name >= 0 else ""
    return LineShape(
        False,
        start,
        end,
        template,
        len(value_tokens),
        value_tokens,
        short_only="dense<[" in key,
        cut_with_previous=False,
        op_name=name[1:-1] if template.generic else name,
        **head,
    )


def _line_start(key: str, toks: list[Tok]) -> Start | None:
    """``statement_start`` of a line's first token from the line's own tokens, or None when
    it looks past them (its answer would depend on the next lines)."""
    count = len(toks)
    beyond = False

    def has(index: int) -> bool:
        nonlocal beyond
        beyond |= index >= count
        return index < count

    start = statement_start(key, toks, 0, has)
    return None if beyond else start


def _head(key: str, toks: list[Tok]) -> dict[str, Any]:
    """``head`` and ``first_word`` of a line's shape (what decides whether a ``{`` ending the
    line before opens a region)."""
    first = toks[0]
    word = key[first.start : first.end] if first.kind == "BARE_ID" else ""
    return {"head": tuple(tok.kind for tok in toks[:2]), "first_word": word}


class LineTable:
    """The lines of a chunk with their absolute [start, end) offsets and shapes."""

    def __init__(self, text: str, start: int, end: int, memo: MlirMemo | None = None) -> None:
        self.text = text
        self.memo = memo
        self.end = end = min(end, len(text))
        self.starts: list[int] = []
        self.shapes: list[LineShape] = []
        self.ok = True
        known = _unknown if memo is None else memo.shapes.get
        # Block by block (each ends at a line break): the copies made of a block's lines are
        # a few megabytes at most, whatever the size of the chunk.
        while True:
            cut = text.find("\n", start + _BLOCK, end) if end - start > _BLOCK else -1
            stop = end if cut < 0 else cut + 1  # (after a line break, never inside a CRLF)
            starts = line_starts(text, start, stop)
            normalized = split_lines(normalize(text[start:stop]))
            if cut >= 0:  # (the line after the block's last line break is the next block's)
                starts.pop()
                normalized.pop()
            # A string over a lone \r takes a line break with it: the lines do not add up.
            self.ok &= len(normalized) == len(starts)
            self.starts += starts
            if self.ok:
                keys = map(str.strip, normalized, repeat(SPACE))
                self.shapes += [known(key) or shape_of(key, memo) for key in keys]
            if cut < 0:
                break
            start = cut + 1
        if not self.ok:
            self.shapes = []
        self.count = len(self.starts)  # (read in the scanner's loops: not a call of len)
        self._crlf = text.find("\r", self.starts[0] if self.starts else end, end) >= 0

    def __len__(self) -> int:
        return self.count

    def filled(self, line: int) -> int:
        """The first line at or after ``line`` that is not blank (``count`` when none is)."""
        count, shapes = self.count, self.shapes
        while line < count and shapes[line].blank:
            line += 1
        return line

    def line_end(self, line: int) -> int:
        """Where line ``line`` ends (where its line break starts, or the end of the chunk)."""
        if line + 1 >= self.count:
            return self.end
        after = self.starts[line + 1]
        if self._crlf and after - 2 >= self.starts[line] and self.text[after - 2] == "\r":
            return after - 2
        return after - 1

    def line_break(self, line: int) -> Tok:
        """The newline token of line ``line``'s line break (not the last line's)."""
        return _new(Tok, ("NL", self.line_end(line), self.starts[line + 1]))

    def tokens(self, first: int, last: int, out: list[Tok]) -> None:
        """Append the tokens of lines ``first`` to ``last`` to ``out``, as ``tokenize`` cuts
        them (a newline token between two lines)."""
        text, starts, shapes, memo = self.text, self.starts, self.shapes, self.memo
        known = _unknown if memo is None else memo.cut_lines.get
        for line in range(first, last + 1):
            end = self.line_end(line)
            if not shapes[line].blank:  # (a blank or comment line has no tokens)
                at = starts[line]
                body = text[at:end]
                cut = known(body) or _cut(body, memo)
                out += moved_tokens(cut, at)
            if line < last:
                out.append(self.line_break(line))

    def text_span(self, line: int) -> tuple[int, int]:
        """Where line ``line``'s text begins and ends, without surrounding white space."""
        start = self.starts[line]
        body = self.text[start : self.line_end(line)]
        return start + len(body) - len(body.lstrip(SPACE)), start + len(body.rstrip(SPACE))


def ssa_matches(text: str, start: int, end: int) -> list[re.Match[str]]:
    """The SSA value tokens of one line (strings excluded by the caller's count check)."""
    return list(_SSA.finditer(text, start, end))
