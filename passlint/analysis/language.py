"""Which pass reads a document: a ``.mlir`` file is MLIR; a ``.py`` file is a pl source when
a line of it imports ``pypto.language``.

A line starts where CPython's tokenizer starts one: after ``\\n``, ``\\r\\n`` or a lone ``\\r``,
and the first line may open with a UTF-8 byte order mark. The same rule reads the decoded
text (the pipeline) and the raw bytes (a batch check, which skips other Python files unread).
"""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["mlir", "pl"]

_IMPORT = (
    r"(?:^|(?<=\r))BOM?[ \t\f]*"  # (blanks within a line: a run of blank lines costs linear time)
    r"(?:import\s+pypto\.language\b|from\s+pypto(?:\.language)?\s+import\b)"
)
_PL_IMPORT = re.compile(_IMPORT.replace("BOM", "\ufeff"), re.MULTILINE)
_PL_IMPORT_BYTES = re.compile(_IMPORT.replace("BOM", "(?:\xef\xbb\xbf)").encode("latin-1"), re.M)


def language_of(path: str, text: str) -> Language | None:
    """``mlir`` for .mlir files, ``pl`` for Python files importing pypto.language, else None."""
    if path.endswith(".mlir"):
        return "mlir"
    if path.endswith(".py") and _PL_IMPORT.search(text):
        return "pl"
    return None


def imports_pl(data: bytes) -> bool:
    """Whether the raw bytes of a Python file import ``pypto.language`` (as ``language_of``
    reads its text)."""
    return _PL_IMPORT_BYTES.search(data) is not None
