"""@main's outline: its header, its return and the statements the return reads, found without
parsing the rest of the module.

Both forms tools print are read: ``func.func @main(%arg0: T, ...) -> ... {`` and the generic
``"func.func"() <{..., sym_name = "main", ...}> ({`` whose entry block label ``^bb0(%arg0:
T, ...):`` holds the arguments and whose closing line ``}) {attributes} : () -> ()`` holds
the attributes (`output_names`).

For a tool-printed module (one op per line, a function's closing brace at the function's own
indentation) this answers the TensorizerLegalization rules with a few substring searches of
the text, so an editor can show them before the full parse of a multi-megabyte dump ends. Whenever
the text is not of that form the outline gives up (None) and the full parse answers alone.
What it read is kept with it (``outline_reads``): an edit elsewhere keeps its answer.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from passlint.analysis.mlir.argument_lists import blanked, simple_list
from passlint.analysis.mlir.fast.lines import normalize, shape_of
from passlint.analysis.mlir.ir import Block, Chunk, Operation, Region, Value
from passlint.analysis.mlir.lexer import SPACE, moved_tokens
from passlint.analysis.mlir.outline_reads import DIALECTS, Reads, dialect_witness
from passlint.analysis.mlir.parser import parse_chunk, resolve_uses, split_chunks
from passlint.analysis.mlir.structure import begins_after
from passlint.analysis.source import has_lone_cr

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo

_MAIN_LINE = re.compile(r'([ \t]*)func\.func\b[^\n]*?@(?:main|"main")\(')
# The generic form's header line, up to its `sym_name = "main"` property.
_GENERIC_MAIN_LINE = re.compile(
    r'([ \t]*)"func\.func"\(\)[ \t]*<\{[^\n]*?\bsym_name[ \t]*=[ \t]*"main"'
)
_MAIN_NEEDLES = (("@main(", _MAIN_LINE), ('@"main"(', _MAIN_LINE), ('"main"', _GENERIC_MAIN_LINE))
_ENTRY_LABEL = re.compile(r"[ \t]*\^[\w$.\-]+[ \t]*\(")
# A type alias in use (`!name`: a dialect's type has a `.`, an alias never does). Reading
# its shape needs the alias's definition, which only the full parse has.
_TYPE_ALIAS = re.compile(r"![A-Za-z_$][\w$\-]*+(?![\w$.\-])")
_RETURN = re.compile(r'"?(?:func\.)?return"?\b')
# A line of @main's body that starts with a closing brace (its indentation in group 1).
_CLOSING_LINE = re.compile(r"\n([ \t]*)\}")
# A return with more operands is left to the full parse: each output is looked for in @main's
# text (its definition, the names of its copy), so an outline's cost grows with their number.
MOST_OUTPUTS = 64
# Substrings of a line that can change the outline anywhere in the text: a chunk separator,
# another @main header.
_NEEDLES = frozenset(("// -----", "@main(", '@"main"(', '"main"'))


@dataclass
class MainOutline:
    """A chunk holding only @main with the ops its return reads, and the dialects in use."""

    chunk: Chunk
    dialects: frozenset[str]  # "mhlo" (ops other than mhlo.copy) and/or "stablehlo"
    text: str
    body: tuple[int, int]  # @main's body, for name lookups
    read: Reads  # what the outline read, with the names looked up in it since

    def name_used(self, name: str) -> bool:
        """Is ``name`` defined or used anywhere in @main (a copy must not reuse it)?"""
        self.read = replace(self.read, names=self.read.names | {name})
        text, (start, end) = self.text, self.body
        at = text.find(name, start, end)
        while at >= 0:
            after = at + len(name)
            if after >= len(text) or not (text[after].isalnum() or text[after] in "_$.-"):
                return True
            at = text.find(name, after, end)
        return False

    def release(self) -> None:
        """Done with: the cached header op this outline was built on lets go of its ops,
        their uses and (generic form) its text, which the cache would otherwise keep alive
        until @main is outlined again (not while later versions reuse the quick answer)."""
        main = self.chunk.operations[0]
        _forget_uses(main)
        if main.text is self.text:
            main.text = ""  # the generic form's cached op; set again at its next use
        main.regions = [
            Region(region.span, main, [Block(b.label, b.label_span, b.arguments)])
            for region in main.regions
            for b in region.blocks[:1]
        ]


class _UsedNames:
    """A Container of SSA names answered by searching @main's text."""

    def __init__(self, outline: MainOutline) -> None:
        self.outline = outline

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.outline.name_used(name)


