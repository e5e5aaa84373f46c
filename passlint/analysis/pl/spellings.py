"""Where a text spells a name: the offsets of the word, not after a word character or a dot
(a name, a keyword or a definition's name; never an attribute). The first few names asked
about are searched for one by one; then every word is listed in one pass (a module may
hold thousands of names that are asked about: one search each would cost their number
times the text). Only a text whose names are spelled as CPython reads them
(``Module.names_as_written``) tells where its names are."""

from __future__ import annotations

import re

ONE_BY_ONE = 8  # names searched for one by one before every word is listed
_WORD = re.compile(r"(?<![\w.])\w+")
_WORD_OR_DOT = re.compile(r"[\w.]")


class Spellings:
    """The offsets at which one text spells each name asked about."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._asked = 0
        self._words: dict[str, list[int]] | None = None  # every word's offsets, once listed

    def of(self, name: str) -> list[int]:
        """The offsets of ``name``'s spellings, ascending."""
        text = self.text
        self._asked += 1
        if self._words is None and self._asked > ONE_BY_ONE:
            self._words = {}
            for match in _WORD.finditer(text):
                self._words.setdefault(match.group(), []).append(match.start())
        if self._words is not None and _WORD.fullmatch(name):
            return self._words.get(name, [])
        # (a pattern that starts with the name is searched for at memchr's speed)
        pattern = re.compile(re.escape(name) + r"(?!\w)")
        return [
            at
            for at in (match.start() for match in pattern.finditer(text))
            if not at or _WORD_OR_DOT.match(text, at - 1) is None
        ]
