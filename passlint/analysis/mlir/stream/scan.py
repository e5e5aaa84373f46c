"""The streaming reader's one pass over a file: its functions, and the holes in their bodies.

The file is read a window at a time (a megabyte, cut after a line break), each window's lines
given their shapes as the line table gives them (``fast.lines``). A function is a line that
starts ``func.func`` (or ``"func.func"()``) and ends with its region's ``{``, up to the first
line after it at the header's indentation that starts with ``}``. A line of its body is a
*hole line* when

- it is at the body's indentation and its shape is a complete one-line op that starts with
  its results (``LeanShape``), its text is ASCII, and it names as many SSA values as its
  shape (no ``%`` in a string);
- a statement starts there after the line before it, and the line after it does not go on
  with it (``structure.begins_after``: the scanner cuts it as one statement, as the line
  scanner takes a ``LineStatement``);
- no number on it may be out of range (``integers.candidate_lines``), and it holds no
  ``passlint:`` comment;
- every name it uses is defined on an earlier hole line of the function or is one of the
  function's arguments, or else it is *imported* (its placeholder uses it, and the parse
  checks it); a ``%x#k`` it uses names an existing result; and none of its results is a
  name defined before.

Consecutive hole lines (blank and comment lines between them included) make a hole. A
function's names used outside its holes (``outer``) are *exported* by the hole defining them;
the hole lines defining what a function returns are left in the text (the passes read those
ops). What a hole defines is kept as one entry per name (``Defined``), and dropped with the
function but for ``@main``'s (a copy's fresh name must not be one of them).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Protocol

from passlint.analysis.mlir.argument_lists import blanked, entries, entry_name, simple_list
from passlint.analysis.mlir.fast.lines import LineShape, normalize
from passlint.analysis.mlir.ir import match_name
from passlint.analysis.mlir.lexer import SPACE
from passlint.analysis.mlir.parser import parse_file
from passlint.analysis.mlir.stream.windows import WINDOW, Window, windows, worked_out
from passlint.analysis.mlir.structure import Start, begins_after
from passlint.analysis.mlir.validate import template_type_counts
from passlint.analysis.source import has_lone_cr, line_starts, split_lines

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo

# The name of each placeholder's own result (``%passlint.hole.N``); a file that holds this
# text anywhere is read whole, so the name is no name of the file's.
PLACEHOLDER = "passlint.hole"
_SSA = re.compile(r"%(?:[A-Za-z_$.\-][\w$.\-]*|\d+)(?:#\d+)?")
_HEADER = re.compile(r'([ \t]*)(?:func\.func\b|"func\.func"\(\))')
_CUSTOM_NAME = re.compile(r'@(?:([A-Za-z_$.\-][\w$.\-]*)|"([^"\\]*)")')
_GENERIC_NAME = re.compile(r'\bsym_name[ \t]*=[ \t]*"([^"\\]*)"')
# An argument in a header or an entry block label: a name followed by its type's colon.
_ARGUMENT = re.compile(r"(%(?:[A-Za-z_$.\-][\w$.\-]*|\d+))[ \t]*:(?!:)")
_INDENT = re.compile(r"[ \t]*")
_MARKER = "// -----"
# A number read as an array index: canonical decimal, and at most this (others go by name).
_LARGEST_NUMBER = 1 << 26


class Source(Protocol):
    """The bytes of a file, read where they are asked for: ``bytes``, or a file read in
    pieces (``filesystem.FileBytes``)."""

    def __len__(self) -> int: ...

    def __getitem__(self, where: slice, /) -> bytes: ...

    def find(self, sub: bytes, start: int = ..., end: int | None = ..., /) -> int: ...


class Unreadable(Exception):
    """The file is not UTF-8: ``line`` (1-based) holds the first byte that is not."""

    def __init__(self, line: int) -> None:
        super().__init__(f"not UTF-8 at line {line}")
        self.line = line


@dataclass(frozen=True, slots=True)
class LeanShape:
    """What a hole line of one shape is: where its results and operands are among its SSA
    names (in the order they are written) and its op's name (digits abstracted)."""

    results: tuple[int, ...]
    operands: tuple[int, ...]
    op_name: str  # "" for the generic form, whose shape has its name as ``""``


