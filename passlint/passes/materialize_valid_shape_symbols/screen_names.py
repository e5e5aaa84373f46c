"""Which names a pl text surely defines where a kernel is defined, told from its text:
the screen's answer for a physical shape that reads a name (VS008 needs one nothing
defines).

A name is sure for a kernel when

* the text binds it once in all, by an assignment statement at column 0, in code, above
  the kernel (any value: a global holds it, and pypto's parser reads the globals) that no
  scope around a kernel shadows. Bindings are counted over the whole text by their forms
  (assignment and annotation statements, their target lists, ``:=``, ``for``/``as``/
  ``del``/``global``/``nonlocal``/``case``, imports, ``def`` and ``class`` names, the
  parameters of every ``def`` header and ``lambda``), in strings and comments too: a count
  too high only sends the file to the full analysis; or
* the function around the kernel (``_Frames``: the frame pypto's parser reads) binds it
  above the kernel, as a parameter or by a plain assignment statement of its own body.

A text with ``import *`` has no sure name. Only the names the screen asks about (those its
kernels' headers read) are looked for as globals.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Collection

_NAME = r"[A-Za-z_]\w*"
# A target of an assignment statement: a name, an attribute or an item, in brackets or not.
_TARGET = rf"[(\[]*[ \t]*\*?{_NAME}(?:\.{_NAME}|\[[^\]\n]*\])*[ \t]*[)\]]*"
_TARGETS = rf"{_TARGET}(?:[ \t]*,[ \t]*{_TARGET})*[ \t]*,?"
_ASSIGNED = re.compile(rf"[ \t]*(?:{_TARGETS}[ \t]*(?:[-+*/%@&|^]|//|\*\*|>>|<<)?=(?!=)[ \t]*)+")
_ANNOTATED = re.compile(rf"[ \t]*{_NAME}[ \t]*:(?!=)")
_WALRUS = re.compile(r"[ \t]*:=")
_PLAIN_NAME = re.compile(rf"(?<![\w.]){_NAME}")
_BOUND_NAME = re.compile(rf"(?<![\w.]){_NAME}(?![ \t]*[.\[\w])")  # (x in x.a = 1 is read)
_DELETE = re.compile(r"[ \t]*del\b")
_ASYNC_DEF = re.compile(r"[ \t]*async[ \t]+def[ \t]+\w+[ \t]*\(")
# Before a name on its line: a keyword that makes the names after it bindings.
_BINDING_KEYWORD = re.compile(
    r"\b(?:def|class)[ \t]+$|\b(?:import|global|nonlocal|del)\b|\bfor\b(?:(?!\bin\b).)*$"
    r"|\bas\b[^:]*$|\blambda\b[^:]*$|^[ \t]*case\b",
    re.MULTILINE,
)
_ANY_KEYWORD = re.compile(r"\b(?:def|class|import|global|nonlocal|del|for|as|lambda|case)\b")
_IMPORT_GROUP = re.compile(r"import[ \t]*\(([^)]*)\)")  # (literals first: fast)
_STAR_IMPORT = re.compile(r"import[ \t]*\*")
_DEF_HEADER = re.compile(r"def[ \t]+\w+[ \t]*\(")
_TOP_LINE = re.compile(r"^(?=[A-Za-z_(\[])", re.MULTILINE)
_ANNOTATED_VALUE = re.compile(rf"[ \t]*({_NAME})[ \t]*:[^=\n]*=(?!=)")
# A line of code that may be a statement: not blank, not a comment, no closing bracket first.
_CODE_LINE = re.compile(r"^([ \t]*)[^ \t\n#)\]}]", re.MULTILINE)
_OPEN_LINE_END = re.compile(r"[(\[{,\\][ \t]*(?:#[^\n]*)?\Z")


class SureNames:
    """The sure names of one text among ``asked`` (``before``: any other name is sure only
    when the function around the kernel binds it)."""

    def __init__(self, text: str, in_code: Callable[[int], bool], asked: Collection[str]) -> None:
        self.where: dict[str, int] = {}
        self.text, self.in_code = text, in_code
        self.star = _STAR_IMPORT.search(text) is not None
        self._frames: _Frames | None = None  # made when first asked
        if self.star or not asked:
            return
        candidates: dict[str, tuple[int, int]] = {}  # name -> its offset, its line's
        for top in _TOP_LINE.finditer(text):
            at = top.start()
            targets = [t for t in _assigned_names(text, at) if t[0] in asked]
            if not targets or not in_code(at) or _continues(text, at):
                continue
            for name, where in targets:
                candidates.setdefault(name, (where, at))
        if candidates:
            definitions = {name: where for name, (where, _) in candidates.items()}
            bound = _Lines(text).bound_elsewhere(definitions)
            self.where = {n: at for n, (_, at) in candidates.items() if n not in bound}

    def before(self, name: str, offset: int) -> bool:
        """Is ``name`` sure for the ``def`` whose line starts at ``offset``: a sure global
        bound before it, or bound in the function around it before it (``_Frames``)?"""
        at = self.where.get(name)
        if at is not None and at < offset:
            return True
        if self.star:
            return False
        if self._frames is None:
            self._frames = _Frames(self.text, self.in_code)
        return self._frames.binds(name, offset)


class _Frames:
    """The function around a ``def`` (the nearest line above with less indentation that is
    a ``def`` in code, past blocks and classes) and the names it surely holds when the
    ``def`` runs: its parameters, and the names its own body (not a nested block) assigns
    by plain assignment statements above, unless that body deletes them. A line that starts
    with a closing bracket (``) -> T:`` ending a signature) is no statement and opens no
    block. Other lines inside strings or brackets may look like less indented code: they
    only cut blocks short, which makes fewer names sure."""

    def __init__(self, text: str, in_code: Callable[[int], bool]) -> None:
        self.text = text
        self.in_code = in_code
        self.starts: list[int] = []  # code lines (not blank, not only a comment)
        self.parents: list[int] = []  # the line each is in the block of (-1: none)
        self.children: dict[int, list[int]] = {}
        stack: list[tuple[int, int]] = []  # (indentation, line)
        for number, line in enumerate(_CODE_LINE.finditer(text)):
            width = len(line.group(1).expandtabs(8))
            while stack and stack[-1][0] >= width:
                stack.pop()
            parent = stack[-1][1] if stack else -1
            self.starts.append(line.start())
            self.parents.append(parent)
            self.children.setdefault(parent, []).append(number)
            stack.append((width, number))
        self._bound: dict[int, dict[str, int]] = {}  # function line -> name -> first line

    def binds(self, name: str, offset: int) -> bool:
        number = bisect.bisect_left(self.starts, offset)
        if number == len(self.starts) or self.starts[number] != offset:
            return False
        function = self._function_around(number)
        if function < 0:
            return False
        first = self._names_bound(function).get(name)
        return first is not None and first < number

    def _function_around(self, number: int) -> int:
        text = self.text
        line = self.parents[number]
        while line >= 0:
            start = self.starts[line]
            header = _DEF_HEADER.match(text, start + _indentation(text, start))
            if header is not None or _ASYNC_DEF.match(text, start):
                return line if self.in_code(start) else -1
            line = self.parents[line]
        return -1

    def _names_bound(self, function: int) -> dict[str, int]:
        """The names ``function`` surely binds, each with the first line after which it
        does (its parameters: its own line)."""
        found = self._bound.get(function)
        if found is not None:
            return found
        text, found = self.text, {}
        start = self.starts[function]
        opening = text.find("(", start)
        closing = _closing(text, opening)
        depth = _Depth(text, opening)
        for match in _PLAIN_NAME.finditer(text, opening, closing):
            if _parameter_like(text, *match.span()) and depth.top_level(match.start()):
                found.setdefault(match.group(), function)
        deleted: set[str] = set()
        for child in self.children.get(function, ()):
            at = self.starts[child]
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            if not self.in_code(at) or _continues(text, at):
                continue  # (in a string, or an argument of the line above)
            if _DELETE.match(text, at):
                deleted.update(_PLAIN_NAME.findall(text, at, end))
                continue
            for name, _ in _assigned_names(text, at, end):
                found.setdefault(name, child)
        for name in deleted:
            found.pop(name, None)
        self._bound[function] = found
        return found


class _Lines:
    """Where a text may bind a name: what each line binds by its start, and (made when
    first asked) where its ``def`` parameter lists and parenthesized import lists are."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._facts: dict[int, tuple[int, bool]] = {}
        self._lists: tuple[list[int], list[int]] | None = None

    def bound_elsewhere(self, definitions: dict[str, int]) -> set[str]:
        """The names of ``definitions`` written anywhere but at their definition's offset
        where a binding may be (see the module docstring): one pass over the text's words,
        in order, so a long list's brackets are counted once."""
        text = self.text
        bound: set[str] = set()
        depths: dict[int, _Depth] = {}
        for match in _spellings(definitions).finditer(text):
            name = match.group()
            definition = definitions.get(name)
            if definition is None or name in bound:
                continue
            start, end = match.span()
            if start == definition:
                continue
            opening = self._list_around(start)
            if opening >= 0:  # a parameter list (or an import group): nothing else binds
                depth = depths.get(opening)
                if depth is None:
                    depth = depths[opening] = _Depth(text, opening)
                if depth.lambda_before(start) or (
                    _parameter_like(text, start, end) and depth.top_level(start)
                ):
                    bound.add(name)
                continue
            line = text.rfind("\n", 0, start) + 1
            targets_end, keyword = self._line(line)
            assigns = start < targets_end or _WALRUS.match(text, end) is not None
            if assigns or (keyword and _BINDING_KEYWORD.search(text, line, start)):
                bound.add(name)
        return bound

    def _line(self, line: int) -> tuple[int, bool]:
        """Where the line's assignment targets or annotated name end (-1: none), and whether
        it has a binding keyword."""
        found = self._facts.get(line)
        if found is None:
            text = self.text
            end = text.find("\n", line)
            end = len(text) if end < 0 else end
            targets = None
            if text.find("=", line, end) >= 0:
                targets = _ASSIGNED.match(text, line, end)
            if targets is None and text.find(":", line, end) >= 0:
                targets = _ANNOTATED.match(text, line, end)
            keyword = _ANY_KEYWORD.search(text, line, end) is not None
            found = self._facts[line] = (targets.end() if targets else -1, keyword)
        return found

    def _list_around(self, offset: int) -> int:
        """Where the ``def`` parameter list or parenthesized import list holding ``offset``
        opens (-1: none does)."""
        if self._lists is None:
            text = self.text
            spans = [
                (m.end() - 1, _closing(text, m.end() - 1))
                for m in _DEF_HEADER.finditer(text)
                if _starts_statement(text, m.start())
            ]
            spans += [(m.start(1) - 1, m.end(1)) for m in _IMPORT_GROUP.finditer(text)]
            spans.sort()
            self._lists = ([start for start, _ in spans], [end for _, end in spans])
        starts, ends = self._lists
        index = bisect.bisect_right(starts, offset) - 1  # (the lists do not nest)
        return starts[index] if index >= 0 and offset < ends[index] else -1


