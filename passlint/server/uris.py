"""What file of this machine a document's or a workspace folder's URI names.

A ``file:`` URI whose path this file system can hold names that file, by its real path. Any
other document (``untitled:``, a notebook cell, another scheme, a relative ``file:x.py``, a
path holding a NUL or a lone surrogate, a name longer than the file system allows) lives in
the editor only: its path is its URI, which is never absolute, so nothing looks for it, its
folder, its project or its settings on disk (``on_disk``), and it is no file of any
workspace.

A document of the ``passlint-mlirbc:`` scheme (``BYTECODE_SCHEME``) is the MLIR text of a
bytecode file, shown by an editor (the VS Code extension's view of a ``.mlirbc`` file): its
path is its URI with ``.mlir`` added, so it is analysed as MLIR; it too is no file.
"""

from __future__ import annotations

import errno
import os
from urllib.parse import quote

from pygls.uris import to_fs_path

BYTECODE_SCHEME = "passlint-mlirbc"


def _usable(uri: str) -> str | None:
    """The absolute path a ``file:`` URI names, if this file system can hold it."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if not path or not os.path.isabs(path) or "\0" in path:
        return None
    try:
        os.lstat(path)
    except UnicodeEncodeError:  # a lone surrogate: no name of this file system
        return None
    except OSError as error:
        if error.errno == errno.ENAMETOOLONG:
            return None
    return path


def document_path(uri: str) -> str:
    """The real path of the file a document's URI names, else the URI itself (written in
    ASCII: a character no file name can hold, a NUL or a lone surrogate, percent-encoded)."""
    path = _usable(uri)
    if path is not None:
        return os.path.realpath(path)
    written = quote(uri, _URI_CHARACTERS, errors="surrogatepass")
    return written + ".mlir" if is_bytecode_view(uri) else written


def is_bytecode_view(uri: str) -> bool:
    """Is ``uri`` a document showing a bytecode file's MLIR text (``BYTECODE_SCHEME``)?"""
    return uri.startswith(BYTECODE_SCHEME + ":")


def file_uri_of(uri: str) -> str:
    """The ``file:`` URI of the bytecode file a ``BYTECODE_SCHEME`` view shows (its path);
    any other URI as it is."""
    return "file:" + uri[len(BYTECODE_SCHEME) + 1 :] if is_bytecode_view(uri) else uri


# What a URI may hold as it is (RFC 3986's reserved characters, and ``%``).
_URI_CHARACTERS = ":/?#[]@!$&'()*+,;=%~"


def folder_path(uri: str) -> str | None:
    """The real path of a workspace folder's URI (None: no folder of this file system)."""
    path = _usable(uri)
    return os.path.realpath(path) if path is not None else None


def on_disk(path: str) -> bool:
    """Is ``path`` (a ``document_path``) a file of this machine?"""
    return os.path.isabs(path)
