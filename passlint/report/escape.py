"""How file names and messages are written into each kind of output, so any name and any
message can be shown (none crashes a renderer) and none can steer a terminal.

Terminal text (``terminal_safe``) writes every character a terminal could act on, or that
would make the line read differently from what it holds, as a visible escape:

- ``\\t``, ``\\n``, ``\\r``; any other C0 control and DEL as ``\\x1b`` (the code point);
- a byte of a file name that is not UTF-8 (Python holds it as a surrogate escape,
  U+DC80 to U+DCFF) as ``\\xff``: the byte, always 80 or above;
- every other control, format character (bidi overrides such as U+202E, zero-width
  characters, the BOM), line or paragraph separator (U+2028, U+2029) and lone surrogate as
  ``\\u202e`` (``\\U000e0041`` beyond the BMP); C1 controls too (``\\u009b``).

A file name (``terminal_name``) also has its backslashes doubled, so an escape in a name
reads one way only. Messages and source lines keep their backslashes as written: they
quote source text, where a backslash belongs to the language's own escapes.

Machine formats keep names and messages exact where their encoding can: JSON escapes
controls itself, and a name that is not UTF-8 (which no JSON string can hold) is shown with
``\\xff`` for its stray bytes (``readable_name``) beside its bytes percent-encoded as in a
URI (``percent_encoded``, RFC 3986), which SARIF's artifact URIs use too.
"""

from __future__ import annotations

import codecs
import os
import re
import unicodedata
from typing import TextIO
from urllib.parse import quote

# Unicode categories shown escaped: controls, format characters, surrogates, line and
# paragraph separators.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
# Everything but printable ASCII: the characters worth a look.
_CANDIDATE = re.compile(r"[^ -~]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _code_point(char: str) -> str:
    value = ord(char)
    if 0xDC80 <= value <= 0xDCFF:  # a byte that was not UTF-8
        return f"\\x{value - 0xDC00:02x}"
    if value < 0x80:
        return f"\\x{value:02x}"
    return f"\\u{value:04x}" if value <= 0xFFFF else f"\\U{value:08x}"


def _escaped(match: re.Match[str]) -> str:
    char = match[0]
    if char in _SHORT:
        return _SHORT[char]
    if char.isascii() or unicodedata.category(char) in _HIDDEN:
        return _code_point(char)
    return char


def terminal_safe(text: str, *, keep: str = "") -> str:
    """``text`` with every hidden or controlling character escaped (module docstring),
    except those in ``keep``: a format's own escapes carry them (GitHub's workflow
    commands have escapes for ``\\r`` and ``\\n``)."""
    if not keep:
        return _CANDIDATE.sub(_escaped, text)
    return _CANDIDATE.sub(lambda match: match[0] if match[0] in keep else _escaped(match), text)


def terminal_name(path: str) -> str:
    """A file name for a terminal: ``terminal_safe`` with its backslashes doubled."""
    return terminal_safe(path.replace("\\", "\\\\"))


def name_bytes(path: str) -> bytes:
    """The bytes a file name has on disk (``os.fsencode``); a lone surrogate that the file
    system's encoding cannot give back is kept as its UTF-8 form (``surrogatepass``)."""
    try:
        return os.fsencode(path)
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogatepass")


def is_undecodable(path: str) -> bool:
    """Whether the name holds bytes that are not UTF-8 (or lone surrogates)."""
    return _SURROGATE.search(path) is not None


def readable_name(path: str) -> str:
    """The name as valid Unicode: each byte that is not UTF-8 written ``\\xff`` (each other
    lone surrogate ``\\udXXX``), every other character kept."""
    return _SURROGATE.sub(lambda match: _code_point(match[0]), path)


def percent_encoded(path: str) -> str:
    """The name's bytes percent-encoded (RFC 3986; ``/`` kept): a URI path, ASCII only;
    ``urllib.parse.unquote_to_bytes`` gives the bytes back."""
    return quote(name_bytes(path))


def _escape_unencodable(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chars = error.object[error.start : error.end]
    return "".join(_code_point(char) for char in chars), error.end


_UNENCODABLE = "passlint.escape"
codecs.register_error(_UNENCODABLE, _escape_unencodable)


def for_encoding(text: str, encoding: str | None) -> str:
    """``text`` with each character ``encoding`` cannot write shown as ``\\u00e9`` (the
    terminal notation, never ``\\xe9``, which would read as a raw byte), so writing it never
    raises whatever ``PYTHONIOENCODING`` or the locale chose."""
    if not encoding:
        return text
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, _UNENCODABLE).decode(encoding)
    except LookupError:  # an encoding Python does not know: nothing to check against
        return text
    return text


def write_report(stream: TextIO, text: str) -> None:
    """Write ``text`` to ``stream`` in the stream's own encoding (``for_encoding``) and
    flush it."""
    stream.write(for_encoding(text, getattr(stream, "encoding", None)))
    stream.flush()


def write_exact(stream: TextIO, text: str) -> None:
    """Write a file's own text (a diff, a fixed file, a legalized module) as its UTF-8
    bytes whatever the stream's encoding: it must stay the text it is, never an escape."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a stream of text only (a test's StringIO)
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode("utf-8", "surrogateescape"))
    buffer.flush()
