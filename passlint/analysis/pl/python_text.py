"""What CPython's tokenizer does to a file's text before it parses it, for a text that was
decoded already (``ast.parse`` of a ``str`` skips these steps or does them otherwise).

* A UTF-8 byte order mark before the first line is dropped: the parser never sees it, and
  line 1's columns start after it (``ast.parse`` of a str rejects it as a character).
* A coding declaration on line 1 or 2 (PEP 263) must name a known codec, and with a BOM it
  must be UTF-8 (``ast.parse`` of a str ignores the declaration).
* A NUL character is rejected ("source code cannot contain null bytes", on its line).
* ``\\n``, ``\\r\\n`` and a lone ``\\r`` end a line (as in ``SourceText``); code that cuts
  a text into lines at ``\\n`` must know when a lone ``\\r`` is there
  (``source.has_lone_cr``).
* Identifiers are read NFKC-normalized (PEP 3131): a fullwidth ``k`` (U+FF4B) is ``k``;
  code that looks for a name in the text instead of the tree must know when the text may
  spell one otherwise (``spells_names_alike``).
"""

from __future__ import annotations

import codecs
import re
import unicodedata

from passlint.analysis.pl.excerpt import excerpt

BOM = "\ufeff"

# PEP 263 and tokenizer.c (``get_coding_spec``): a comment line naming the codec; line 2
# counts only when line 1 is blank or a comment.
_CODING = re.compile(r"[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
_BLANK_OR_COMMENT = re.compile(r"[ \t\f]*(?:#.*)?\Z")
_FIRST_LINES = re.compile(r"([^\r\n]*)(?:\r\n?|\n)?([^\r\n]*)")


def bom_length(text: str) -> int:
    """1 when ``text`` starts with a byte order mark, else 0."""
    return 1 if text.startswith(BOM) else 0


def parser_text(text: str) -> str:
    """The text CPython's parser reads: ``text`` without its byte order mark."""
    return text[1:] if text.startswith(BOM) else text


Problem = tuple[str, tuple[int, int]]  # a message and the character span it is about


def spells_names_alike(text: str) -> bool:
    """Is every name of ``text`` spelled as CPython reads it? Yes when its text is
    NFKC-normal, or when what normalization changes cannot be in a name (``…``, ``²``,
    fullwidth punctuation: in strings and comments only)."""
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return True
    for char in {c for c in set(text) if not c.isascii()}:
        if f"a{char}".isidentifier() and (
            unicodedata.combining(char) or unicodedata.normalize("NFKC", char) != char
        ):
            return False
    return True


def decoding_problem(text: str) -> Problem | None:
    """Why CPython would not read ``text`` at all, with what to underline (None: it reads
    it): a bad coding declaration, else the first NUL character. (CPython reads the text
    line by line: a syntax error on a line before the NUL's is the one it reports.)"""
    nul = text.find("\0")
    coding = _coding_problem(text)
    if coding is not None and (nul < 0 or coding[1][0] <= nul):
        return coding
    if nul >= 0:
        return "source code cannot contain null bytes", (nul, nul + 1)
    return None


def _coding_problem(text: str) -> Problem | None:
    bom = bom_length(text)
    lines = _FIRST_LINES.match(text, bom)
    assert lines is not None
    number = 1
    declared = _CODING.match(lines.group(1))
    if declared is None and _BLANK_OR_COMMENT.match(lines.group(1)):
        number = 2
        declared = _CODING.match(lines.group(2))
    if declared is None:
        return None
    span = lines.start(number) + declared.start(1), lines.start(number) + declared.end(1)
    name = _normal_name(declared.group(1))
    if bom:
        return None if name == "utf-8" else (f"encoding problem: {excerpt(name)} with BOM", span)
    try:
        codecs.lookup(name)
    except LookupError:
        return f"encoding problem: {excerpt(name)}", span
    return None


def _normal_name(name: str) -> str:
    """tokenizer.c's ``get_normal_name``: the spellings of UTF-8 and Latin-1 it folds."""
    folded = name[:12].lower().replace("_", "-")
    if folded == "utf-8" or folded.startswith("utf-8-"):
        return "utf-8"
    for latin in ("latin-1", "iso-8859-1", "iso-latin-1"):
        if folded == latin or folded.startswith(latin + "-"):
            return "iso-8859-1"
    return name