def used_names(outline: MainOutline) -> _UsedNames:
    return _UsedNames(outline)


def outline_main(text: str, memo: MlirMemo | None = None) -> MainOutline | None:
    """The outline of @main of a single-chunk module, or None when it cannot be had cheaply
    (its substring searches read lines as tools print them: ending at \\n or \\r\\n).
    ``memo``: as for ``parse_file`` (it also keeps @main's header op, parsed)."""
    if ("// -----" in text and len(split_chunks(text)) != 1) or has_lone_cr(text):
        return None
    header = _main_header(text)
    if header is None:
        return None
    indent = header.group(1)
    generic = header.re is _GENERIC_MAIN_LINE
    header_end = text.find("\n", header.start())
    if header_end < 0 or not text[:header_end].rstrip().endswith("({" if generic else "{"):
        return None
    close = text.find("\n" + indent + "}", header_end)
    if close < 0:
        return None
    body = (header_end + 1, close + 1)
    label_end = header_end  # the generic form's entry block label ends the header
    if generic and _ENTRY_LABEL.match(text, header_end + 1):
        label_end = text.find("\n", header_end + 1)
        if label_end < 0 or label_end > close or not text[:label_end].rstrip().endswith(":"):
            return None
    if text.count("{", *body) != text.count("}", *body) or any(
        len(match[1]) < len(indent) and indent.startswith(match[1])
        for match in _CLOSING_LINE.finditer(text, *body)
    ):
        return None  # a brace out of place: the body is not what its indentation says
    ret_line = _last_line(text, *body)
    if ret_line is None:
        return None
    ret_start, ret_end = ret_line
    body_indent = text[text.rfind("\n", 0, ret_start) + 1 : ret_start]
    if body_indent.strip() or not _RETURN.match(text, ret_start):
        return None
    ret = _single_op(parse_chunk(text, ret_start, ret_end, memo, whole=False))
    if ret is None or len(ret.operands) > MOST_OUTPUTS:
        return None
    returned = frozenset(use.name.split("#", 1)[0] for use in ret.operands)
    if generic:
        main = _generic_header_op(text, header.start(), label_end, close + 1, memo, returned)
    else:
        main = _header_op(text, header.start(), header_end, indent, memo, returned)
    above = _statement_line_above(text, label_end + 1, ret_start, memo)
    if above[0] < ret_start and shape_of(normalize(text[above[0] : above[1]]), memo).end != "op":
        return None  # the return would continue the statement above it
    if main is None or not main.regions:
        return None
    # Read closely: the header, the lines from the one above the return (a suppression
    # comment there moves the copy fix) to @main's closing brace, and each definition with
    # the line after it.
    spans = [
        (header.start(), label_end),
        (
            min(_line_start(text, above[0]), _line_start(text, _line_start(text, ret_start) - 1)),
            _line_end(text, close + 1),
        ),
    ]
    definitions: list[Operation] = []
    entry = main.regions[0].blocks[0] if main.regions[0].blocks else Block(None, None)
    arguments = {arg.name: arg for arg in [*main.header_arguments, *entry.arguments]}
    groups = [use.name.split("#", 1)[0] for use in ret.operands]
    for group in groups:
        if group in arguments or any(group in _names(op) for op in definitions):
            continue
        found = _definition(text, body, body_indent, group, memo)
        if found is None:
            return None
        definitions.append(found[0])
        spans.append(found[1])
    if any(_TYPE_ALIAS.search(text, start, end) for start, end in spans):
        return None
    block = Block(entry.label, entry.label_span, entry.arguments)
    block.operations = [*definitions, ret]
    region = Region(main.regions[0].span, main, [block])
    main.regions = [region]
    for op in block.operations:
        op.parent, op.parent_op = block, main
    scope: dict[str, Value] = dict(arguments)
    resolve_uses(block.operations, scope)
    chunk = Chunk(0, len(text), [main])
    witnesses = tuple((dialect, dialect_witness(text, dialect)) for dialect in DIALECTS)
    read = Reads(tuple(spans), _NEEDLES, (header_end + 1, close), frozenset(groups), witnesses)
    return MainOutline(chunk, read.dialects, text, body, read)


