"""HLO text as XLA prints it, read a line at a time: the fast path of ``parser.parse_hlo``.

XLA's printer (``HloModule::ToString``, what dumps and ``as_hlo_text()`` hold) writes the
module header, each computation's header, each instruction and each closing ``}`` on a line
of its own. A text made only of such lines (and blank or ``//`` comment lines) is read here,
each line by one regular expression, into the same ``HloFile`` the recursive-descent parser
builds (no tokens: a few objects per instruction). Anything else — a construct split over
lines, a ``/* */`` comment (but the ``/*index=5*/`` XLA writes in long lists), a lit test's
``// -----`` line between modules, brackets nested deeper than ``_DEPTH``, an unusual
spelling the token grammar reads another way, a name defined twice or used undefined — makes
``read_printed`` answer None, and the parser reads the whole text (and reports its errors).
So this reader never reports and never disagrees with the parser: a test compares the two
on every text it accepts.
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
)
from passlint.analysis.source import SourceText

LITERAL_OPCODES = frozenset({"constant", "parameter", "iota"})  # (as the parser's)
_DEPTH = 4  # brackets nested in a value, a layout or a literal; deeper: the parser reads it

# The lexer's name token, but never the numbers ``inf``/``nan`` the lexer reads first.
_NAME = r"(?!(?:inf|nan)\b)%?[A-Za-z_$](?:[\w.$]|-(?!>))*+"
_STRING = r'"[^"\\\n]*+(?:\\[^\n][^"\\\n]*+)*+"'
_PLAIN = r'[^(){}\[\]"\n/]'  # in brackets: anything but brackets, quotes, line breaks, `/`
# The comment XLA's printer writes before every fifth element of a long list.
_INDEX = r"/\*index=\d++\*/"
_SEP = rf"(?:[ \t]|{_INDEX})*+"  # blanks (and index comments) between a list's elements


def _nested(depth: int) -> str:
    """What a bracket group holds: plain text, strings and groups ``depth`` deep."""
    atom = rf"(?:{_PLAIN}|{_STRING}|{_INDEX})"
    for _ in range(depth):
        group = rf"\((?:{atom})*+\)|\[(?:{atom})*+\]|\{{(?:{atom})*+\}}"
        atom = rf"(?:{_PLAIN}|{_STRING}|{_INDEX}|{group})"
    return atom


_INSIDE = _nested(_DEPTH - 1)  # (a group's contents)
_GROUP = rf"(?:\((?:{_INSIDE})*+\)|\[(?:{_INSIDE})*+\]|\{{(?:{_INSIDE})*+\}})"
_DIM = r"(?:\d++|\?|<=[ \t]*+\d++)"
_LAYOUT = r"\{(?:[^(){}\[\]\"\n/]|\([^(){}\[\]\"\n/]*+\))*+\}"
_ARRAY = rf"[a-z][a-z0-9]*+\[[ \t]*+(?:{_DIM}(?:[ \t]*+,[ \t]*+{_DIM})*+)?[ \t]*+\](?:{_LAYOUT})?"


def _shapes(depth: int) -> str:
    """An array shape, or a tuple of shapes nested ``depth`` deep."""
    shape = _ARRAY
    for _ in range(depth):
        shape = rf"(?:{_ARRAY}|\({_SEP}(?:{shape}(?:[ \t]*+,{_SEP}{shape})*+)?[ \t]*+\))"
    return shape


_SHAPE = _shapes(3)
_OPERAND = rf"(?:{_SHAPE}[ \t]*+)?{_NAME}"
_VALUE = rf'(?:[^\s(){{}}\[\]",=/]|{_STRING}|{_GROUP})++'  # (no blank at the top level)
_ATTRIBUTES = rf"(?:[ \t]*+,[ \t]*+{_NAME}[ \t]*+=[ \t]*+{_VALUE})*+"
_END = r"[ \t]*+(?://[^\n]*+)?\r?"  # a line's end: blanks, a comment, the CR of a CR LF
# ``[ROOT] name = shape opcode(`` (groups 1-4), then the arguments (5) and attributes (6).
_START = rf"[ \t]*+(?:(ROOT)[ \t]++)?({_NAME})[ \t]*+=[ \t]*+({_SHAPE})[ \t]*+({_NAME})[ \t]*+\("

_SKIPPED = re.compile(rf"{_END}")  # a blank or comment line
_HEADER = re.compile(rf"[ \t]*+HloModule[ \t]++({_NAME})({_ATTRIBUTES}){_END}")
_COMPUTATION = re.compile(
    rf"[ \t]*+(?:(ENTRY)[ \t]++)?((?!ENTRY\b){_NAME})[ \t]*+"
    rf"(?:\((?:{_INSIDE})*+\)[ \t]*+->[ \t]*+{_SHAPE}[ \t]*+)?(\{{){_END}"
)
_WITH_OPERANDS = re.compile(
    rf"{_START}((?:{_SEP}{_OPERAND}(?:[ \t]*+,{_SEP}{_OPERAND})*+)?[ \t]*+)\)"
    rf"({_ATTRIBUTES}){_END}"
)
_WITH_LITERAL = re.compile(rf"{_START}((?:{_INSIDE})*+)\)({_ATTRIBUTES}){_END}")
_CLOSE = re.compile(rf"[ \t]*+(\}}){_END}")

_EACH_OPERAND = re.compile(rf"{_SEP}(?:({_SHAPE})[ \t]*+)?({_NAME})[ \t]*+,?")
_EACH_ATTRIBUTE = re.compile(rf"[ \t]*+,[ \t]*+({_NAME})[ \t]*+=[ \t]*+({_VALUE})")
_BLOCK_COMMENT = re.compile(r"/\*(?!index=\d++\*/)")
_LEADING_INDEX = re.compile(rf"{_SEP}")
_ARRAY_PARTS = re.compile(r"([a-z][a-z0-9]*+)\[([^\]]*+)\]")


class _NotPrinted(Exception):
    """The text is not (only) what XLA's printer writes: the parser reads it."""


