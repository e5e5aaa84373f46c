"""A recursive-descent parser of HLO text (linear time: every token is looked at a bounded
number of times). A syntax error is recorded with its span and the parser goes on at the next
line (or the computation's closing brace), so every broken instruction is reported once and
the rest is still read; it never raises on any input.

Grammar read (XLA's ``hlo_parser``, as far as the passes need it)::

    file        ::= module ('// -----' module)*     (lit tests: ``hlo-opt --split-input-file``)
    module      ::= 'HloModule' name (',' attribute)* computation*
                  | computation+                    (no header: ``ENTRY`` or ``name {`` first)
    computation ::= 'ENTRY'? name ('(' ... ')' '->' shape)? '{' instruction* '}'
    instruction ::= 'ROOT'? name '=' shape opcode '(' operands ')' (',' attribute)*
    operand     ::= shape? name | literal            (``constant(...)``: one literal)
    shape       ::= type '[' dims ']' layout? | '(' shape (',' shape)* ')'
    attribute   ::= name '=' balanced tokens up to a top-level ',' or the next instruction
"""

from __future__ import annotations

import re

from passlint.analysis.hlo.ir import (
    Attribute,
    Computation,
    HloFile,
    Instruction,
    Operand,
    Shape,
    Span,
    SyntaxIssue,
)
from passlint.analysis.hlo.lexer import END, NAME, NUMBER, LexError, Token, tokenize
from passlint.analysis.hlo.printed import read_printed
from passlint.analysis.mlir.excerpt import excerpt
from passlint.analysis.source import SourceText

_OPENERS = {"{": "}", "(": ")", "[": "]"}
_CLOSERS = frozenset(_OPENERS.values())
# Opcodes whose parenthesised text is one literal, not a list of operands.
LITERAL_OPCODES = frozenset({"constant", "parameter", "iota"})
MAX_TUPLE_DEPTH = 100  # tuple shapes nested deeper are an error, not a RecursionError
# Opcodes whose result shape XLA's parser infers when the text leaves it out
# (``x = tuple(a, b)``: ``CanInferShape`` in hlo_parser.cc); every other opcode needs one.
INFERRED_SHAPE_OPCODES = frozenset(
    [
        "abs",
        "add",
        "add-dependency",
        "after-all",
        "atan2",
        "batch-norm-grad",
        "batch-norm-inference",
        "batch-norm-training",
        "broadcast",
        "call",
        "cbrt",
        "ceil",
        "cholesky",
        "clamp",
        "compare",
        "complex",
        "concatenate",
        "conditional",
        "convolution",
        "copy",
        "cosine",
        "count-leading-zeros",
        "divide",
        "domain",
        "dot",
        "erf",
        "exponential",
        "exponential-minus-one",
        "fft",
        "floor",
        "gather",
        "get-dimension-size",
        "get-tuple-element",
        "imag",
        "is-finite",
        "log",
        "log-plus-one",
        "logistic",
        "and",
        "not",
        "or",
        "xor",
        "map",
        "maximum",
        "minimum",
        "multiply",
        "negate",
        "opt-barrier",
        "pad",
        "partition-id",
        "popcnt",
        "power",
        "ragged-dot",
        "real",
        "reduce",
        "reduce-window",
        "remainder",
        "replica-id",
        "reverse",
        "round-nearest-afz",
        "round-nearest-even",
        "rsqrt",
        "scatter",
        "select",
        "select-and-scatter",
        "set-dimension-size",
        "shift-left",
        "shift-right-arithmetic",
        "shift-right-logical",
        "sign",
        "sine",
        "sort",
        "sqrt",
        "subtract",
        "tan",
        "tanh",
        "topk",
        "transpose",
        "triangular-solve",
        "tuple",
        "while",
    ]
)


class _Error(Exception):
    def __init__(self, message: str, span: Span) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


# A line that is only ``// -----``: where ``hlo-opt --split-input-file`` (XLA's
# ``opt_main.cc``, the separator of ``mlir-opt``) cuts a lit test into modules.
_SPLIT_LINE = re.compile(r"^[ \t]*// -----[ \t]*\r?$", re.MULTILINE)