@dataclass(slots=True)
class Hole:
    """Whole lines ``[start, end)`` (bytes) of one function body, ``lines`` of them, from line
    ``first`` (0-based) on: one placeholder statement in the hollowed text."""

    start: int
    end: int
    first: int
    lines: int
    indent: str
    chunk: int  # the `// -----` chunk it lies in
    imports: dict[str, None] = field(default_factory=dict)  # names used, defined outside it
    exports: list[str] = field(default_factory=list)  # names it defines, used outside it
    # The dialects of its ops (but mhlo.copy), up to the first stablehlo op: what decides
    # the variant of the pass.
    dialects: set[str] = field(default_factory=set)


def _numbered(digits: str) -> bool:
    """Is ``%digits`` a numbered name (ASCII digits, no leading zero, at most nine)?"""
    return (
        digits.isdigit()
        and digits.isascii()
        and len(digits) < 10
        and (digits[0] != "0" or len(digits) == 1)
    )


class Defined:
    """The names a function's hole lines define, each with its line's byte offset (an
    argument: -1): a numbered name (``%123``) in an array by its number, as long as the
    numbers stay near the count of lines read (``limit``), the others in a dict."""

    __slots__ = ("limit", "named", "numbered")

    def __init__(self) -> None:
        self.numbered = array("q")  # offset + 2 by number; 0: not defined
        self.named: dict[str, int] = {}
        self.limit = 1 << 16  # numbers below it go in the array (raised as lines are read)

    def get(self, name: str) -> int | None:
        digits = name[1:]
        if _numbered(digits):
            number = int(digits)
            found = self.numbered[number] if number < len(self.numbered) else 0
            if found:
                return found - 2
        return self.named.get(name)  # (a number added before the limit rose past it, too)

    def add(self, name: str, offset: int) -> None:
        digits = name[1:]
        if _numbered(digits):
            number = int(digits)
            if number < self.limit:
                numbered = self.numbered
                if number >= len(numbered):
                    numbered.extend(repeat(0, number + 1 - len(numbered)))
                numbered[number] = offset + 2
                return
        self.named[name] = offset

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None


@dataclass(slots=True)
class Function:
    """A function whose body has holes: where its header's text starts and its closing
    line's text ends (bytes), and what its holes read and define."""

    name: str
    start: int
    end: int
    arguments: frozenset[str]  # (those the hollowed text's header still has)
    holes: list[Hole]
    kept: frozenset[str] | None  # @main's: the names its holes define that ``keep`` kept
    # What replaces the header's argument list in the hollowed text: its bytes [start,
    # stop) and their text, with only the arguments the text reads (``argument_lists``).
    arguments_cut: tuple[int, int, str] | None = None


@dataclass
class Holes:
    """What the pass found: the functions with holes, in file order."""

    functions: list[Function]
    size: int  # bytes read

    def holes(self) -> list[Hole]:
        return [hole for function in self.functions for hole in function.holes]

    def dialects(self, chunk: int) -> set[str]:
        """The dialects of the ops on the hole lines of chunk ``chunk`` (``Hole.dialects``)."""
        return {name for hole in self.holes() if hole.chunk == chunk for name in hole.dialects}


# A non-blank line, as the pass holds it until the next one settles it: its shape, text,
# byte offsets (its start, the next line's), number, and (while it may be a hole line) its
# LeanShape and SSA names.
_Line = tuple[LineShape, str, int, int, int, LeanShape | None, list[str] | None]


