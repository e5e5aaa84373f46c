"""Cutting a token stream into statements and regions (the parse units), with recovery.

A statement is one operation with its regions: its tokens are the operation's own, and each
region it owns is replaced by one ``REGION`` placeholder token whose span covers the braces.
Regions hold statements of their own. Statements are thus independently parsable and can be
cached by their token kinds.

Newlines mean nothing: a statement ends where the next one starts, and a
statement starts only at a result list followed by ``=`` and an op name, a block label
definition, an alias definition, the resource section or a closing ``}``; or, right after a
token that can end an operation (a type, a value, a closing bracket...), at an op name
(``dialect.op``, ``return``, ``module``) or a quoted generic op name followed by ``(``.
Everything else continues the statement before it. ``{`` opens a region or a dictionary
depending on what follows. Newlines are only used to recover from a bracket left open.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from passlint.analysis import codes
from passlint.analysis.mlir.ir import SyntaxIssue
from passlint.analysis.mlir.lexer import Tok
from passlint.analysis.mlir.syntax_rules import is_op_name

if TYPE_CHECKING:
    from passlint.analysis.mlir.fast.lines import LineShape
    from passlint.analysis.mlir.fast.statement_memo import Candidate, Entry

_OPENERS = {"LPAR": "RPAR", "LSQB": "RSQB", "LANGLE": "RANGLE", "LBRACE": "RBRACE"}
_CLOSERS = frozenset(_OPENERS.values())
# What the statement scanner looks at inside brackets; any other token is simply taken.
_STRUCTURAL = frozenset(("NL", "RESOURCE_OPEN", *_OPENERS, *_CLOSERS))
_PLAIN_OPENERS = frozenset(("LPAR", "LSQB", "LANGLE"))
_PLAIN_CLOSERS = frozenset(("RPAR", "RSQB", "RANGLE"))
# Tokens after which the operation cannot be complete: an op name that follows one of them
# belongs to the operation (``applies stablehlo.add``, a type after ``:``).
_OPEN_ENDED = frozenset(
    ("COLON", "COMMA", "EQUAL", "ARROW", "LPAR", "LSQB", "LANGLE", "LBRACE", "PUNCT", "NL")
)
_TAKES_OP_NAME = frozenset(("applies",))
DICT_KEY_FOLLOWERS = frozenset(("EQUAL", "COMMA", "RBRACE"))
_RESULT_KINDS = frozenset(("VALUE_ID", "COLON", "INT", "COMMA", "EQUAL"))
# Deeper nesting is reported as E001 instead of being followed: the builder, the resolver and
# the statement parser walk regions and brackets recursively, and real IR nests a few levels.
MAX_REGION_DEPTH = 100
MAX_BRACKET_DEPTH = 128
_SPELLING = {
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LANGLE": "'<'",
    "RANGLE": "'>'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
}


@dataclass(slots=True)
class RegionSyntax:
    start: int
    end: int
    statements: list[Statement] = field(default_factory=list)


@dataclass(slots=True)
class StatementSyntax:
    """Tokens of one statement (regions replaced by ``REGION`` tokens) and its regions."""

    toks: list[Tok]
    regions: list[RegionSyntax]
    broken: bool = False  # a bracket error was reported inside it already
    # Its text, when the builder keeps its IR for later copies (statement_memo).
    memo_key: str = ""

    @property
    def start(self) -> int:
        return self.toks[0].start

    @property
    def end(self) -> int:
        return self.toks[-1].end


@dataclass(slots=True)
class LineStatement:
    """A statement that is exactly one line of a known simple shape, parsed lazily."""

    start: int
    end: int
    shape: LineShape
    broken: bool = False
    regions: tuple[()] = ()


@dataclass(slots=True)
class MemoStatement:
    """A statement whose IR is a kept entry's (``fast.statement_memo``), relocated to
    ``start`` (the builder clones it)."""

    start: int
    end: int
    entry: Entry


Statement = StatementSyntax | LineStatement | MemoStatement
Start = Literal["always", "after-op", "never"]
# How a token ends what precedes it: "op" an operation can end with it, "list" a comma (no
# statement starts after it), "open" anything else (only an unmistakable start follows).
End = Literal["op", "list", "open"]


def ends_operation(text: str, tok: Tok) -> bool:
    """Can an operation end with ``tok`` (so an op name after it starts a new statement)?"""
    if tok.kind in _OPEN_ENDED:
        return False
    return tok.kind != "BARE_ID" or text[tok.start : tok.end] not in _TAKES_OP_NAME


def ending(text: str, tok: Tok) -> End:
    """How ``tok`` ends the statement cut so far (see ``End``)."""
    if tok.kind == "COMMA":
        return "list"
    return "op" if ends_operation(text, tok) else "open"


def begins_after(start: Start, end: End) -> bool:
    """Does a statement that starts as ``start`` begin right after a token ending ``end``?

    The one rule for both the token scanner and the line shapes (whose answers must agree)."""
    if end == "list":
        return False  # within a result list (`%a, %b = ...`) or a list of any kind
    return start == "always" or (start == "after-op" and end == "op")


# The kinds of the tokens a statement can start at (``statement_start`` is "never" at others).
_MAY_START = frozenset(
    ("RBRACE", "RESOURCE_OPEN", "VALUE_ID", "HASH_ID", "BANG_ID", "CARET_ID", "BARE_ID", "STRING")
)


def statement_start(text: str, toks: list[Tok], index: int, has: Callable[[int], bool]) -> Start:
    """Does a statement start at ``toks[index]``: always (results, labels, aliases, ``}``...),
    only after a token that can end an operation (an op name), or never?

    ``has(i)`` says whether ``toks[i]`` exists (it may cut further tokens on demand).
    """
    kind = toks[index].kind
    if kind not in _MAY_START:
        return "never"
    if kind in ("RBRACE", "RESOURCE_OPEN"):
        return "always"

    def significant(i: int) -> int:
        while has(i) and toks[i].kind == "NL":
            i += 1
        return i

    if kind == "VALUE_ID":
        i = significant(index + 1)
        while has(i):
            if toks[i].kind == "COLON":  # `%0:2`
                i = significant(i + 1)
                if not (has(i) and toks[i].kind == "INT"):
                    return "never"
                i = significant(i + 1)
            if not (has(i) and toks[i].kind == "COMMA"):
                break
            i = significant(i + 1)
            if not (has(i) and toks[i].kind == "VALUE_ID"):
                return "never"
            i = significant(i + 1)
        after = significant(i + 1)
        if has(i) and toks[i].kind == "EQUAL":
            # Not a binding of a custom form (`scf.for %i = %lb to ...`, `= 0 to 8`).
            bound = has(after) and toks[after].kind in ("VALUE_ID", "INT", "FLOAT")
            return "never" if bound else "always"
        return "never"
    if kind in ("HASH_ID", "BANG_ID"):
        i = significant(index + 1)
        return "always" if has(i) and toks[i].kind == "EQUAL" else "never"
    if kind == "CARET_ID":
        i = significant(index + 1)
        if has(i) and toks[i].kind == "LPAR":
            depth = 0
            while has(i):
                k = toks[i].kind
                if k in ("LBRACE", "RBRACE"):
                    return "never"
                depth += (k == "LPAR") - (k == "RPAR")
                if depth == 0:
                    break
                i += 1
            i = significant(i + 1)
        return "always" if has(i) and toks[i].kind == "COLON" else "never"
    if kind == "BARE_ID":
        tok = toks[index]
        if not is_op_name(text[tok.start : tok.end]):
            return "never"
        i = significant(index + 1)
        if has(i) and toks[i].kind in ("EQUAL", "COLON"):
            return "never"  # a key (``mhlo.sharding = ...``)
        return "after-op"
    i = significant(index + 1)  # a STRING
    return "after-op" if has(i) and toks[i].kind == "LPAR" else "never"


class Scanner:
    """Statements from tokens, every token of the chunk cut beforehand (the reference
    scanner). Its hooks (``_has``, ``_take_line``, ``_remember``, ``_next_line_starts_statement``,
    ``_region_by_next_line``, ``_end_of_input``) answer as if no line were known; the line
    scanner of the fast paths (``fast.line_scanner``) overrides them to cut tokens line by
    line on demand and to take lines of a simple shape, and statements a memo keeps, whole."""

    def __init__(self, text: str, toks: list[Tok], end: int | None = None) -> None:
        self.text = text
        self.toks = toks
        self.end = len(text) if end is None else end  # of the chunk being scanned
        self.line_end = 0  # end of the text of the last statement taken whole from its lines
        self.pos = 0
        self.depth = 0  # regions open around the statement being scanned
        self.errors: list[SyntaxIssue] = []

    def _has(self, index: int) -> bool:
        """Is there a token at ``index``?"""
        return index < len(self.toks)

    def _take_line(self) -> tuple[Statement | None, Candidate | None]:
        """At a line start: the statement taken whole there without cutting its tokens, or
        else the memo's candidate the statement cut there may be kept as (the reference
        scanner takes none and keeps none)."""
        return None, None

    def _remember(self, statement: StatementSyntax, seen: Candidate) -> None:
        """Mark ``statement``, cut whole where the candidate ``seen`` stands, for the memo."""

    def _next_line_starts_statement(self, out: list[Tok], head: StatementHead) -> bool:
        """At a newline that ends the tokens cut so far: does the next line say, without
        being cut, that a statement starts there? (False: its tokens tell.)"""
        return False

    def _region_by_next_line(self, index: int) -> bool | None:
        """``_is_region_brace`` for a ``{`` that ends its line, read from the next line
        without cutting it (None: its tokens tell)."""
        return None

    def _end_of_input(self) -> int:
        return self.end

    # -- helpers -------------------------------------------------------------------------
    def _peek_significant(self, index: int) -> int:
        """Index of the first non-newline token at or after ``index`` (len(toks) at the end)."""
        toks = self.toks
        while (index < len(toks) or self._has(index)) and toks[index].kind == "NL":
            index += 1
        return index

    def _word(self, index: int) -> str:
        return self.text[self.toks[index].start : self.toks[index].end]

    def _is_region_brace(self, index: int) -> bool:
        """Does the ``{`` at ``index`` open a region (rather than a dictionary)?"""
        toks = self.toks
        if index > 0 and toks[index - 1].kind == "LANGLE":
            return False
        by_shape = self._region_by_next_line(index)
        if by_shape is not None:
            return by_shape
        nxt = index + 1
        same_line = self._has(nxt) and toks[nxt].kind != "NL"
        nxt = self._peek_significant(nxt)
        if not self._has(nxt):
            return False
        kind = toks[nxt].kind
        if kind in ("VALUE_ID", "CARET_ID"):
            return True
        if kind == "RBRACE":
            # `{}` is an empty dictionary; an empty region is printed across lines (`{\n}`).
            return not same_line
        if kind in ("BARE_ID", "STRING"):
            after = nxt + 1
            has_after = self._has(after)
            if kind == "BARE_ID" and self._word(nxt) == "return":
                return True  # a terminator without operands (`{ return }`)
            # What follows the word, on whichever line (`"func.func"` then `() <{...}>`).
            following = self._peek_significant(after)
            has_following = self._has(following)
            if has_following and toks[following].kind in DICT_KEY_FOLLOWERS:
                return False
            if kind == "STRING":
                return has_following and toks[following].kind == "LPAR"
            return not same_line or not has_after or toks[after].kind != "NL"
        return False

    def _begins_statement(self, index: int, out: list[Tok], head: StatementHead) -> bool:
        """Does a statement start at token ``index``, after the statement cut so far?"""
        if head.read(out).listing:
            return False
        end = ending(self.text, out[-1])
        return end != "list" and begins_after(
            statement_start(self.text, self.toks, index, self._has), end
        )

    def _starts_statement(self, index: int) -> bool:
        """Does the line at ``index`` look like a new operation (used to recover)?"""
        toks = self.toks
        i = index
        if self._has(i) and toks[i].kind == "CARET_ID":
            return True
        if self._has(i + 1):
            # `dialect.op %x ...`, `return %x`, `"dialect.op"(...)`: an op without results.
            first, second = toks[i].kind, toks[i + 1].kind
            if first == "BARE_ID" and second == "VALUE_ID":
                word = self._word(i)
                return "." in word or word == "return"
            if first == "STRING" and second == "LPAR":
                return True
        while self._has(i) and toks[i].kind == "VALUE_ID":
            i += 1
            if self._has(i) and toks[i].kind == "COLON":
                i += 2
            if self._has(i) and toks[i].kind == "COMMA":
                i += 1
                continue
            break
        if i == index:
            return False
        return (
            self._has(i + 1)
            and toks[i].kind == "EQUAL"
            and toks[i + 1].kind in ("BARE_ID", "STRING")
        )

    # -- scanning --------------------------------------------------------------------------
    def scan_body(self, closing: bool) -> list[Statement]:
        """Statements up to the ``}`` closing the current region (not consumed) or the end."""
        statements: list[Statement] = []
        toks = self.toks
        while True:
            while self.pos < len(toks) and toks[self.pos].kind == "NL":
                self.pos += 1
            taken, seen = self._take_line()
            if taken is not None:
                statements.append(taken)
                continue
            self.pos = self._peek_significant(self.pos)
            if not self._has(self.pos):
                return statements
            kind = toks[self.pos].kind
            if kind == "RBRACE":
                if closing:
                    return statements
                tok = toks[self.pos]
                self.errors.append(
                    SyntaxIssue(
                        tok.start,
                        tok.end,
                        "Unexpected '}': no region is open here; remove it or open the region.",
                        code=codes.E009,
                    )
                )
                self.pos += 1
                continue
            if kind == "RESOURCE_OPEN":
                statements.append(self._scan_resources())
                continue
            errors = len(self.errors)
            statement = self._scan_statement()
            if statement is not None:
                if seen is not None and len(self.errors) == errors:
                    self._remember(statement, seen)
                statements.append(statement)

    def _scan_resources(self) -> StatementSyntax:
        toks = self.toks
        begin = self.pos
        self.pos += 1
        while self._has(self.pos) and toks[self.pos].kind != "RESOURCE_CLOSE":
            self.pos += 1
        if not self._has(self.pos):
            opener = toks[begin]
            self.errors.append(
                SyntaxIssue(
                    self._end_of_input(),
                    self._end_of_input(),
                    "Expected '#-}' to close the resource section; add it at the end.",
                    (opener.start, opener.end),
                    codes.E009,
                )
            )
            return StatementSyntax([t for t in toks[begin:] if t.kind != "NL"], [], broken=True)
        self.pos += 1
        return StatementSyntax([t for t in toks[begin : self.pos] if t.kind != "NL"], [])

    def _scan_statement(self) -> StatementSyntax | None:
        toks = self.toks
        out: list[Tok] = []
        regions: list[RegionSyntax] = []
        stack: list[int] = []  # indices (into toks) of open brackets
        head = StatementHead()
        is_label = toks[self.pos].kind == "CARET_ID"
        broken = False  # errors in the statement's own tokens (not in its regions)
        crossed_line = False  # a newline since the last token taken (for recovery only)
        while self.pos < len(toks) or self._has(self.pos):
            if stack and not crossed_line and (run := self._bracketed_run(stack)) > self.pos:
                out.extend(toks[self.pos : run])
                self.pos = run
                continue
            tok = toks[self.pos]
            kind = tok.kind
            if kind == "NL":
                if not stack and out and self._next_line_starts_statement(out, head):
                    break
                crossed_line = True
                self.pos += 1
                continue
            if stack:
                if crossed_line and self._starts_statement(self.pos):
                    broken |= self._unclosed(stack)
                    break
            elif (
                out
                and kind in _MAY_START
                and kind != "RBRACE"
                and self._begins_statement(self.pos, out, head)
            ):
                break
            crossed_line = False
            if kind == "RBRACE" and (not stack or toks[stack[-1]].kind != "LBRACE"):
                if stack:
                    broken |= self._unclosed(stack)
                break  # closes the enclosing region: leave it for the region scanner
            if (
                kind == "LBRACE"
                and (stack or not head.read(out).generic)
                and self._is_region_brace(self.pos)
            ):
                regions.append(self._scan_region())
                region = regions[-1]
                out.append(Tok("REGION", region.start, region.end))
                continue
            if kind == "RESOURCE_OPEN" and not out:
                break
            self.pos += 1
            if kind in _OPENERS:
                stack.append(self.pos - 1)
                if len(stack) == MAX_BRACKET_DEPTH + 1:
                    broken = True
                    self.errors.append(
                        SyntaxIssue(
                            tok.start,
                            tok.end,
                            f"Nesting too deep: more than {MAX_BRACKET_DEPTH} brackets open in "
                            "one statement; passlint does not follow it.",
                        )
                    )
            elif kind in _CLOSERS:
                if stack and _OPENERS[toks[stack[-1]].kind] == kind:
                    stack.pop()
                else:
                    expected = (
                        f" (expected {_SPELLING[_OPENERS[toks[stack[-1]].kind]]})" if stack else ""
                    )
                    broken = True
                    self.errors.append(
                        SyntaxIssue(
                            tok.start,
                            tok.end,
                            f"Unbalanced {_SPELLING[kind]}: no opening bracket matches it"
                            f"{expected}; remove it or add the opener.",
                            code=codes.E009,
                        )
                    )
                    continue
            out.append(tok)
            if is_label and kind == "COLON" and not stack:
                break
        if stack and not self._has(self.pos):
            broken |= self._unclosed(stack)
        if not out:
            return None
        return StatementSyntax(out, regions, broken=broken)

    def _bracketed_run(self, stack: list[int]) -> int:
        """Where the run of tokens from ``pos`` inside the brackets of ``stack`` ends: tokens
        that are not braces, newlines or section markers, with the round, square and angle
        brackets they open and close in order (``stack`` follows them). The run stops at the
        bracket that closes ``stack``, and before any token ``_scan_statement`` must look at
        (a brace, a bracket out of order or too deep)."""
        toks = self.toks
        run, count = self.pos, len(toks)
        while run < count:
            kind = toks[run].kind
            if kind in _PLAIN_OPENERS:
                if len(stack) >= MAX_BRACKET_DEPTH:
                    break
                stack.append(run)
            elif kind in _PLAIN_CLOSERS:
                if _OPENERS[toks[stack[-1]].kind] != kind:
                    break
                stack.pop()
                if not stack:
                    return run + 1
            elif kind in _STRUCTURAL:
                break
            run += 1
        return run

    def _unclosed(self, stack: list[int]) -> bool:
        """Report the innermost bracket left open where the statement is cut.

        Not when an unterminated string ends the statement: its error says it all (the
        brackets it swallowed are its consequence). True when the statement is broken.
        """
        opener = self.toks[stack[-1]]
        last = self.pos - 1
        while last > 0 and self.toks[last].kind == "NL":
            last -= 1
        stack.clear()
        where = self.toks[last].end if last >= 0 else 0
        if self.line_end > where:
            # A region taken as LineStatements (no tokens cut, no bad string among them)
            # ends the statement's text.
            where = self.line_end
        elif last >= 0 and self.toks[last].kind == "BAD_STRING":
            return False
        closer = _SPELLING[_OPENERS[opener.kind]]
        cut = "end of the file" if not self._has(self.pos) else "end of the statement"
        self.errors.append(
            SyntaxIssue(
                where,
                where,
                f"Expected {closer} to close the {_SPELLING[opener.kind]} opened here; "
                f"add it before the {cut}.",
                (opener.start, opener.end),
                codes.E009,
            )
        )
        return True

    def _scan_region(self) -> RegionSyntax:
        opener = self.toks[self.pos]
        self.pos += 1
        if self.depth >= MAX_REGION_DEPTH:
            self.errors.append(
                SyntaxIssue(
                    opener.start,
                    opener.end,
                    f"Nesting too deep: more than {MAX_REGION_DEPTH} nested regions; "
                    "passlint does not follow them.",
                )
            )
            statements: list[Statement] = []
            self._skip_to_closing_brace()
        else:
            self.depth += 1
            statements = self.scan_body(closing=True)
            self.depth -= 1
        if self._has(self.pos):
            end = self.toks[self.pos].end
            self.pos += 1
        else:
            end = self._end_of_input()
            self.errors.append(
                SyntaxIssue(
                    end,
                    end,
                    "Expected '}' to close the region opened here; add it at the end.",
                    (opener.start, opener.end),
                    codes.E009,
                )
            )
        return RegionSyntax(opener.start, end, statements)

    def _skip_to_closing_brace(self) -> None:
        """Move to the ``}`` matching an already consumed ``{`` (or to the end), flatly."""
        toks = self.toks
        depth = 1
        while self._has(self.pos):
            kind = toks[self.pos].kind
            if kind == "LBRACE":
                depth += 1
            elif kind == "RBRACE":
                depth -= 1
                if depth == 0:
                    return
            self.pos += 1


_RESULT_LIST = frozenset(("VALUE_ID", "COLON", "INT", "COMMA"))


@dataclass(slots=True)
class StatementHead:
    """How the statement cut so far begins, read as its tokens come: the scanner asks at
    every token, and reading the statement from its start each time made a long result list
    (``%0 %0 %0 ...``) cost quadratic time. ``read`` only reads the tokens added since."""

    # Is it an unfinished result list (``%0``, ``%a, %b``)?
    listing: bool = True
    # Is it a generic op (``"name"(...)``: its first token after the results a string)? A
    # generic op's regions are always inside ``( )``, so a ``{`` at its top level is its
    # attribute dictionary, even when the next line starts with a bare word (a unit
    # attribute).
    generic: bool = False
    settled: bool = False  # (both are known for good)
    seen: int = 0  # the tokens read

    def read(self, out: list[Tok]) -> StatementHead:
        """These answers for ``out``, which only grew since the last read."""
        while not self.settled and self.seen < len(out):
            kind = out[self.seen].kind
            if kind not in _RESULT_LIST or (self.seen == 0 and kind != "VALUE_ID"):
                self.listing = False
            if kind not in _RESULT_KINDS:
                self.generic = kind == "STRING"
                self.settled = True
            self.seen += 1
        return self


def scan(
    text: str, toks: list[Tok], end: int | None = None
) -> tuple[list[Statement], list[SyntaxIssue]]:
    """Top-level statements of a chunk, from its tokens ``toks``, and the structural errors
    found on the way. ``end`` is where the chunk ends (default: the end of ``text``): an
    unclosed region or section ends there. (With a memo, the parser scans the chunk's lines
    instead: ``fast.line_scanner``.)"""
    scanner = Scanner(text, toks, end)
    statements = scanner.scan_body(closing=False)
    return statements, scanner.errors
