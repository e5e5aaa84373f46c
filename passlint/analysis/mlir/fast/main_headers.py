"""@main's header op, kept by the header's text and place (``main_outline``).

An edit in @main's body, the usual case in an editor, finds the 4,000-argument header
parsed. Why the same IR: the header op is parsed from the header's text alone (with a
closing brace, or the generic form's closing line, after it), at the header's offsets; the
outline strips what an earlier outline added to it (uses, the body) before it is used, and
the ``stamp`` (the generic form's closing line and where it stands) must match too.
"""

from __future__ import annotations

from collections.abc import Callable

from passlint.analysis.mlir.ir import Operation

# The header's offset and text, and the arguments it was read for when only some are.
Key = tuple[int, str, frozenset[str] | None]
Stamp = tuple[int, str] | None  # what else the op was parsed from
Headers = dict[Key, tuple[Stamp, Operation | None]]
LIMIT = 4  # headers kept (past it, they start afresh)


def remembered(
    headers: Headers, key: Key, stamp: Stamp, build: Callable[[], Operation | None]
) -> Operation | None:
    """The op ``build`` gives for ``key`` and ``stamp``, kept in ``headers`` (a memo's)."""
    found = headers.get(key)
    if found is None or found[0] != stamp:
        if len(headers) >= LIMIT:
            headers.clear()
        found = (stamp, build())
        headers[key] = found
    return found[1]