class _Body:
    """The function being read: its header, its holes so far and the names it defines."""

    def __init__(self, name: str, start: int, indent: str, arguments: set[str], keep: bool) -> None:
        self.name = name
        self.start = start
        self.indent = indent
        self.arguments = arguments
        self.body_indent: str | None = None
        self.holes: list[Hole] = []
        self.defined = Defined()
        for argument in arguments:
            self.defined.add(argument, -1)
        self.outer: set[str] = set()  # group names on lines that are not hole lines
        self.open: Hole | None = None  # the hole the next hole line extends
        self.last_outer = ""  # the text of its last line that is not a hole line
        self.label_pending = True  # an entry block label may still follow the header
        self.kept: set[str] | None = set() if keep else None  # (``find_holes``'s ``keep``)
        # The header's long simple argument list, which the scan read itself: its bytes
        # [start, stop), blanked in the hollowed text but for the arguments the text reads.
        self.argument_list: tuple[int, int] | None = None


def find_holes(
    source: Source,
    memo: MlirMemo,
    progress: Callable[[int], None] | None = None,
    helper: bool = False,
    keep: Callable[[str], bool] | None = None,
) -> Holes | None:
    """The holes of the module in ``source`` (its bytes), or None when the file is not read
    this way (a line ends at a lone ``\\r``, or it holds the placeholders' name).
    ``progress`` is told how many bytes have been read, after each window; ``helper``: work
    out the windows' keys in a second process (``windows``); ``keep``: which names @main's
    holes define are kept (``Function.kept``; the rest are let go with the function). Raises
    ``Unreadable`` for text that is not UTF-8."""
    scan = _Scan(source, memo, keep)
    for window in windows(source, helper):
        if not scan.window(window):
            return None
        if progress is not None:
            progress(window.stop)
    scan.finish()
    return Holes(scan.functions, len(source))


