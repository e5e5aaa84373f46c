"""Which pl files can hold a finding of the pass, told from their text without parsing
them in full: a batch check of a workspace analyses only those (``may_have_findings``).

A file has no finding when it parses and has none of what every finding needs:

* a device kernel whose header may read a valid_shape symbol (VS001, VS002, VS006: a
  ``TensorView(...)`` with ``valid_shape`` in it, or a tensor whose third item is a name,
  which may hold a view), reads a name in a physical shape that the text does not surely
  bind above it (VS008; ``screen_names``) or declares an ``INDEX`` scalar parameter whose
  name an earlier annotation reads (VS005). A kernel's decorator
  names its type (``FunctionType.InCore``, ``AIC``, ``AIV``, ``Spmd``); its header is that
  of the next ``def`` in code (the first one after the type, and the first one after it
  outside triple-quoted strings, by their count), read alone with ``ast``. A text that may
  spell the types otherwise (an aliased ``FunctionType`` member) is analysed;
* a ``CORE_GROUP`` ``pl.at`` scope in a function that declares a valid extent before it
  (``valid_shape``, ``set_validshape``, a ``slice`` with a fourth argument, ``TensorView``,
  a view variable: VS007). The function is the text from the nearest ``def`` around the
  scope to the first line indented no deeper, taken only when its brackets and triple
  quotes balance;
* a call of such a kernel (VS003, VS004): the file may import a module-level kernel the
  first point picks out in any workspace file (it names the kernel and reaches the module:
  ``WorkspaceIndex.importers``), or any module whose text the screen cannot tell
  (``Screens``, built once per run);
* a syntax error (E002), or nesting deeper than the analysis follows: ``symtable`` runs
  CPython's parser (without building the tree) with less stack than the analysis has.

``SCREENED`` names, for each rule of the pass, the points that let its findings through: each
rule's ``screened`` (``Precondition``, declared with the rule: in ``rules``, or in its
check's own file in ``checks``). A standalone check may bring a test of the text of its own
instead (``Check.may_find``, in ``OWN_TESTS``), which lets a file through as those points do.
"""

from __future__ import annotations

import ast
import bisect
import os
import re
import symtable
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import FrameType
from typing import Final

from passlint.analysis.pl.index import workspace_index
from passlint.analysis.pl.python_text import (
    decoding_problem,
    parser_text,
    spells_names_alike,
)
from passlint.analysis.pl.walk import nodes_below
from passlint.analysis.rules import Rule
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.checks import CHECKS
from passlint.passes.materialize_valid_shape_symbols.def_headers import (
    DEF,
    Def,
    Header,
    Quotes,
    def_at,
    def_lines,
    header_text,
    parsed_header,
    parsed_headers,
    unusual_lines,
)
from passlint.passes.materialize_valid_shape_symbols.preconditions import Precondition
from passlint.passes.materialize_valid_shape_symbols.rules import PYTHON_SYNTAX_ERROR, VS_RULES
from passlint.passes.materialize_valid_shape_symbols.screen_names import SureNames

_DEVICE = re.compile(r"InCore|AIC|AIV|Spmd")
_ALIASED_TYPES = re.compile(r"FunctionType[\s\\]*(?:import\b|\.[\s\\]*\w+[\s\\]+as\b)")
_EXTENT_WORDS = re.compile(r"valid_shape|set_validshape|TensorView")
_SLICE = re.compile(r"\bslice[ \t]*\(")
_TENSOR_TYPES = frozenset({"Tensor", "DistributedTensor"})
_WORD_CHAR = re.compile(r"\w")


@dataclass(frozen=True)
class Screen:
    """What a text shows: ``own``, a kernel or a ``pl.at`` scope of it may have findings;
    ``kernels``, those of its module-level kernels (the ones other files can import) whose
    calls may have findings, by name. None instead: it cannot tell."""

    own: bool
    kernels: frozenset[str]


