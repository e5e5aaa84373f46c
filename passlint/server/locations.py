"""Source locations of MLIR ops: ``loc(...)`` and ``#locN`` read down to the file lines that
produced them (JAX exports with debug info: ``loc("model.py":7:11)``).

An alias is followed to its definition (``#loc5 = loc(...)``) and on through any chain; a
``callsite(callee at caller)`` gives the callee's frames, then the caller's; a named location
``"name"(child)`` its child's; ``fused[a, b]`` each part's. File names are resolved against the
workspace roots (as written, then by ever shorter trailing parts of the path), and only to
regular files whose real path lies inside them: a location naming ``/etc/passwd``, climbing
out through ``..`` or reaching a link that leads out shows no line and goes nowhere. Lines are
read through ``filesystem``, at most a given number of bytes of a file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from passlint.analysis.pl.excerpt import excerpt
from passlint.analysis.source import split_lines
from passlint.filesystem import PYTHON_MAX_FILE_SIZE, Boundary, is_regular
from passlint.server.quoting import code as quoted
from passlint.server.session.roots import folder_of
from passlint.server.uris import document_path
from passlint.server.views import MlirView

if TYPE_CHECKING:
    from passlint.server.session import Session

Span = tuple[int, int]

_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<alias>#[\w$.\-]+)|(?P<word>[A-Za-z_][\w]*)'
    r"|(?P<int>\d+)|(?P<punct>[()\[\]<>:,]))"
)
_ALIAS_REFERENCE = re.compile(r"#[\w$.\-]+")
LINE = 200  # characters of a file name or a source line shown, at most


@dataclass(frozen=True)
class Frame:
    """A file location: the file as written, 1-based line and column."""

    file: str
    line: int
    column: int


class _Parser:
    def __init__(self, text: str, start: int, alias: Callable[[str], str | None]) -> None:
        self.text, self.at, self.alias = text, start, alias
        self.seen: set[str] = set()

    def token(self) -> tuple[str, str] | None:
        match = _TOKEN.match(self.text, self.at)
        if match is None or match.lastgroup is None:
            return None
        self.at = match.end()
        return match.lastgroup, match.group(match.lastgroup)

    def peek(self) -> tuple[str, str] | None:
        at = self.at
        token = self.token()
        self.at = at
        return token

    def expect(self, value: str) -> bool:
        token = self.peek()
        if token is not None and token[1] == value:
            self.token()
            return True
        return False

    def location(self, depth: int = 0) -> list[Frame]:
        """A location (with or without ``loc(...)`` around it)."""
        if depth > 64:
            return []
        token = self.token()
        if token is None:
            return []
        kind, value = token
        if kind == "word" and value == "loc" and self.expect("("):
            frames = self.location(depth + 1)
            self.expect(")")
            return frames
        if kind == "alias":
            return self.follow(value, depth)
        if kind == "word" and value == "callsite" and self.expect("("):
            callee = self.location(depth + 1)
            self.expect("at")
            caller = self.location(depth + 1)
            self.expect(")")
            return callee + caller
        if kind == "word" and value == "fused":
            if self.expect("<"):  # fused<metadata>[...]
                self.skip_until(">")
            parts: list[Frame] = []
            if self.expect("["):
                while True:
                    parts += self.location(depth + 1)
                    if not self.expect(","):
                        break
                self.expect("]")
            return parts
        if kind == "string":
            name = _unquote(value)
            if self.expect(":"):  # "file":line:column (to ...)?
                line = self.token()
                self.expect(":")
                column = self.token()
                if line and column and _number(line) is not None and _number(column) is not None:
                    return [Frame(name, int(line[1]), int(column[1]))]
                return []
            if self.expect("("):  # "name"(child)
                frames = self.location(depth + 1)
                self.expect(")")
                return frames
        return []

    def skip_until(self, value: str) -> None:
        while (token := self.token()) is not None and token[1] != value:
            pass

    def follow(self, name: str, depth: int) -> list[Frame]:
        if name in self.seen:
            return []
        self.seen.add(name)
        definition = self.alias(name)
        if definition is None:
            return []
        inner = _Parser(definition, 0, self.alias)
        inner.seen = self.seen
        return inner.location(depth + 1)


def _number(token: tuple[str, str]) -> int | None:
    """A line or column number: an integer LSP can carry (at most 2**31 - 1); a longer one
    names no place of any file."""
    kind, value = token
    if kind != "int" or len(value) > 10 or int(value) > _LARGEST:
        return None
    return int(value)


_LARGEST = 2**31 - 1


def frames(text: str, start: int, alias: Callable[[str], str | None]) -> list[Frame]:
    """The file frames of the location written at ``text[start:]``; ``alias`` gives the text
    after ``=`` of an alias definition."""
    return _Parser(text, start, alias).location()


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def location_at(text: str, offset: int, line_start: int, line_end: int) -> int | None:
    """The start of the ``loc(`` or ``#alias`` reference holding ``offset`` on its line."""
    best = None
    at = text.rfind("loc(", line_start, min(offset + 4, line_end))
    if at >= 0 and _closes_after(text, at + 3, offset, line_end):
        best = at
    for match in _ALIAS_REFERENCE.finditer(text, line_start, line_end):
        if match.start() <= offset <= match.end() and (best is None or match.start() > best):
            best = match.start()
    return best


def _closes_after(text: str, open_at: int, offset: int, line_end: int) -> bool:
    depth = 0
    for i in range(open_at, line_end):
        char = text[i]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i >= offset
    return False


def resolve(file: str, boundary: Boundary, folder: str | None) -> str | None:
    """The real path of the file a location names, inside the workspace: as written
    (absolute, or relative to a root or the document's folder, if it has one), else the
    longest trailing part of its path found below a root or that folder. None when nothing
    it may name is a regular file inside ``boundary``."""
    if not _nameable(file):
        return None
    if os.path.isabs(file) and (found := _inside(file, boundary)) is not None:
        return found
    bases = [*boundary.roots, *([folder] if folder is not None else [])]
    parts = [p for p in file.replace("\\", "/").split("/") if p not in ("", ".")]
    for cut in range(len(parts)):
        tail = os.path.join(*parts[cut:])
        for base in bases:
            if (found := _inside(os.path.join(base, tail), boundary)) is not None:
                return found
    return None


def _nameable(file: str) -> bool:
    """Can a file have the name ``file`` (no NUL, no character the file system cannot
    encode)?"""
    try:
        os.fsencode(file)
    except UnicodeEncodeError:
        return False
    return "\0" not in file


def _inside(path: str, boundary: Boundary) -> str | None:
    real = os.path.realpath(path)
    return real if boundary.contains(real) and is_regular(real) else None


# -- what the features ask of a document ---------------------------------------------------------


def frames_at(view: MlirView, offset: int) -> tuple[list[Frame], Span] | None:
    """The frames of the location at ``offset``: a ``loc(...)`` / ``#alias`` reference there,
    else the trailing location of the op whose name or results are there; and the span the
    answer is about."""
    text, source = view.source.text, view.source
    line = source.position(offset).line
    line_start = source.line_starts[line]
    line_end = line_start + len(source.line_text(line))
    start = location_at(text, offset, line_start, line_end)
    alias = _alias_reader(view)
    if start is not None:
        end = _reference_end(text, start, line_end)
        return frames(text, start, alias), (start, end)
    at = view.to_index(offset)
    if at is None:
        return None
    index = view.index
    op = index.op_at(at)
    if op < 0:
        return None
    name = index.name_span(op)
    occurrence = index.occurrence_at(at)
    on_result = (
        occurrence is not None
        and index.is_definition[occurrence]
        and (index.starts[occurrence] < name[0])
    )
    if not (name[0] <= at <= name[1] or on_result) or index.op_locations[op] < 0:
        return None
    location = view.to_current((index.op_locations[op], index.op_locations[op]))
    span = view.to_current(name)
    if location is None or span is None:
        return None
    return frames(text, location[0], alias), span


def _reference_end(text: str, start: int, line_end: int) -> int:
    if text.startswith("#", start):
        match = _ALIAS_REFERENCE.match(text, start)
        return match.end() if match else start
    depth = 0
    for i in range(start + 3, line_end):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return line_end


def _alias_reader(view: MlirView) -> Callable[[str], str | None]:
    """The text after ``=`` of an alias definition, found through the index (or searched for
    when the index has it on a line changed since)."""
    text = view.source.text

    def read(name: str) -> str | None:
        span = view.index.aliases.get(name)
        moved = view.to_current(span) if span is not None else None
        if moved is None or text[moved[0] : moved[1]] != name:
            found = re.search(r"^" + re.escape(name) + r"\s*=", text, re.MULTILINE)
            if found is None:
                return None
            moved = (found.start(), found.start() + len(name))
        equals = text.find("=", moved[1])
        line_end = text.find("\n", moved[1])
        line_end = len(text) if line_end < 0 else line_end
        return text[equals + 1 : line_end] if 0 <= equals < line_end else None

    return read


def resolved(found: list[Frame], boundary: Boundary, folder: str | None) -> list[tuple[Frame, str]]:
    """The frames whose file is in the workspace, with its real path."""
    out = []
    for frame in found:
        path = resolve(frame.file, boundary, folder)
        if path is not None:
            out.append((frame, path))
    return out


def hover_text(
    found: list[Frame], boundary: Boundary, folder: str | None, limit: int
) -> str | None:
    """``file:line:column`` of each frame, with that source line when the file is found in
    the workspace (each file read once, at most ``limit`` bytes of it)."""
    if not found:
        return None
    lines = ["**Source location**", ""]
    texts: dict[str, list[str] | None] = {}  # the files read for this answer, by real path
    for frame in found:
        path = resolve(frame.file, boundary, folder)
        code = _line_of(texts, path, frame.line, boundary, limit) if path is not None else None
        where = f"{excerpt(frame.file, LINE)}:{frame.line}:{frame.column}"
        lines.append(f"- {quoted(where, len(where))}")
        if code is not None:
            lines.append(f"  {quoted(code.strip(), LINE)}")
    return "\n".join(lines)


def _line_of(
    texts: dict[str, list[str] | None], path: str, line: int, boundary: Boundary, limit: int
) -> str | None:
    if path not in texts:
        try:
            text = boundary.read(path, limit).decode("utf-8", "replace")
            texts[path] = split_lines(text)  # (as Python counts lines)
        except OSError:
            texts[path] = None
    found = texts[path]
    return found[line - 1] if found is not None and 1 <= line <= len(found) else None


# -- the features ---------------------------------------------------------------------------------


def targets(session: Session, uri: str, view: MlirView, offset: int) -> list[types.Location]:
    """The workspace files and lines the source location at ``offset`` names."""
    found = frames_at(view, offset)
    if found is None:
        return []
    path = document_path(uri)
    boundary = Boundary(session.roots.for_path(path))
    out = []
    for frame, target in resolved(found[0], boundary, folder_of(path)):
        position = types.Position(line=max(frame.line - 1, 0), character=max(frame.column - 1, 0))
        out.append(
            types.Location(
                uri=from_fs_path(target) or target,
                range=types.Range(start=position, end=position),
            )
        )
    return out


def hover(session: Session, uri: str, view: MlirView, offset: int) -> tuple[str, Span] | None:
    """The lines the source location at ``offset`` names, and the span it covers."""
    found = frames_at(view, offset)
    if found is None:
        return None
    path = document_path(uri)
    boundary = Boundary(session.roots.for_path(path))
    # (a location names a program's source: read as large as a Python file may be)
    limit = session.settings.settings_for(path).max_file_size or PYTHON_MAX_FILE_SIZE
    text = hover_text(found[0], boundary, folder_of(path), limit)
    return None if text is None else (text, found[1])