class _Scan:
    def __init__(self, source: Source, memo: MlirMemo, keep: Callable[[str], bool] | None) -> None:
        self.source = source
        self.memo = memo
        self.keep = keep
        self.functions: list[Function] = []
        self.lean: dict[int, LeanShape | None] = {}  # by id of a shape the memo keeps
        self.entries: dict[str, bool] = {}  # argument entries' shapes: does the parser take one?
        self.body: _Body | None = None
        self.previous: _Line | None = None
        self.line = 0  # lines read before the window
        self.chunk = 0

    # -- windows ----------------------------------------------------------------------------
    def window(self, window: Window) -> bool:
        """Read the lines of ``window``; False: the file is not read this way."""
        at, stop = window.at, window.stop
        data = self.source[at:stop]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Unreadable(self.line + data.count(b"\n", 0, error.start) + 1) from None
        if PLACEHOLDER in text or has_lone_cr(text):
            return False
        window = worked_out(window, text)
        assert window.keys is not None and window.doubtful is not None
        ascii_text = text.isascii()
        starts = line_starts(text)
        keys = split_lines(window.keys)
        lines = split_lines(text)
        if stop < len(self.source) or text.endswith("\n"):
            starts.pop()  # (the empty line after the last line break is the next window's)
            keys.pop()
            lines.pop()
        if len(keys) != len(lines):
            return False
        doubtful = window.doubtful
        shapes, shape_of = self.memo.shapes, self.memo.shape
        offsets = list(starts) if ascii_text else _byte_offsets(text, starts)
        offsets.append(stop - at)  # (where the line after the last one starts)
        index = self.line
        keys_stripped = map(str.strip, keys, repeat(SPACE))
        for number, (start, key, line) in enumerate(zip(starts, keys_stripped, lines, strict=True)):
            shape = shapes.get(key) or shape_of(key)
            if shape.blank:
                if "//" in line:
                    self._comment(line)
            else:
                byte, after = at + offsets[number], at + offsets[number + 1]
                plain = (ascii_text or line.isascii()) and start not in doubtful
                self._line(shape, line, byte, after, index, plain)
            index += 1
        self.line = index
        if self.body is not None:  # (numbers a dump gives its values grow with its lines)
            self.body.defined.limit = max(self.body.defined.limit, 4 * index)
        return True

    def finish(self) -> None:
        """The end of the file: a function never closed has no holes."""
        self.body = None

    # -- lines ------------------------------------------------------------------------------
    def _comment(self, line: str) -> None:
        """A comment line: a `// -----` marker ends the chunk (and a function left open there
        has no holes); one with ``passlint:`` stays in the text, so a hole ends before it."""
        if line.rstrip("\r").strip(" \t") == _MARKER:
            self.previous = None
            self.body = None
            self.chunk += 1
        elif "passlint:" in line and self.body is not None:
            self.body.open = None

    def _line(
        self, shape: LineShape, text: str, start: int, after: int, index: int, plain: bool
    ) -> None:
        """The next non-blank line: settle the line before it, then read this one."""
        body = self.body
        previous = self.previous
        self.previous = (shape, text, start, after, index, None, None)
        if body is None:
            if "func.func" in text:
                self._header(text, start, plain)
            return
        if previous is not None:
            self._settle(previous, shape.start)
        stripped = text.lstrip(" \t")
        indent = len(text) - len(stripped)
        if stripped.startswith("}") and indent == len(body.indent):
            self._close(text, start)
            return
        if body.label_pending:
            body.label_pending = False
            if stripped.startswith("^"):
                body.arguments.update(m.group(1) for m in _ARGUMENT.finditer(text))
                for argument in body.arguments:
                    body.defined.add(argument, -1)
                return
        if body.body_indent is None:
            body.body_indent = text[:indent]
        start_kind = shape.start
        if (
            not plain
            or start_kind is None
            or previous is None
            or indent != len(body.body_indent)
            or not begins_after(start_kind, previous[0].end)
            or "passlint:" in text
        ):
            return
        key = id(shape)
        lean = self.lean[key] if key in self.lean else self.lean.setdefault(key, lean_shape(shape))
        if lean is None:
            return
        names = _SSA.findall(text)
        if len(names) == shape.values:
            self.previous = (shape, text, start, after, index, lean, names)

    def _settle(self, line: _Line, following: Start | None) -> None:
        """Decide ``line`` now that the line after it is known (``following``: how a
        statement starts there, None when its shape cannot tell): a hole line when a
        statement starts there after it and its names check, else a line of the text."""
        body = self.body
        assert body is not None
        shape, text, start, after, index, lean, names = line
        if lean is not None and following is not None and begins_after(following, shape.end):
            assert names is not None
            if self._take(body, text, start, after, index, lean, names):
                return
        body.open = None
        body.last_outer = text
        if start == body.start - len(body.indent) and body.argument_list is not None:
            return  # (the header: its arguments are listed apart)
        body.outer.update(name.split("#", 1)[0] for name in _SSA.findall(text))

    def _take(
        self,
        body: _Body,
        text: str,
        start: int,
        after: int,
        index: int,
        lean: LeanShape,
        names: list[str],
    ) -> bool:
        """Add a line to the function's open hole (or a new one) if its names check."""
        defined = body.defined
        numbered, named = defined.numbered, defined.named
        count = len(numbered)
        imports: list[str] | None = None
        for position in lean.operands:
            name = names[position]
            digits = name[1:]
            if _numbered(digits):
                number = int(digits)
                if (number < count and numbered[number]) or name in named:
                    continue
            elif "#" in name:
                group, result = name.split("#", 1)
                if defined.get(group) is not None:
                    if result != "0":
                        return False  # (a result the op does not have: the parse reports it)
                    continue
            elif name in named:
                continue
            if imports is None:
                imports = [name]
            else:
                imports.append(name)
        results = [names[position] for position in lean.results]
        numbers: list[int] = []  # of each result, -1 for one not numbered
        for name in results:
            digits = name[1:]
            if _numbered(digits):
                number = int(digits)
                if number < count and numbered[number]:
                    return False
                numbers.append(number)
            else:
                numbers.append(-1)
            if name in named:
                return False
        if len(results) > 1 and len(set(results)) < len(results):
            return False
        for name, number in zip(results, numbers, strict=True):
            if 0 <= number < count:
                numbered[number] = start + 2
            else:
                defined.add(name, start)
        if body.kept is not None:
            assert self.keep is not None
            body.kept.update(name for name in results if self.keep(name))
        hole = body.open
        if hole is None:
            assert body.body_indent is not None
            hole = Hole(start, after, index, 0, body.body_indent, self.chunk)
            body.holes.append(hole)
            body.open = hole
        hole.end = after
        hole.lines = index - hole.first + 1
        if imports is not None:
            hole.imports.update(dict.fromkeys(imports))
        dialects = hole.dialects
        if "stablehlo" not in dialects:
            op_name = lean.op_name or _quoted_name(text)
            if op_name != "mhlo.copy" and "." in op_name:
                dialects.add(op_name.split(".", 1)[0])
        return True

    # -- functions --------------------------------------------------------------------------
    def _header(self, text: str, start: int, plain: bool) -> None:
        """Start a function at a header line that ends with its region's brace (``plain``:
        ASCII, no number on it out of range)."""
        header = _HEADER.match(text)
        stripped = text.rstrip(SPACE)
        if header is None:
            return
        generic = header.group().endswith(")")
        if not stripped.endswith("({" if generic else "{"):
            return
        if generic:
            found = _GENERIC_NAME.search(text)
            name = found.group(1) if found else ""
        else:
            custom = _CUSTOM_NAME.search(text, header.end())
            name = (custom.group(1) or custom.group(2)) if custom else ""
        indent = header.group(1)
        keep = self.keep is not None and name == "main"
        listed = None if generic or not plain else self._argument_list(text, header.end())
        if listed is None:
            arguments = set() if generic else {m.group(1) for m in _ARGUMENT.finditer(text)}
        else:
            arguments = listed[1]
        body = self.body = _Body(name, start + len(indent), indent, arguments, keep)
        body.label_pending = generic
        if listed is not None:
            body.argument_list = (start + listed[0][0], start + listed[0][1])
        if body.kept is not None:
            assert self.keep is not None
            body.kept.update(argument for argument in arguments if self.keep(argument))

    def _argument_list(self, text: str, after: int) -> tuple[tuple[int, int], set[str]] | None:
        """The header's argument list, when it is long and simple and each of its entries
        is one the parser takes (``%name: type``, checked once per shape of entry) and names
        an argument of its own: where it lies in the line, and the names."""
        found = simple_list(text, text.find("(", after), len(text))
        if found is None:
            return None
        piece = text[found[0] : found[1]]
        listed = entries(piece)
        names = {entry_name(piece, entry) for entry in listed}
        if len(names) != len(listed):
            return None  # (an argument named twice: the parse reports it)
        keys = normalize(piece)
        for entry in entries(keys):
            key = keys[entry[0] : entry[1]]
            if key not in self.entries:
                self.entries[key] = _takes_entry(key, self.memo)
            if not self.entries[key]:
                return None
        return found, names

    def _close(self, text: str, start: int) -> None:
        """The function's closing line: its holes are final; what it returns stays in the text,
        and what the rest of it reads is exported."""
        body = self.body
        assert body is not None
        self.body = None
        if not body.holes:
            return
        if "return" in body.last_outer:
            for name in _SSA.findall(body.last_outer):
                self._keep_in_text(body, name.split("#", 1)[0])
            if not body.holes:
                return
        starts = [hole.start for hole in body.holes]
        defined = body.defined
        for name in body.outer:
            offset = defined.get(name)
            if offset is None or offset < 0:
                continue
            at = bisect.bisect_right(starts, offset) - 1
            if at >= 0 and offset < body.holes[at].end:
                body.holes[at].exports.append(name)
        end = start + len(text.rstrip(SPACE).encode())
        kept = None if body.kept is None else frozenset(body.kept)
        arguments = frozenset(body.arguments)
        cut = None
        if body.argument_list is not None:
            cut = self._arguments_cut(body.argument_list, body.outer)
            arguments = arguments & body.outer
        self.functions.append(
            Function(body.name, body.start, end, arguments, body.holes, kept, cut)
        )

    def _arguments_cut(self, where: tuple[int, int], read: set[str]) -> tuple[int, int, str]:
        """The header's argument list (bytes ``where``) with only the arguments in ``read``
        (the names the lines of the function outside its holes read)."""
        piece = self.source[where[0] : where[1]].decode("ascii")
        kept = [entry for entry in entries(piece) if entry_name(piece, entry) in read]
        return where[0], where[1], blanked(piece, kept)

    def _keep_in_text(self, body: _Body, name: str) -> None:
        """Leave the hole line defining ``name`` in the text, splitting its hole around it."""
        offset = body.defined.get(name)
        if offset is None or offset < 0:
            return
        holes = body.holes
        at = bisect.bisect_right([hole.start for hole in holes], offset) - 1
        if at < 0 or offset >= holes[at].end:
            return
        hole = holes[at]
        line_end = self.source.find(b"\n", offset, hole.end)
        after = hole.end if line_end < 0 else line_end + 1
        text = self.source[offset:after].decode("utf-8")
        body.outer.update(found.split("#", 1)[0] for found in _SSA.findall(text))
        before = _count_lines(self.source, hole.start, offset)
        parts = []
        if before:
            parts.append(
                Hole(
                    hole.start,
                    offset,
                    hole.first,
                    before,
                    hole.indent,
                    hole.chunk,
                    hole.imports,
                    dialects=hole.dialects,
                )
            )
        if after < hole.end:
            first = hole.first + before + 1
            rest = hole.lines - before - 1
            parts.append(
                Hole(
                    after,
                    hole.end,
                    first,
                    rest,
                    hole.indent,
                    hole.chunk,
                    dict(hole.imports),
                    dialects=hole.dialects,
                )
            )
        holes[at : at + 1] = parts