def _preconditions(rule: Rule) -> tuple[Precondition, ...]:
    tests = tuple(test for test in rule.screened if isinstance(test, Precondition))
    assert len(tests) == len(rule.screened), rule.code  # the pass's rules name only its tests
    return tests


# The tests that let a file with each finding of the pass through (any one of them): each VS
# rule declares its own with the rule (``Rule.screened``); a rule without
# them is not screened for, and a test fails (it compares these codes with the catalog's VS
# rules, and every finding of the test data with its tests). A call's finding (VS003, VS004)
# has its kernel in the file itself or in a file it imports. E002 is the front end's.
SCREENED: Final[Mapping[str, tuple[Precondition, ...]]] = {
    **{code: _preconditions(rule) for code, rule in VS_RULES.items()},
    PYTHON_SYNTAX_ERROR.code: (Precondition.SYNTAX,),
}
_TESTS = tuple(test for test in Precondition if any(test in tests for tests in SCREENED.values()))
# The standalone checks' own tests of the text, by rule code.
OWN_TESTS: Final[Mapping[str, Callable[[str], bool]]] = {
    check.rule.code: check.may_find for check in CHECKS if check.may_find is not None
}


def may_have_findings(path: str, text: str, workspace: Workspace) -> bool:
    """Whether the pass may report anything for the pl source ``text`` (False: it reports
    nothing, as its full analysis would): whether any test of ``SCREENED`` or of
    ``OWN_TESTS`` lets it through."""
    return any(lets_through(test, path, text, workspace) for test in _TESTS) or any(
        test(text) for test in OWN_TESTS.values()
    )


def lets_through_findings_of(code: str, path: str, text: str, workspace: Workspace) -> bool:
    """Whether the screen lets ``text`` through by a test that rule ``code`` names."""
    own = OWN_TESTS.get(code)
    return (own is not None and own(text)) or any(
        lets_through(test, path, text, workspace) for test in SCREENED[code]
    )


def lets_through(test: Precondition, path: str, text: str, workspace: Workspace) -> bool:
    """Whether ``test`` of the screen lets the pl source ``text`` through."""
    screens = workspace_screens(workspace)
    where = os.path.abspath(path)  # as the workspace lists its files
    if test is Precondition.HEADER:
        own = screens.of(where, text)
        return own is None or own.own
    if test is Precondition.CALL:
        return screens.may_call(where)
    if test is Precondition.SCOPE:
        return scopes_may_gain(text)
    return not parses(path, text)


_KERNEL_BYTES = re.compile(rb"InCore|AIC|AIV|Spmd|FunctionType")
_NOTHING = Screen(False, frozenset())


class Screens:
    """The screen of every pl file of a workspace (through its index), and the files that
    may call the kernels they pick out (whose calls may have findings)."""

    def __init__(
        self, workspace: Workspace, screened: Mapping[str, Screen | None] | None = None
    ) -> None:
        """``screened``: what ``screen_files`` gives for every file of the workspace's
        index (made elsewhere: by worker processes); else they are screened here."""
        self._index = workspace_index(workspace)
        if screened is None:
            screened = dict(screen_files(workspace, self._index.paths()))
        self._screens: dict[str, Screen | None] = dict(screened)
        self._callers: frozenset[str] | None = None

    def file_changed(self, path: str, text: str | None) -> None:
        self._screens.pop(path, None)
        if text is not None and "pypto" in text:
            self._screens[path] = screen(text, scopes=False)
        self._callers = None

    def of(self, path: str, text: str) -> Screen | None:
        if path in self._screens:
            return self._screens[path]
        return screen(text, scopes=False)  # a file outside the workspace

    def may_call(self, path: str) -> bool:
        """May the file at ``path`` call a kernel some file's screen picked out?"""
        if self._callers is None:
            found: set[str] = set()
            names = [n for item in self._screens.values() if item is not None for n in item.kernels]
            self._index.prefetch(names)
            for where, item in self._screens.items():
                if item is None:  # its kernels are not known: any file that imports it
                    found.update(self._index.importers(None, where))
                    continue
                for name in item.kernels:
                    found.update(self._index.importers(name, where))
            self._callers = frozenset(found)
        return path in self._callers