def _header_op(
    text: str,
    start: int,
    end: int,
    indent: str,
    memo: MlirMemo | None,
    returned: frozenset[str],
) -> Operation | None:
    """@main's header as an op with an empty body, of the arguments ``returned`` names when
    it has a long simple list of them (``_returned_arguments``); the memo keeps it by its
    text and place (an edit in the body, the usual case in an editor, finds the
    4,000-argument header parsed)."""
    reduced = _returned_arguments(text, text.find("(", start), end, returned)

    def parsed() -> Operation | None:
        # Parse `header {` + `}` so the region is closed; offsets are those of ``text``.
        head = (
            text[:end]
            if reduced is None
            else text[: reduced[0]] + reduced[1] + text[reduced[2] : end]
        )
        synthetic = head + "\n" + indent + "}"
        return _single_op(parse_chunk(synthetic, start, len(synthetic), memo, whole=False))

    key = (start, text[start:end], None if reduced is None else returned)
    op = parsed() if memo is None else memo.main_header(memo.headers, key, None, parsed)
    if op is not None:
        _forget_uses(op)
        op.regions = [Region(op.regions[0].span, op, [])] if op.regions else []
    return op


def _generic_header_op(
    text: str,
    start: int,
    label_end: int,
    closing: int,
    memo: MlirMemo | None,
    returned: frozenset[str],
) -> Operation | None:
    """The generic form's @main as an op whose region holds only its entry block label,
    from the header (with the label) at ``start`` and the closing line at ``closing``; the
    memo keeps it by the header's text and place as ``_header_op``'s, while the closing line
    stays where it was (one entry per header: each holds the text it was used for last).
    A long simple argument list of the label, and the function type's list of input types,
    are read as ``_header_op`` reads its own (``_returned_arguments``)."""
    closing_end = _line_end(text, closing)
    label = text.rfind("\n", start, label_end) + 1
    arguments = _returned_arguments(text, text.find("(", label), label_end, returned)
    inputs = _function_inputs(text, start, label)
    key = (start, text[start:label_end], None if arguments is None else returned)
    tail = (closing, text[closing:closing_end])

    def parsed() -> Operation | None:
        # Parse the closing line right after the label, then move its tokens back to where
        # they are in ``text`` (the body between is not read).
        head = text[:label_end]
        for cut in (arguments, inputs):  # (the inputs come first in the text)
            if cut is not None:
                head = head[: cut[0]] + cut[1] + head[cut[2] :]
        synthetic = head + "\n" + tail[1]
        op = _single_op(parse_chunk(synthetic, start, len(synthetic), memo, whole=False))
        return op and _moved_tail(op, text, label_end + 1, closing - label_end - 1)

    op = parsed() if memo is None else memo.main_header(memo.generics, key, tail, parsed)
    if op is not None:
        op.text = text  # the same offsets hold; an older version's text is not kept
        _forget_uses(op)
    if op is not None and op.regions:
        region = op.regions[0]
        entry = [Block(b.label, b.label_span, b.arguments) for b in region.blocks[:1]]
        op.regions = [Region(region.span, op, entry)]
    return op