def _takes_entry(key: str, memo: MlirMemo) -> bool:
    """Does the parser take an argument entry of the shape ``key`` (normalized), with no
    issue, as one argument?"""
    parsed = parse_file(f"func.func @f({key}) {{\n  return\n}}\n", memo)
    functions = parsed.chunks[0].functions() if len(parsed.chunks) == 1 else {}
    function = functions.get("f")
    return not parsed.errors and function is not None and len(function.header_arguments) == 1


def lean_shape(shape: LineShape) -> LeanShape | None:
    """Where a one-line op of ``shape`` writes its results and operands, when it starts with
    its results, binds each one alone, names no SSA value but those, and (generic form) its
    function type has one type per operand and result; else None."""
    template = shape.template
    if template is None or shape.start != "always" or shape.head[:1] != ("VALUE_ID",):
        return None
    if any(count >= 0 for _, count in template.results) or not template.results:
        return None
    positions = {token: at for at, token in enumerate(shape.value_tokens)}
    results = tuple(positions[value] for value, _ in template.results)
    operands = tuple(positions.get(token, -1) for token in template.operands)
    if -1 in operands or len(results) + len(operands) != len(positions):
        return None
    if template.generic:
        operand_types, result_types = template_type_counts(template)
        if result_types is not None and result_types != len(results):
            return None
        if operand_types is not None and operand_types != len(operands):
            return None
    if not (template.generic or shape.op_name):
        return None
    return LeanShape(results, operands, "" if template.generic else shape.op_name)


def _quoted_name(line: str) -> str:
    """The name of the generic op on a hole line: its first string (none is before it)."""
    found = match_name(line, line.find("="), generic=True)
    return found.group(1) if found is not None else ""


def _byte_offsets(text: str, starts: list[int]) -> list[int]:
    """The UTF-8 offsets of the character offsets ``starts`` (ascending) in ``text``."""
    offsets, total, previous = [], 0, 0
    for start in starts:
        total += len(text[previous:start].encode("utf-8"))
        offsets.append(total)
        previous = start
    return offsets


def _count_lines(source: Source, start: int, end: int) -> int:
    """Line breaks in ``source[start:end]``, read a window at a time."""
    count = 0
    while start < end:
        stop = min(end, start + WINDOW)
        count += source[start:stop].count(b"\n")
        start = stop
    return count