def screen_files(workspace: Workspace, paths: list[str]) -> list[tuple[str, Screen | None]]:
    """The screens of those of ``paths`` (files of the workspace's index) that mention
    pypto, each with its path."""
    index = workspace_index(workspace)
    found: list[tuple[str, Screen | None]] = []
    for path in paths:
        data = index.searched(path)
        if data is not None and _KERNEL_BYTES.search(data) is None:
            found.append((path, _NOTHING))  # no kernel type, no FunctionType at all
            continue
        text = index.text(path)
        if text is not None and "pypto" in text:
            found.append((path, screen(text, scopes=False)))
    return found


def workspace_screens(
    workspace: Workspace, screened: Mapping[str, Screen | None] | None = None
) -> Screens:
    """The workspace's ``Screens`` (made once: ``screened``, when given, is what
    ``screen_files`` gave for every file of its index)."""
    return workspace.derived("vs.screens", lambda: Screens(workspace, screened))


# -- syntax -----------------------------------------------------------------------------------

# ``symtable`` is called this many frames below the recursion limit: the nesting CPython's
# parser then accepts (about three levels a frame) is less than what the analysis can
# follow in Python, so a text nested too deep for it is analysed (and reported so).
_HEADROOM = 300


def parses(path: str, text: str) -> bool:
    """Whether ``text`` is valid Python nested no deeper than the analysis can follow."""
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return _parses_at(max(0, sys.getrecursionlimit() - _HEADROOM - depth), path, text)


def _parses_at(frames: int, path: str, text: str) -> bool:
    if frames > 0:
        return _parses_at(frames - 1, path, text)
    if decoding_problem(text) is not None:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(parser_text(text), path, "exec")
    except Exception:  # SyntaxError, ValueError (NUL), RecursionError, MemoryError ...
        return False
    return True


# -- the text ---------------------------------------------------------------------------------


def screen(text: str, scopes: bool = True) -> Screen | None:
    """What the text shows of the findings its file may have (see the module docstring);
    ``scopes``: count its ``pl.at`` scopes in ``own`` (else ``scopes_may_gain`` tells).
    The text is read by lines that end at ``\\n``, indented by blanks and tabs: one with a
    lone carriage return or a form feed (which resets the indentation) cannot tell, nor
    one whose names CPython reads otherwise than they are written (``InCore`` in fullwidth
    letters is ``InCore``)."""
    text = parser_text(text)
    if _ALIASED_TYPES.search(text) or unusual_lines(text) or not spells_names_alike(text):
        return None
    devices = [m for m in _DEVICE.finditer(text) if _whole_word(text, *m.span())]
    has_scope = "CORE_GROUP" in text
    if not devices and not has_scope:
        return _NOTHING
    quotes = Quotes(text)
    examined: dict[int, Def] = {}  # the defs after a kernel type, by line
    listed: _DefsAfter | None = None  # every def, once a short search did not do
    seen: set[tuple[int, tuple[int, int]]] = set()  # (the next def's line, parity) done
    for match in devices:
        # the first def after the type, and the first with as many triple quotes before it
        # (mod 2): the first in code, when the type is
        nearest = DEF.search(text, match.end())  # (types before the same one: one search)
        key = (nearest.start() if nearest else -1, quotes.parity(match.end()))
        if key in seen:
            continue  # another type before the same def, as much in a string or not
        seen.add(key)
        found = _defs_after(text, match.end(), quotes)
        if found is None:
            listed = listed or _DefsAfter(text, quotes)
            found = listed.after(match.end())
        examined.update((item.line, item) for item in found)
    kernels: set[str] = set()
    top: _TopLines | None = None
    triggered = False
    heads = {line: header_text(text, line) for line in examined}
    sure = _LazySureNames(text, quotes, heads.values())
    heads = {
        line: head for line, head in heads.items() if head is None or _may_read(head, sure, line)
    }
    headers = parsed_headers([head for head in heads.values() if head is not None])
    for line, head in heads.items():
        header = headers.pop(0) if head is not None else None
        if header is None or _reads_symbols(header, sure.get(), line):
            triggered = True
            item = examined[line]
            top = top or _TopLines(text, quotes)
            if top.importable(item, quotes.parity(item.line)):
                kernels.add(item.name)
    own = triggered or (scopes and has_scope and scopes_may_gain(text))
    return Screen(own, frozenset(kernels))