def split_modules(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each module of ``text``: the text between ``// -----`` lines
    (the whole text when it has none)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SPLIT_LINE.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def parse_hlo(text: str) -> HloFile:
    """The modules in ``text`` with every syntax issue found; never raises. A lit test of
    several modules (``// -----`` lines between them) is read module by module, as XLA's
    tools read it: each module's computations are added in order, the header (name and
    attributes) is the first module's. A text made only of lines as XLA prints them is read
    a line at a time (``printed``: the same result, several times faster)."""
    printed = read_printed(text)
    return printed if printed is not None else parse_tokens(text)


def parse_tokens(text: str) -> HloFile:
    """``parse_hlo`` by the tokens of ``text``: the grammar of the module docstring."""
    result = HloFile(SourceText(text))
    for index, (start, end) in enumerate(split_modules(text)):
        try:
            tokens = tokenize(text, start, end)
        except LexError as error:
            result.issues.append(SyntaxIssue(error.span, error.message))
            tokens = tokenize(text, start, error.span[0])  # (no such error before it)
            _Parser(text, tokens, result, quiet_from=error.span[0], index=index).module()
            continue
        _Parser(text, tokens, result, index=index).module()
    result.issues.sort(key=lambda issue: issue.span)
    return result


def _quote(token: Token) -> str:
    return "end of file" if token.kind == END else f"'{excerpt(token.text)}'"


class _Parser:
    def __init__(
        self,
        text: str,
        tokens: list[Token],
        result: HloFile,
        quiet_from: int | None = None,
        index: int = 0,
    ) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.result = result
        self.quiet_from = quiet_from  # issues from here on follow an earlier one: not reported
        self.index = index  # which module of the file (``// -----``); the first's name is kept
        self.header = index == 0

    # -- tokens -----------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.i]
        if token.kind != END:
            self.i += 1
        return token

    def at(self, text: str, ahead: int = 0) -> bool:
        token = self.peek(ahead)
        return token.text == text and token.kind not in ("string", END)

    def expect(self, text: str, what: str) -> Token:
        token = self.peek()
        if not self.at(text):
            raise _Error(f"Expected `{text}` {what}, found {_quote(token)}.", _span(token))
        return self.advance()

    def expect_name(self, what: str) -> Token:
        token = self.peek()
        if token.kind != NAME:
            raise _Error(f"Expected {what}, found {_quote(token)}.", _span(token))
        return self.advance()

    def issue(self, error: _Error) -> None:
        if self.quiet_from is not None and (
            error.span[0] >= self.quiet_from or self.peek().kind == END
        ):
            return  # (the text was cut at an unterminated string or comment: no more to say)
        self.result.issues.append(SyntaxIssue(error.span, error.message))

    # -- module -----------------------------------------------------------------------------

    def module(self) -> None:
        result = self.result
        try:
            first = self.peek()
            if not (first.kind == NAME and first.text == "HloModule"):
                # XLA's ``HloParserImpl::Run``: without the header, a text that starts with
                # ``ENTRY`` or with a name and ``{`` is a module of those computations.
                if first.kind == NAME and (first.text == "ENTRY" or self.at("{", 1)):
                    self.computations()
                    return
                raise _Error(
                    f"Expected `HloModule name` first, found {_quote(first)}; start the module "
                    "with it (or with a computation, `name {` or `ENTRY`).",
                    _span(first),
                )
            self.advance()
            name = self.expect_name("the module's name after `HloModule`")
            if self.header:
                result.name, result.name_span = name.text, _span(name)
            while self.at(","):
                self.advance()
                attribute = self.attribute(header=True)
                if self.header:
                    result.attributes.append(attribute)
        except _Error as error:
            self.issue(error)
            self.skip_to_computation()
        self.computations()

    def computations(self) -> None:
        while self.peek().kind != END:
            before = self.i
            try:
                self.computation()
            except _Error as error:
                self.issue(error)
                if self.i == before:
                    self.advance()
                self.skip_to_computation()

    def skip_line(self) -> None:
        """Go on at the next token that starts a line."""
        while not self.peek().line_start:
            self.advance()

    def skip_to_computation(self) -> None:
        """Go on at the next line that may start a computation (``ENTRY``, or a name before
        ``{`` or ``(``): one report for a run of lines that are not HLO."""
        while True:
            self.skip_line()
            token = self.peek()
            if token.kind == END or (token.kind == NAME and token.text == "ENTRY"):
                return
            if token.kind == NAME and (self.at("{", 1) or self.at("(", 1)):
                return
            self.advance()

    # -- computations -----------------------------------------------------------------------

    def computation(self) -> None:
        start = self.peek()
        is_entry = start.kind == NAME and start.text == "ENTRY"
        if is_entry:
            self.advance()
        name = self.expect_name("a computation name (or `ENTRY`)")
        if self.at("("):
            self.balanced()
            self.expect("->", "after the computation's parameters")
            self.shape()
        opener = self.expect("{", "to open the computation's body")
        computation = Computation(
            (start.start, opener.end), name.text, _span(name), is_entry, module=self.index
        )
        self.result.computations.append(computation)
        issues = len(self.result.issues)
        while True:
            token = self.peek()
            if token.kind == END:
                self.issue(
                    _Error(
                        f"Unclosed computation '{excerpt(name.text)}': its `{{` has no `}}`; "
                        "close it.",
                        _span(opener),
                    )
                )
                break
            if self.at("}"):
                self.advance()
                break
            before = self.i
            try:
                self.instruction(computation)
            except _Error as error:
                self.issue(error)
                self.recover(before)
        computation.span = (start.start, self.tokens[self.i - 1].end if self.i else 0)
        if len(self.result.issues) == issues:
            self.undefined_operands(computation)

    def recover(self, before: int) -> None:
        """After an error in an instruction: go on at the next line, or at the ``}`` that
        closes the computation; at least one token further."""
        if self.i == before or not self.peek().line_start:
            self.advance()
        depth = 0
        while True:
            token = self.peek()
            if token.kind == END or (token.line_start and depth <= 0):
                return
            if token.kind == "punct" and token.text in _OPENERS:
                depth += 1
            elif token.kind == "punct" and token.text in _CLOSERS:
                depth -= 1
                if depth < 0 and token.text == "}":
                    return
            self.advance()

    def undefined_operands(self, computation: Computation) -> None:
        for instruction in computation.instructions:
            for operand in instruction.operands:
                if operand.key not in computation.by_name:
                    self.issue(
                        _Error(
                            f"Operand '{excerpt(operand.name)}' is not an instruction of "
                            f"'{excerpt(computation.name)}'; define it or fix the name. XLA's "
                            "parser rejects a use of an instruction its computation lacks.",
                            operand.span,
                        )
                    )

    # -- instructions -----------------------------------------------------------------------

    def instruction(self, computation: Computation) -> None:
        first = self.peek()
        root_span = None
        if first.kind == NAME and first.text == "ROOT" and self.peek(1).kind == NAME:
            root_span = _span(self.advance())
        name = self.expect_name("an instruction (`name = shape opcode(...)`) or `}`")
        self.expect("=", f"after instruction name '{excerpt(name.text)}'")
        shape = self.result_shape()
        opcode = self.expect_name("an opcode after the shape")
        self.expect("(", f"after opcode '{excerpt(opcode.text)}'")
        instruction = Instruction(
            (first.start, 0), name.text, _span(name), shape, opcode.text, _span(opcode)
        )
        instruction.root_span = root_span
        if opcode.text in LITERAL_OPCODES:
            start = self.peek().start
            self.balanced_until(")", self.tokens[self.i - 1])
            instruction.literal = self.text[start : self.peek().start].strip()
            self.advance()
        else:
            self.operands(instruction)
        while self.at(","):
            self.advance()
            instruction.attributes.append(self.attribute(header=False))
        instruction.span = (first.start, self.tokens[self.i - 1].end)
        key = instruction.key
        if key in computation.by_name:
            raise _Error(
                f"Instruction '{excerpt(name.text)}' is defined twice; rename one. XLA's parser "
                "rejects a name defined before in the module.",
                _span(name),
            )
        computation.by_name[key] = instruction
        computation.instructions.append(instruction)

    def result_shape(self) -> Shape:
        """The instruction's shape; none written before an opcode XLA infers it for: an empty
        shape (its text ``""``, no element type, no element count)."""
        token = self.peek()
        if token.kind == NAME and self.at("(", 1) and token.text in INFERRED_SHAPE_OPCODES:
            return Shape((token.start, token.start), "")
        if token.kind == NAME and self.at("(", 1) and not self.at_shape():
            raise _Error(
                f"Expected a shape before opcode '{excerpt(token.text)}'; XLA's parser infers "
                "none for it (only for opcodes such as `tuple`, `add` or `reduce`).",
                _span(token),
            )
        return self.shape()

    def operands(self, instruction: Instruction) -> None:
        if self.at(")"):
            self.advance()
            return
        while True:
            shape = self.shape() if self.at_shape() else None
            token = self.peek()
            if token.kind == NAME:
                self.advance()
                instruction.operands.append(Operand(_span(token), token.text, shape))
            elif token.kind == NUMBER and shape is None:
                self.advance()
            else:
                raise _Error(f"Expected an operand name, found {_quote(token)}.", _span(token))
            if self.at(")"):
                self.advance()
                return
            self.expect(",", "or `)` in the operand list")

    def at_shape(self) -> bool:
        token = self.peek()
        if token.kind == NAME:
            return self.at("[", 1)
        return self.at("(")

    # -- shapes -----------------------------------------------------------------------------

    def shape(self, depth: int = 0) -> Shape:
        """A shape; a tuple shape nested more than ``MAX_TUPLE_DEPTH`` deep is an error (the
        parser recurses once per level)."""
        first = self.peek()
        if self.at("("):
            if depth >= MAX_TUPLE_DEPTH:
                raise _Error(
                    f"Tuple shape nesting too deep: more than {MAX_TUPLE_DEPTH} levels; "
                    "flatten the tuple.",
                    _span(first),
                )
            self.advance()
            elements: list[Shape] = []
            if not self.at(")"):
                elements.append(self.shape(depth + 1))
                while self.at(","):
                    self.advance()
                    elements.append(self.shape(depth + 1))
            close = self.expect(")", "to close the tuple shape")
            return Shape(
                (first.start, close.end),
                self.text[first.start : close.end],
                None,
                (),
                tuple(elements),
            )
        if first.kind != NAME or not self.at("[", 1):
            raise _Error(
                f"Expected a shape (such as `f32[2,3]`), found {_quote(first)}.", _span(first)
            )
        self.advance()
        self.advance()
        dims: list[str] = []
        current: list[str] = []
        while True:
            token = self.peek()
            if self.at("]"):
                break
            if self.at(","):
                dims.append("".join(current))
                current = []
            elif token.kind == NUMBER or token.text in ("?", "<="):
                current.append(token.text)
            else:
                raise _Error(
                    f"Expected a dimension or `]` in the shape, found {_quote(token)}.",
                    _span(token),
                )
            self.advance()
        if current or dims:
            dims.append("".join(current))
        close = self.advance()
        end = close.end
        if self.at("{") and self.peek().start == end:  # a layout, written right after `]`
            self.balanced()
            end = self.tokens[self.i - 1].end
        return Shape((first.start, end), self.text[first.start : end], first.text, tuple(dims))

    # -- balanced token runs ----------------------------------------------------------------

    def balanced(self) -> None:
        """An opening bracket and everything up to its match."""
        opener = self.advance()
        self.balanced_until(_OPENERS[opener.text], opener)
        self.advance()

    def balanced_until(self, closer: str, opener: Token | None = None) -> None:
        """Tokens up to (not including) ``closer`` at this depth."""
        stack: list[Token] = []
        while True:
            token = self.peek()
            if token.kind == END:
                where = stack[-1] if stack else opener
                if where is None:
                    raise _Error(f"Expected `{closer}`, found end of file.", _span(token))
                raise _Error(
                    f"Unclosed `{where.text}`: no `{_OPENERS[where.text]}` matches it; close it.",
                    _span(where),
                )
            if token.kind == "punct":
                if not stack and token.text == closer:
                    return
                if not stack and opener is not None and token.text in _CLOSERS:
                    raise _Error(
                        f"Unclosed `{opener.text}`: no `{closer}` matches it before "
                        f"`{token.text}`; close it.",
                        _span(opener),
                    )
                if token.text in _OPENERS:
                    stack.append(token)
                elif token.text in _CLOSERS:
                    if not stack or _OPENERS[stack[-1].text] != token.text:
                        raise _Error(
                            f"Unbalanced `{token.text}`: no opening bracket matches it; "
                            "remove it or add the opener.",
                            _span(token),
                        )
                    stack.pop()
            self.advance()

    def attribute(self, header: bool) -> Attribute:
        """``name=value``: the value is every token up to a top-level ``,``, a closing
        bracket of the enclosing level, or the start of the next instruction (in the module
        header: the next line)."""
        name = self.expect_name("an attribute name after `,`")
        self.expect("=", f"after attribute name '{excerpt(name.text)}'")
        start = self.peek()
        stack: list[Token] = []
        while True:
            token = self.peek()
            if token.kind == END:
                if stack:
                    raise _Error(
                        f"Unclosed `{stack[-1].text}`: no `{_OPENERS[stack[-1].text]}` matches "
                        "it; close it.",
                        _span(stack[-1]),
                    )
                break
            punct = token.kind == "punct"
            if not stack:
                if punct and (token.text == "," or token.text in _CLOSERS):
                    break
                if token is not start and self.starts_instruction(token, header):
                    break
            if punct and token.text in _OPENERS:
                stack.append(token)
            elif punct and token.text in _CLOSERS:
                if _OPENERS[stack[-1].text] != token.text:
                    raise _Error(
                        f"Unbalanced `{token.text}`: no opening bracket matches it; remove it "
                        "or add the opener.",
                        _span(token),
                    )
                stack.pop()
            self.advance()
        if self.peek() is start:
            raise _Error(
                f"Expected a value for attribute '{excerpt(name.text)}', found {_quote(start)}.",
                _span(start),
            )
        end = self.tokens[self.i - 1].end
        return Attribute(
            (name.start, end), name.text, self.text[start.start : end], (start.start, end)
        )

    def starts_instruction(self, token: Token, header: bool) -> bool:
        if header:
            return token.line_start
        if token.kind != NAME:
            return False
        if token.text == "ROOT" and self.peek(1).kind == NAME:
            return True
        return self.at("=", 1)


def _span(token: Token) -> Span:
    return token.start, token.end