def _parameter_like(text: str, start: int, end: int) -> bool:
    """Is the name between ``start`` and ``end`` where a parameter or an import is: after
    ``(``, ``,`` or ``*`` and before ``:``, ``=``, ``,`` or ``)``?"""
    while start and text[start - 1] in _BLANKS:
        start -= 1
    while end < len(text) and text[end] in _BLANKS:
        end += 1
    return text[start - 1 : start] in ("(", ",", "*") and text[end : end + 1] in _AFTER


def _spellings(names: Collection[str]) -> re.Pattern[str]:
    """Where ``names`` may be written as names of their own: after no ASCII word character
    or dot, before no word character. A few names are looked for by themselves (the
    pattern tries each at every word: more would cost their number times the text), more by
    every name written so. (A name right after a non-ASCII letter may end a longer one: a
    binding found there only makes the name unsure.)"""
    if len(names) > _FEW_NAMES:
        return _ANY_NAME
    words = "|".join(re.escape(name) for name in sorted(names))
    return re.compile(rf"(?<![A-Za-z0-9_.])(?:{words})(?!\w)")


_FEW_NAMES = 16
_ANY_NAME = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_]\w*")
_BLANKS = frozenset(" \t\r\n\\")
_AFTER = frozenset((":", "=", ",", ")", ""))