_SHORT_SEARCH = 16  # defs looked at after a kernel type before listing them all


def _defs_after(text: str, at: int, quotes: Quotes) -> list[Def] | None:
    """The first ``def`` after offset ``at``; when ``at`` is in code (no triple quote open
    before it, by their count), also the first ``def`` in code after it (one in a string may
    come between). None when that takes a long search."""
    in_code = quotes.parity(at) == (0, 0)
    found: list[Def] = []
    for count, match in enumerate(DEF.finditer(text, at)):
        if count == _SHORT_SEARCH:
            return None
        item = def_at(text, match)
        if item is None:
            continue
        if not found:
            found.append(item)
        if not in_code or quotes.parity(item.line) == (0, 0):
            if found[0].line != item.line:
                found.append(item)
            break
    return found


class _DefsAfter:
    """Every ``def`` of a text by triple-quote parity, for ``_defs_after``'s long searches
    (the same answers)."""

    def __init__(self, text: str, quotes: Quotes) -> None:
        self.quotes = quotes
        self.defs = def_lines(text)
        self.starts = [item.line for item in self.defs]
        self.by_parity: dict[tuple[int, int], list[int]] = {}
        for index, item in enumerate(self.defs):
            self.by_parity.setdefault(quotes.parity(item.line), []).append(index)

    def after(self, at: int) -> list[Def]:
        first = bisect.bisect_left(self.starts, at)
        if first == len(self.defs):
            return []
        found = [self.defs[first]]
        if self.quotes.parity(at) == (0, 0):
            in_code = self.by_parity.get((0, 0), [])
            index = bisect.bisect_left(in_code, first)
            if index < len(in_code) and in_code[index] != first:
                found.append(self.defs[in_code[index]])
        return found


def scopes_may_gain(text: str) -> bool:
    """May a ``pl.at`` scope of the text gain valid_shape symbols (VS007)?"""
    if "CORE_GROUP" not in text:
        return False
    text = parser_text(text)
    defs = def_lines(text)
    return _outlined_extents(text, defs, [d.line for d in defs])


def _whole_word(text: str, start: int, end: int) -> bool:
    return not (start and _WORD_CHAR.match(text, start - 1)) and not _WORD_CHAR.match(text, end)


class _TopLines:
    """The lines of a text with code at column 0, with whether each starts a definition,
    and the triple quotes before them (mod 2)."""

    def __init__(self, text: str, quotes: Quotes) -> None:
        self.starts: list[int] = []
        self.facts: list[tuple[bool, tuple[int, int]]] = []
        for match in _TOP_LINE.finditer(text):
            at = match.start()
            self.starts.append(at)
            self.facts.append((_DEFINITION.match(text, at) is not None, quotes.parity(at)))

    def importable(self, item: Def, parity: tuple[int, int]) -> bool:
        """May the ``def`` be a module-level function (one other files can import)? Yes
        unless the nearest line above it with code at column 0 (and the same triple quotes
        before it, mod 2: not in a string) starts a def, a class or a decorator."""
        if item.indent == 0:
            return True
        for index in range(bisect.bisect_left(self.starts, item.line) - 1, -1, -1):
            definition, before = self.facts[index]
            if before == parity:
                return not definition
        return True


_TOP_LINE = re.compile(r"^(?=[^ \t\r\f\n#)\]}])", re.MULTILINE)
_DEFINITION = re.compile(r"(?:async[ \t]+)?def\b|class\b|@")


