"""Which pass reads a document: a ``.mlir`` file is MLIR; a ``.hlo`` or ``.hlo.txt`` file is
XLA HLO text, and so is a ``.txt`` file (an XLA dump) whose first text after blanks and
comments is ``HloModule`` (a ``.hlo.pb`` or ``.hlo_module.pb`` file is an HLO protocol buffer,
read as bytes: ``is_hlo_proto``, as is MLIR bytecode, ``.mlirbc``); a ``.py`` file is a pl
source when a line of it imports ``pypto.language``.

A line starts where CPython's tokenizer starts one: after ``\\n``, ``\\r\\n`` or a lone ``\\r``,
and the first line may open with a UTF-8 byte order mark. The same rule reads the decoded
text (the pipeline) and the raw bytes (a batch check, which skips other Python files unread).
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["mlir", "pl", "hlo"]

_IMPORT = (
    r"(?:^|(?<=\r))BOM?[ \t\f]*"  # (blanks within a line: a run of blank lines costs linear time)
    r"(?:import\s+pypto\.language\b|from\s+pypto(?:\.language)?\s+import\b)"
)
_PL_IMPORT = re.compile(_IMPORT.replace("BOM", "\ufeff"), re.MULTILINE)
_PL_IMPORT_BYTES = re.compile(_IMPORT.replace("BOM", "(?:\xef\xbb\xbf)").encode("latin-1"), re.M)
# Blanks and comments, then ``HloModule``. The repetition is possessive: a failed match never
# tries to split the comments another way (which costs exponential time: ``/**/`` x 30).
_HLO = r"BOM?(?:\s|//[^\r\n]*|/\*.*?\*/)*+HloModule\b"
_HLO_HEADER = re.compile(_HLO.replace("BOM", "\ufeff"), re.DOTALL)
_HLO_HEADER_BYTES = re.compile(_HLO.replace("BOM", "(?:\xef\xbb\xbf)").encode("latin-1"), re.S)
HLO_SUFFIXES = (".hlo", ".hlo.txt")
# XLA HLO as a protocol buffer (``passlint.analysis.hlo.proto``): read as bytes, not text.
HLO_PROTO_SUFFIXES = (".hlo.pb", ".hlo_module.pb")
# MLIR bytecode and StableHLO portable artifacts (``passlint.analysis.mlir.bytecode``): read
# as bytes, turned into text by jaxlib.
BYTECODE_SUFFIXES = (".mlirbc",)


def language_of(path: str, text: str) -> Language | None:
    """``mlir`` for .mlir files, ``hlo`` for HLO text, ``pl`` for Python files importing
    pypto.language, else None."""
    if path.endswith(".mlir"):
        return "mlir"
    if path.endswith(HLO_SUFFIXES) or (path.endswith(".txt") and _HLO_HEADER.match(text)):
        return "hlo"
    if path.endswith(".py") and _PL_IMPORT.search(text):
        return "pl"
    return None


def imports_pl(data: bytes) -> bool:
    """Whether the raw bytes of a Python file import ``pypto.language`` (as ``language_of``
    reads its text)."""
    return _PL_IMPORT_BYTES.search(data) is not None


def is_hlo_file(path: str, data: bytes) -> bool:
    """Whether the raw bytes of a ``.hlo``/``.txt`` file are HLO text (as ``language_of``
    reads its text)."""
    return path.endswith(HLO_SUFFIXES) or _HLO_HEADER_BYTES.match(data) is not None


def is_hlo_proto(path: str) -> bool:
    """Whether ``path`` names an HLO protocol buffer (``HLO_PROTO_SUFFIXES``)."""
    return path.endswith(HLO_PROTO_SUFFIXES)


def is_bytecode_file(path: str) -> bool:
    """Whether ``path`` names MLIR bytecode (``BYTECODE_SUFFIXES``)."""
    return path.endswith(BYTECODE_SUFFIXES)


def is_binary(path: str) -> bool:
    """Whether ``path`` names a file passlint reads as bytes, which has no lines of its own
    (an HLO proto; MLIR bytecode, whose findings are in the text jaxlib prints of it)."""
    return is_hlo_proto(path) or is_bytecode_file(path)
