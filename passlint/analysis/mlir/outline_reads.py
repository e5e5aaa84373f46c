"""What @main's outline (and the quick answer drawn from it) read of a text, so an edit that
reads none of it keeps the answer.

The outline reads a few whole lines closely (the header, the return and the lines around it,
the definitions of the returned values) and the rest of the text only through line-local
substring searches: chunk separators, other @main headers, ops of each dialect, and in
@main's body its braces, closing-brace lines and a few names. An edit keeps the answer when
it replaces none of the close lines and its old and new lines hold none of those substrings
(or, for the dialects, do not change which are present), as a search of the new text would
find. Offsets follow the edit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from passlint.analysis.text_change import TextChange

DIALECTS = ("stablehlo", "mhlo")
_LOST = -1  # a dialect's witness was replaced: search the final text again


def dialect_witness(text: str, dialect: str) -> int | None:
    """Where an op of ``dialect`` appears (``mhlo.copy`` aside: both variants insert it), or
    None.

    Ops are spelled after their results (``= d.op``, ``= "d.op"``) or, without results, as
    terminators (``d.return``); found with plain substring searches, each within one line.
    """
    name = f"{dialect}."
    at = text.find(name)  # one search: every needle holds the dialect's name
    while at >= 0:
        after = at + len(name)
        if text.startswith("return", after):
            return at
        if not text.startswith("copy", after):
            for before in ("= ", '= "'):
                if text.startswith(before, at - len(before)):
                    return at - len(before)
        at = text.find(name, after)
    return None


@dataclass(frozen=True)
class Reads:
    """Offsets are those of the text read; spans are whole lines ``[start, end]`` (``end``:
    the offset of the last line's line break, or the text end)."""

    spans: tuple[tuple[int, int], ...]  # lines read closely
    needles: frozenset[str]  # substrings that matter anywhere
    body: tuple[int, int]  # @main's body lines, where braces and ``names`` matter
    names: frozenset[str]
    witnesses: tuple[tuple[str, int | None], ...]  # per dialect: one op of it, or None

    @property
    def dialects(self) -> frozenset[str]:
        return frozenset(dialect for dialect, at in self.witnesses if at is not None)

    def watching(self, needle: str) -> Reads:
        """These reads, and a substring that matters anywhere."""
        return replace(self, needles=self.needles | {needle})

    def after(self, change: TextChange) -> Reads | None:
        """The same reads in the changed text, or None when the change may alter what they
        found."""
        old, new = change.old, change.new
        if any(change.touches(*span) for span in self.spans):
            return None
        if any(needle in old or needle in new for needle in self.needles):
            return None
        if change.touches(*self.body) and not _keeps_body(change, self.names):
            return None
        witnesses = []
        for dialect, at in self.witnesses:
            found = dialect_witness(new, dialect)
            if at is None and found is not None:
                return None  # a dialect appears: the variant may change
            if at is not None and at != _LOST and change.touches(at, at):
                at = _LOST if found is None else change.start + found
            elif at is not None and at != _LOST:
                at = change.moved(at)
            witnesses.append((dialect, at))
        return Reads(
            tuple((change.moved(start), change.moved(end)) for start, end in self.spans),
            self.needles,
            (change.moved(self.body[0]), change.moved(self.body[1])),
            self.names,
            tuple(witnesses),
        )

    def settled(self, text: str) -> Reads | None:
        """After the changes that made ``text``: dialects whose witness was replaced are
        searched again; None when one is gone."""
        if all(at != _LOST for _, at in self.witnesses):
            return self
        witnesses = []
        for dialect, at in self.witnesses:
            if at == _LOST:
                at = dialect_witness(text, dialect)
                if at is None:
                    return None
            witnesses.append((dialect, at))
        return replace(self, witnesses=tuple(witnesses))


def _keeps_body(change: TextChange, names: frozenset[str]) -> bool:
    """Does a change inside @main's body keep its brace balance, its closing lines and the
    lines that hold ``names``?"""
    old, new = change.old, change.new
    if old.count("{") - old.count("}") != new.count("{") - new.count("}"):
        return False
    if any(name in old or name in new for name in names):
        return False
    lines = (*old.split("\n"), *new.split("\n"))
    return not any(line.lstrip().startswith("}") for line in lines)