def _may_read(head: str, sure: _LazySureNames, line: int) -> bool:
    """Can the header text (of the ``def`` whose line starts at ``line``) read a symbol at
    all: does it name ``TensorView`` or ``INDEX``, has it a tensor type other than
    ``Tensor[[shape], dtype]`` (or with a dotted third item, a layout), which might name a
    view variable, or a shape that reads a name not ``sure`` before it (VS008)? Headers
    with a comment are read."""
    if "#" in head or "TensorView" in head or "INDEX" in head:
        return True
    if len(_TENSOR.findall(head)) != len(_PLAIN_TENSOR.findall(head)):
        return True
    return any(
        not sure.get().before(name, line)
        for shape in _PLAIN_SHAPE.findall(head)
        for name in _NAME.findall(shape)
    )


# A plain tensor's shape (every tensor of the header is plain when asked), a name in it.
_PLAIN_SHAPE = re.compile(r"Tensor\s*\[\s*\[([^\[\]]*)\]")
_NAME = re.compile(r"(?<![\w.])[^\W\d]\w*")


class _LazySureNames:
    """The text's ``SureNames`` of the names its kernels' headers (``heads``) read, made
    when a header first asks."""

    def __init__(self, text: str, quotes: Quotes, heads: Iterable[str | None]) -> None:
        self.text, self.quotes, self.heads = text, quotes, heads
        self.made: SureNames | None = None

    def get(self) -> SureNames:
        if self.made is None:
            quotes = self.quotes
            asked = {name for head in self.heads if head for name in _NAME.findall(head)}
            self.made = SureNames(self.text, lambda at: quotes.parity(at) == (0, 0), asked)
        return self.made


_TENSOR = re.compile(r"Tensor\s*\[")
_PLAIN_TENSOR = re.compile(
    r"Tensor\s*\[\s*\[[^\[\]]*\]\s*,\s*[\w.]+\s*(?:,\s*\w+\.[\w.]+\s*)?,?\s*\]"
)


def _reads_symbols(node: Header, sure: SureNames, line: int) -> bool:
    """May the kernel with this header (its line at offset ``line``) read a valid_shape
    symbol, declare a late ``INDEX`` scalar or read a name in a physical shape that is not
    ``sure`` before it (``SureNames``)?"""
    args = node.args
    read: set[str] = set()  # the names earlier annotations read
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        if arg.annotation is None:
            continue
        names: set[str] = set()
        for below in nodes_below((arg.annotation,)):
            if isinstance(below, ast.Name):
                names.add(below.id)
                if below.id == "INDEX" and arg.arg in read:
                    return True
            elif isinstance(below, ast.Attribute):
                if below.attr == "INDEX" and arg.arg in read:
                    return True
            elif isinstance(below, ast.Call):
                if _word(below.func) == "TensorView" and any(
                    k.arg in ("valid_shape", None) for k in below.keywords
                ):
                    return True
            elif isinstance(below, ast.Subscript) and (
                _view_name(below) or _unsure_shape(below, sure, line)
            ):
                return True
        read |= names
    return False