def read_printed(text: str) -> HloFile | None:
    """The module of ``text`` when every line of it is one XLA's printer writes (and names
    every operand it uses, once); else None."""
    if _BLOCK_COMMENT.search(text) or "// -----" in text or text.count("\r") != text.count("\r\n"):
        return None  # (a comment but an index, several modules of a lit test, a lone CR)
    try:
        return _Reader(text).module()
    except _NotPrinted:
        return None


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.result = HloFile(SourceText(text))

    def module(self) -> HloFile:
        text = self.text
        computation: Computation | None = None
        header = False
        at = 1 if text.startswith("\ufeff") else 0
        while at <= len(text):
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            if _SKIPPED.fullmatch(text, at, end):
                pass
            elif not header:
                self.header(at, end)
                header = True
            elif computation is None:
                computation = self.computation(at, end)
            elif (close := _CLOSE.fullmatch(text, at, end)) is not None:
                computation.span = (computation.span[0], close.end(1))
                self.check(computation)
                computation = None
            else:
                self.instruction(computation, at, end)
            at = end + 1
        if computation is not None or not header:
            raise _NotPrinted  # (unclosed, or no header: the parser says so)
        return self.result

    def header(self, at: int, end: int) -> None:
        match = _HEADER.fullmatch(self.text, at, end)
        if match is None:
            raise _NotPrinted
        self.result.name, self.result.name_span = match.group(1), match.span(1)
        self.result.attributes = self.attributes(*match.span(2))

    def computation(self, at: int, end: int) -> Computation:
        match = _COMPUTATION.fullmatch(self.text, at, end)
        if match is None:
            raise _NotPrinted
        start = match.start(1) if match.group(1) else match.start(2)
        computation = Computation(
            (start, match.end(3)), match.group(2), match.span(2), is_entry=bool(match.group(1))
        )
        self.result.computations.append(computation)
        return computation

    def instruction(self, computation: Computation, at: int, end: int) -> None:
        text = self.text
        match = _WITH_OPERANDS.fullmatch(text, at, end)
        literal = match is None or match.group(4) in LITERAL_OPCODES
        if literal:
            match = _WITH_LITERAL.fullmatch(text, at, end)
            if match is None or match.group(4) not in LITERAL_OPCODES:
                raise _NotPrinted
        assert match is not None
        first = match.start(1) if match.group(1) else match.start(2)
        instruction = Instruction(
            (first, match.end(6)),  # (to the last attribute, else the `)`)
            match.group(2),
            match.span(2),
            _shape(text, *match.span(3)),
            match.group(4),
            match.span(4),
        )
        if match.group(1):
            instruction.root_span = match.span(1)
        if literal:
            instruction.literal = match.group(5).strip()
        else:
            instruction.operands = self.operands(*match.span(5))
        instruction.attributes = self.attributes(*match.span(6))
        if instruction.key in computation.by_name:
            raise _NotPrinted  # (defined twice: the parser reports it)
        computation.by_name[instruction.key] = instruction
        computation.instructions.append(instruction)

    def operands(self, at: int, end: int) -> list[Operand]:
        found = []
        text = self.text
        while at < end:
            match = _EACH_OPERAND.match(text, at, end)
            assert match is not None  # (the line's expression read them all)
            shape = _shape(text, *match.span(1)) if match.group(1) else None
            found.append(Operand(match.span(2), match.group(2), shape))
            at = match.end()
        return found

    def attributes(self, at: int, end: int) -> list[Attribute]:
        found = []
        for match in _EACH_ATTRIBUTE.finditer(self.text, at, end):
            name, value = match.group(1), match.group(2)
            if "ROOT" in value:
                raise _NotPrinted  # (``ROOT name`` in a value ends it, for the parser)
            span = match.span(2)
            found.append(Attribute((match.start(1), span[1]), name, value, span))
        return found

    def check(self, computation: Computation) -> None:
        """Every operand names an instruction of the computation (else the parser reports
        it)."""
        names = computation.by_name
        for instruction in computation.instructions:
            for operand in instruction.operands:
                if operand.key not in names:
                    raise _NotPrinted


def _shape(text: str, start: int, end: int) -> Shape:
    """The shape written in ``text[start:end]`` (as the line's expression matched it)."""
    if text[start] != "(":
        match = _ARRAY_PARTS.match(text, start, end)
        assert match is not None
        dims = (
            tuple("".join(d.split()) for d in match.group(2).split(","))
            if match.group(2).strip()
            else ()
        )
        return Shape((start, end), text[start:end], match.group(1), dims)
    elements = [_shape(text, *span) for span in _elements(text, start + 1, end - 1)]
    return Shape((start, end), text[start:end], None, (), tuple(elements))


def _elements(text: str, start: int, end: int) -> list[Span]:
    """The spans of a tuple's element shapes between its parentheses (blanks trimmed)."""
    spans: list[Span] = []
    depth, first = 0, start
    for at in range(start, end + 1):
        char = text[at] if at < end else ","
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            lead = _LEADING_INDEX.match(text, first, at)
            begin = lead.end() if lead else first
            if text[begin:at].strip():
                spans.append((begin, begin + len(text[begin:at].rstrip())))
            first = at + 1
    return spans