def _assigned_names(text: str, at: int, end: int | None = None) -> list[tuple[str, int]]:
    """The names the assignment statement at ``at`` binds (plain and annotated, to the
    end of its line or ``end``), with their offsets; none when it is no assignment."""
    end = len(text) if end is None else end
    assigned = _ASSIGNED.match(text, at, end)
    if assigned is not None:
        return [(m.group(), at + m.start()) for m in _BOUND_NAME.finditer(assigned.group())]
    annotated = _ANNOTATED_VALUE.match(text, at, end)
    return [(annotated.group(1), annotated.start(1))] if annotated is not None else []


def _indentation(text: str, at: int) -> int:
    end = at
    while end < len(text) and text[end] in " \t":
        end += 1
    return end - at


class _Depth:
    """The brackets open at each offset of a list that opens at the ``(`` at ``opening``,
    counted on from the offset asked before (asked in increasing order: each character is
    counted once)."""

    def __init__(self, text: str, opening: int) -> None:
        self.text = text
        self.opening = opening
        self.at = opening
        self.open = [0, 0, 0]  # ( [ {
        self.lambda_at = -2  # where the list's first lambda is (-1: none; -2: not looked)

    def top_level(self, at: int) -> bool:
        """Is ``at`` in the list itself, in no bracket inside it (``[[M, N]`` holds no
        parameter)?"""
        text = self.text
        if at < self.at:
            self.at, self.open = self.opening, [0, 0, 0]
        for index, (opener, closer) in enumerate(_BRACKET_PAIRS):
            self.open[index] += text.count(opener, self.at, at) - text.count(closer, self.at, at)
        self.at = at
        return self.open == [1, 0, 0]

    def lambda_before(self, at: int) -> bool:
        """Is there a ``lambda`` in the list before ``at`` (whose parameters bind)?"""
        if self.lambda_at == -2:
            self.lambda_at = self.text.find(
                "lambda", self.opening, _closing(self.text, self.opening)
            )
        return 0 <= self.lambda_at < at


_BRACKET_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"))


def _starts_statement(text: str, at: int) -> bool:
    """Is ``at`` after only blanks (and ``async``) on its line?"""
    return text[text.rfind("\n", 0, at) + 1 : at].split() in ([], ["async"])


def _closing(text: str, opening: int) -> int:
    """Where the ``)`` that closes the ``(`` at ``opening`` ends (the text's end when none
    does)."""
    at, depth = opening, 0
    while True:
        close = text.find(")", at)
        if close < 0:
            return len(text)
        depth += text.count("(", at, close) - 1
        if depth == 0:
            return close + 1
        at = close + 1


def _continues(text: str, line: int) -> bool:
    """Does the line before ``line`` leave a bracket, an argument list or a line join open
    (so the line is no statement of its own)?"""
    previous = text.rfind("\n", 0, max(line - 1, 0))
    return _OPEN_LINE_END.search(text, previous + 1, max(line - 1, 0)) is not None