def _returned_arguments(
    text: str, opening: int, end: int, returned: frozenset[str]
) -> tuple[int, str, int] | None:
    """The argument list opening at ``opening`` (its ``(``, before ``end``) as it reads with
    every entry but the arguments in ``returned`` blanked out, same length: ``(start, text,
    stop)`` of what replaces ``text[start:stop]``; None when it is no long simple list
    (``argument_lists``), which is then read whole."""
    found = simple_list(text, opening, end)
    if found is None:
        return None
    start, stop = found
    piece = text[start:stop]
    kept: list[tuple[int, int]] = []
    for name in returned:
        at = piece.find(name + ":")
        while at >= 0 and not _entry_starts(piece, at):
            at = piece.find(name + ":", at + 1)
        if at >= 0:
            following = piece.find("%", at + 1)
            entry_end = len(piece) if following < 0 else piece.rfind(",", at, following)
            kept.append((at, entry_end))
    return start, blanked(piece, sorted(kept)), stop


def _entry_starts(piece: str, at: int) -> bool:
    """Does an entry of the argument list ``piece`` start at ``at`` (after its start or a
    comma, and blanks)?"""
    before = piece[:at].rstrip(" \t\r\n")
    return not before or before.endswith(",")


def _function_inputs(text: str, start: int, end: int) -> tuple[int, str, int] | None:
    """The generic header's ``function_type`` input list, blanked as ``_returned_arguments``
    blanks an argument list (the passes read the arguments, not the function type)."""
    found = text.find("function_type", start, end)
    opening = text.find("(", found, end) if found >= 0 else -1
    return _returned_arguments(text, opening, end, frozenset())


def _forget_uses(op: Operation) -> None:
    """The uses of a cached op's arguments that an earlier outline resolved are not this
    outline's (and would keep that outline's text alive)."""
    entry = [b.arguments for region in op.regions for b in region.blocks[:1]]
    for argument in [*op.header_arguments, *(a for arguments in entry for a in arguments)]:
        argument.uses = []


def _moved_tail(op: Operation, text: str, cut: int, delta: int) -> Operation:
    """``op`` parsed from a text that has ``text``'s first ``cut`` characters and then a
    piece of ``text`` found ``delta`` characters later: its offsets from ``cut`` on moved."""

    def moved(at: int) -> int:
        return at + delta if at >= cut else at

    toks = op.toks
    first = bisect.bisect_left(toks, cut, key=lambda tok: tok.start)
    op.text = text
    op.tokens = toks[:first] + moved_tokens(toks[first:], delta)
    op.span = (op.span[0], moved(op.span[1]))
    op.regions = [
        Region((region.span[0], moved(region.span[1])), op, region.blocks) for region in op.regions
    ]
    return op


def _main_header(text: str) -> re.Match[str] | None:
    """The line holding ``func.func ... @main(`` or the generic ``"func.func"() <{...
    sym_name = "main"`` (None when there is not exactly one)."""
    found = None
    line = (-1, -1)  # the line of the last occurrence: (start, end)
    matches: dict[re.Pattern[str], re.Match[str] | None] = {}  # each pattern's match on it
    at = text.find("main")  # one search for the three spellings
    while at >= 0:
        for needle, pattern in _MAIN_NEEDLES:
            start = at - needle.index("main")
            if text.startswith(needle, start):
                if not line[0] <= start < line[1]:  # (a line of many: read once)
                    line = (_line_start(text, start), _line_end(text, start))
                    matches = {}
                if pattern not in matches:
                    matches[pattern] = pattern.match(text, line[0])
                match = matches[pattern]
                if match is not None and match.end() == start + len(needle):
                    if found is not None:
                        return None
                    found = match
        at = text.find("main", at + 1)
    return found


