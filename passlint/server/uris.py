"""What file of this machine a document's or a workspace folder's URI names.

A ``file:`` URI whose path this file system can hold names that file, by its real path. Any
other document (``untitled:``, a notebook cell, another scheme, a relative ``file:x.py``, a
path holding a NUL or a lone surrogate, a name longer than the file system allows) lives in
the editor only: its path is its URI, which is never absolute, so nothing looks for it, its
folder, its project or its settings on disk (``on_disk``), and it is no file of any
workspace.
"""

from __future__ import annotations

import errno
import os
from urllib.parse import quote

from pygls.uris import to_fs_path


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
    return (
        os.path.realpath(path)
        if path is not None
        else quote(uri, _URI_CHARACTERS, errors="surrogatepass")
    )


# What a URI may hold as it is (RFC 3986's reserved characters, and ``%``).
_URI_CHARACTERS = ":/?#[]@!$&'()*+,;=%~"


def folder_path(uri: str) -> str | None:
    """The real path of a workspace folder's URI (None: no folder of this file system)."""
    path = _usable(uri)
    return os.path.realpath(path) if path is not None else None


def on_disk(path: str) -> bool:
    """Is ``path`` (a ``document_path``) a file of this machine?"""
    return os.path.isabs(path)
