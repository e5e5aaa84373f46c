"""An op from a one-line statement's shape and the line's own SSA names, without cutting the
line into tokens.

Why the same IR: the line's shape has the line's token kinds (``lines``), so the shape's
template is the line's; the template's token positions of SSA values are read from the
line's own SSA names, in order (a count that differs, from a ``%`` in a string, gives
None: the line is tokenized then), and the op's name from the text after its results.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from passlint.analysis.mlir.fast.lines import ssa_matches
from passlint.analysis.mlir.ir import Operation, group_names, group_size, match_name, new_operation

if TYPE_CHECKING:
    from passlint.analysis.mlir.structure import LineStatement

_COUNT = re.compile(r"\s*:\s*(\d+)")


def line_operation(
    text: str, line: LineStatement, shared: Callable[[str], str]
) -> Operation | None:
    """The op of ``line``, its names made by ``shared``; None when the names do not line
    up with its shape."""
    shape = line.shape
    template = shape.template
    assert template is not None
    matches = ssa_matches(text, line.start, line.end)
    if len(matches) != shape.values:
        return None
    value_at = dict(zip(shape.value_tokens, matches, strict=True))
    after = matches[len(template.results) - 1].end() if template.results else line.start
    name_match = match_name(text, after, template.generic)
    if name_match is None:
        return None
    results: list[tuple[str, int]] = []
    for value_index, count_index in template.results:
        match = value_at[value_index]
        count_match = _COUNT.match(text, match.end()) if count_index >= 0 else None
        if count_match is None:
            results.append((shared(match.group()), match.start()))
        else:
            names = group_names(shared(match.group()), group_size(count_match.group(1)))
            results += [(name, match.start()) for name in names]
    uses = [(shared(value_at[i].group()), value_at[i].start()) for i in template.operands]
    name = shared(name_match.group(1))
    return new_operation(name, (line.start, line.end), text, None, template, results, uses)