def _line_start(text: str, at: int) -> int:
    """The start of the line holding offset ``at`` (0 before the text)."""
    return text.rfind("\n", 0, max(at, 0)) + 1


def _line_end(text: str, at: int) -> int:
    """The end (line break or text end) of the line holding offset ``at``."""
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _names(op: Operation) -> set[str]:
    return {result.group_name for result in op.results}


def _single_op(chunk: Chunk) -> Operation | None:
    return chunk.operations[0] if len(chunk.operations) == 1 else None


def _statement_line_above(text: str, start: int, at: int, memo: MlirMemo | None) -> tuple[int, int]:
    """The last line in [start, at) with a token (comments and blank lines skipped), or
    ``(at, at)`` when there is none."""
    end = _line_start(text, at)
    while True:
        line = _last_line(text, start, end)
        if line is None:
            return at, at
        if not shape_of(normalize(text[line[0] : line[1]]).strip(SPACE), memo).blank:
            return line
        end = _line_start(text, line[0])


def _last_line(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The last non-blank line in [start, end), without its surrounding white space."""
    stop = end
    while stop > start:
        line_start = text.rfind("\n", start, stop - 1) + 1
        line_start = max(line_start, start)
        line = text[line_start:stop]
        if line.strip(SPACE + "\n"):
            lead = len(line) - len(line.lstrip(SPACE + "\n"))
            return line_start + lead, line_start + len(line.rstrip(SPACE + "\n"))
        stop = line_start - 1 if line_start > start else start
    return None


def _next_line_shape(text: str, start: int) -> tuple[str, int]:
    """The line starting at ``start`` and where it ends (the text's end or its line break)."""
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return text[start:end], end


def _next_statement_line(
    text: str, line_start: int, line_end: int, stop: int, memo: MlirMemo | None
) -> int | None:
    """Where the first non-blank line after a one-line statement ends, when that line starts
    a new statement (newlines mean nothing: it could continue the statement); else None."""
    end_kind = shape_of(normalize(text[line_start:line_end]).strip(SPACE), memo).end
    at = line_end
    while at < stop:
        line, end = _next_line_shape(text, at + 1)
        shape = shape_of(normalize(line).strip(SPACE), memo)
        if not shape.blank:
            if shape.start is not None and begins_after(shape.start, end_kind):
                return end
            return None
        at = end
    return None


def _definition(
    text: str, body: tuple[int, int], indent: str, name: str, memo: MlirMemo | None
) -> tuple[Operation, tuple[int, int]] | None:
    """The one-line statement at @main's top level that defines ``name``, and the lines it
    was read from (its own and the next, which must not continue it)."""
    line_start = -1
    for needle in (f"\n{indent}{name} = ", f"\n{indent}{name}:"):
        at = text.rfind(needle, max(body[0] - 1, line_start), body[1])  # the last one counts
        if at >= 0:
            line_start = max(line_start, at + 1)
    if line_start < 0:  # one of several results: `%a, %name = ...`
        # (the results before it, each read once: not ``name``, possessive)
        this = re.escape(name) + r"(?::\d+)?[ \t]*[,=]"
        pattern = re.compile(
            rf"^{re.escape(indent)}(?:(?!{this})%[\w$.\-]+(?::\d+)?[ \t]*,[ \t]*)++{this}",
            re.MULTILINE,
        )
        match = pattern.search(text, *body)
        if match is None:
            return None
        line_start = match.start()
    line_end = text.find("\n", line_start)
    line_end = body[1] if line_end < 0 or line_end > body[1] else line_end
    following_end = _next_statement_line(text, line_start, line_end, body[1], memo)
    if following_end is None:
        return None
    start = line_start + len(indent)
    end = start + len(text[start:line_end].rstrip(SPACE))
    op = _single_op(chunk := parse_chunk(text, start, end, memo, whole=False))
    if op is None or chunk.errors or op.regions:
        return None
    return op, (line_start, following_end)