def _word(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _view_name(node: ast.Subscript) -> bool:
    """``Tensor[shape, dtype, NAME]``: the name may hold a ``TensorView``."""
    if _word(node.value) not in _TENSOR_TYPES or not isinstance(node.slice, ast.Tuple):
        return False
    items = node.slice.elts
    return len(items) > 2 and isinstance(items[2], ast.Name)


def _unsure_shape(node: ast.Subscript, sure: SureNames, line: int) -> bool:
    """``Tensor[[ROWS, 64], dtype]``: a physical dimension reads a name not ``sure`` before
    ``line`` (VS008; an earlier parameter may do with postponed annotations: analysed)."""
    if _word(node.value) not in _TENSOR_TYPES or not isinstance(node.slice, ast.Tuple):
        return False
    items = node.slice.elts
    return bool(items) and any(
        isinstance(n, ast.Name) and not sure.before(n.id, line) for n in nodes_below((items[0],))
    )


def _outlined_extents(text: str, defs: list[Def], starts: list[int]) -> bool:
    """Is a ``CORE_GROUP`` scope in a function that declares a valid extent before it? (The
    tensors a scope captures are the function's parameters and what it assigns before the
    scope, so their extents come from there.)"""
    if "\t" in text or "\\\n" in text or "\\\r" in text or unusual_lines(text):
        return True  # indentation and lines may not mean what they seem
    last: dict[int, int] = {}  # function start -> the last scope's offset in it
    functions = _Functions(text, defs)
    at = text.find("CORE_GROUP")
    while at >= 0:
        region = functions.around(at)
        if region is None:
            return True
        if region[1] > region[0]:
            last[region[0]] = at
        at = text.find("CORE_GROUP", at + 1)
    for start, scope in last.items():
        before = text[start:scope]
        if _EXTENT_WORDS.search(before) or _long_slice(before) or _has_view_name(before):
            return True
    return False


class _Functions:
    """The innermost function around each of increasing offsets, found in one sweep over
    the defs: each def's block is measured once, and the defs open at the sweep point are
    kept as a stack (each inside the one below it)."""

    def __init__(self, text: str, defs: list[Def]) -> None:
        self.text = text
        self.defs = defs
        self._lines = [0, *(m.end() for m in re.finditer("\n", text))]
        self._next = 0  # the first def not yet pushed
        self._open: list[tuple[Def, int, bool]] = []  # (def, block end, balanced)

    def around(self, at: int) -> tuple[int, int] | None:
        """The span of the innermost function around offset ``at`` ((0, 0) when none holds
        it); None when it cannot be told (brackets or triple quotes that do not balance)."""
        text = self.text
        line_start = self._lines[bisect.bisect_right(self._lines, at) - 1]
        depth = len(text[line_start:at]) - len(text[line_start:at].lstrip())
        while self._next < len(self.defs) and self.defs[self._next].line < line_start:
            item = self.defs[self._next]
            self._next += 1
            while self._open and self._open[-1][1] < item.line:
                self._open.pop()  # ended before this def starts
            self._open.append((item, *self._block(item)))
        while self._open and self._open[-1][1] < at:
            self._open.pop()
        for item, stop, balanced in reversed(self._open):
            if item.indent < depth:
                return (item.line, stop) if balanced else None
        return 0, 0

    def _block(self, item: Def) -> tuple[int, bool]:
        end = _block_end(item.indent).search(self.text, item.line)
        stop = end.start() if end is not None else len(self.text)
        region = self.text[item.line : stop]
        balanced = not (
            region.count('"""') % 2
            or region.count("'''") % 2
            or region.count("(") != region.count(")")
            or region.count("[") != region.count("]")
            or region.count("{") != region.count("}")
        )
        return stop, balanced


def _long_slice(region: str) -> bool:
    """Is there a ``slice(...)`` call with a fourth positional argument (a valid shape), or
    one that cannot be read alone?"""
    for match in _SLICE.finditer(region):
        depth, at = 0, match.end() - 1
        for at in range(match.end() - 1, len(region)):
            char = region[at]
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                if depth == 0:
                    break
        try:
            call = ast.parse(region[match.start() : at + 1], mode="eval").body
        except Exception:
            return True
        if not isinstance(call, ast.Call) or len(call.args) > 3:
            return True
        if any(isinstance(arg, ast.Starred) for arg in call.args):
            return True
    return False


def _block_end(indent: int) -> re.Pattern[str]:
    """The end of a line followed by one with code indented ``indent`` or less (a closing
    bracket or a comment does not count); ``re`` keeps the compiled patterns."""
    return re.compile(rf"\n(?=[ ]{{0,{indent}}}[^ \t\r\f\n#)\]}}])")


def _has_view_name(region: str) -> bool:
    """Does the header of the function ``region`` starts with have a tensor whose third
    item is a name (a view variable, maybe)?"""
    node = parsed_header(region, 0)
    if node is None:
        return True
    args = node.args
    return any(
        isinstance(below, ast.Subscript) and _view_name(below)
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs)
        if arg.annotation is not None
        for below in nodes_below((arg.annotation,))
    )
