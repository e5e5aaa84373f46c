"""Long statements whose lists repeat the same entry: parse each distinct entry once.

A model's @main can take thousands of arguments (``%arg0: tensor<256xf32>, ...``): one
statement of ~40,000 tokens, ~0.3 s for the LALR parser alone. The grammar's lists are
context-free (`entry (COMMA entry)*`, or item sequences split at commas), so an entry parses
the same wherever it stands. ``compress`` keeps the first entry of every distinct kind sequence
in each long list and drops the rest; the parser reads the short statement, and ``expand``
maps its template back, copying what lies in a kept entry onto every entry it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from passlint.analysis.mlir.template import Argument, Entry, StatementError, Template

_OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LANGLE": "RANGLE", "LBRACE": "RBRACE"}
MIN_TOKENS = 400  # shorter statements parse fast enough as they are
MIN_ENTRIES = 16  # shorter lists are left alone

Span = tuple[int, int]


@dataclass(frozen=True)
class Compression:
    kinds: tuple[str, ...]  # the short statement
    kept: tuple[int, ...]  # real index of each short-statement token
    copies: dict[int, tuple[int, ...]]  # short index -> real indices of its dropped twins

    def all(self, index: int) -> list[int]:
        """Every real index a short-statement index stands for, in textual order."""
        return [self.kept[index], *self.copies.get(index, ())]

    def expand(self, found: Template | StatementError) -> Template | StatementError:
        if isinstance(found, StatementError):
            index = self.kept[found.index] if found.index < len(self.kept) else len(self.kinds)
            return replace(found, index=index)
        one = self.kept.__getitem__
        return replace(
            found,
            results=tuple((one(v), one(c) if c >= 0 else -1) for v, c in found.results),
            name=one(found.name) if found.name >= 0 else -1,
            operands=self._indices(found.operands),
            arguments=tuple(
                sorted(
                    (
                        Argument(v, t, argument.list_no)
                        for argument in found.arguments
                        for v, t in self._with_spans(argument.value, argument.type)
                    ),
                    key=lambda argument: argument.value,
                )
            ),
            bindings=self._indices(found.bindings),
            regions=self._indices(found.regions),
            groups=tuple((kind, (one(a), one(b))) for kind, (a, b) in found.groups),
            entries=tuple(
                sorted(
                    (
                        Entry(entry.group, key, value)
                        for entry in found.entries
                        for key, value in self._with_spans(entry.key, entry.value)
                    ),
                    key=lambda entry: entry.key,
                )
            ),
            types=tuple(sorted(span for a, b in found.types for span in self._spans((a, b)))),
            colon=one(found.colon) if found.colon >= 0 else -1,
            arrow=one(found.arrow) if found.arrow >= 0 else -1,
            location=None
            if found.location is None
            else (one(found.location[0]), one(found.location[1])),
            symbols=self._indices(found.symbols),
            words=self._indices(found.words),
        )

    def _indices(self, indices: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(real for index in indices for real in self.all(index)))

    def _with_spans(self, index: int, span: Span | None) -> list[tuple[int, Span | None]]:
        """An index and a span of the same entry, on that entry and each of its twins."""
        indices = self.all(index)
        spans: list[Span | None] = [span] * len(indices)
        if span is not None and len(twins := self._spans(span)) == len(indices):
            spans = list(twins)
        return list(zip(indices, spans, strict=True))

    def _spans(self, span: Span) -> list[Span]:
        """A span inside one kept entry, on that entry and each of its twins."""
        starts, ends = self.all(span[0]), self.all(span[1])
        if len(starts) != len(ends):  # the span crosses a list: it stands once
            return [(starts[0], ends[-1])]
        return list(zip(starts, ends, strict=True))


def compress(kinds: tuple[str, ...]) -> Compression | None:
    """The statement with repeated entries of its long lists dropped, or None."""
    if len(kinds) < MIN_TOKENS:
        return None
    partner = _partners(kinds)
    if partner is None:
        return None
    dropped: dict[int, int] = {}  # first real index of a dropped entry -> its kept twin's
    entry_end: dict[int, int] = {}  # first index of an entry -> its last index
    index = 0
    while index < len(kinds):
        close = partner.get(index, -1)
        if close <= index:
            index += 1
            continue
        entries = _entries(kinds, partner, index, close)
        if len(entries) < MIN_ENTRIES:
            index += 1  # look inside
            continue
        first_of: dict[tuple[str, ...], int] = {}
        for start, end in entries:
            entry_end[start] = end
            shape = kinds[start : end + 1]
            if shape in first_of:
                dropped[start] = first_of[shape]
            else:
                first_of[shape] = start
        index = close + 1
    if not dropped:
        return None
    kept: list[int] = []
    twins: dict[int, list[int]] = {}  # real index in a kept entry -> real indices of twins
    index = 0
    while index < len(kinds):
        if index + 1 in dropped and kinds[index] == "COMMA":
            start = index + 1
            twin = dropped[start]
            for offset in range(entry_end[start] - start + 1):
                twins.setdefault(twin + offset, []).append(start + offset)
            index = entry_end[start] + 1
            continue
        kept.append(index)
        index += 1
    short = {real: short for short, real in enumerate(kept)}
    copies = {short[real]: tuple(others) for real, others in twins.items()}
    return Compression(tuple(kinds[i] for i in kept), tuple(kept), copies)


def _partners(kinds: tuple[str, ...]) -> dict[int, int] | None:
    """Matching bracket indices (both ways), or None when the brackets do not balance."""
    partner: dict[int, int] = {}
    stack: list[int] = []
    for index, kind in enumerate(kinds):
        if kind in _OPEN:
            stack.append(index)
        elif kind in ("RPAR", "RSQB", "RANGLE", "RBRACE"):
            if not stack or _OPEN[kinds[stack[-1]]] != kind:
                return None
            opener = stack.pop()
            partner[opener] = index
            partner[index] = opener
    return partner if not stack else None


def _entries(
    kinds: tuple[str, ...], partner: dict[int, int], open_: int, close: int
) -> list[tuple[int, int]]:
    """[first, last] token index of each comma-separated entry between two brackets."""
    entries: list[tuple[int, int]] = []
    start = open_ + 1
    index = start
    while index < close:
        if kinds[index] == "COMMA":
            if index > start:
                entries.append((start, index - 1))
            else:
                return []  # an empty entry: leave the list as it is
            start = index + 1
        elif index in partner and partner[index] > index:
            index = partner[index]
        index += 1
    if start < close:
        entries.append((start, close - 1))
    return entries
