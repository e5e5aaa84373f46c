"""Mutations of a text, driven by a ``Chooser``: hypothesis' draws in the property tests
(fuzz_gen.mutated), a seeded ``random.Random`` in the CI fuzz target (target.py), so both
make the same kinds of change with one implementation.

The classic kinds cut ranges (delete, duplicate, flip a character, truncate, splice from
another seed); the shapes of issue 25 add byte flips, token deletion, insertion and
duplication, line splicing between seeds, CR / CRLF line ends and BOMs, and long runs of one
character or one token (the inputs that once cost quadratic time).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")

MAX_LENGTH = 100_000  # characters: mutants stay below the fuzz checks' size for time bounds

INTERESTING: list[str] = [
    *"{}()[]<>%@#^\"'\\:,=-.;\n\r\t 0x9_?!*",
    "é",
    "\U0001d54f",
    "\x00",
    "\u2028",
    "\ufeff",
]
# Characters and tokens whose long runs once cost quadratic time (blanks in an attribute
# dictionary, `%0`, `"\`, split markers) or an exception (integers of 4,300+ digits).
RUN_CHARACTERS: list[str] = [*' \t\n\r%"\\({[<#/09-,x', "é"]
RUN_TOKENS = ["%0 ", "%0", '"\\', "// -----\n", "{a = 1, ", "(", "[1, ", "pl.", "x * ", "\\\n"]
RUN_LENGTHS = [64, 500, 2_000, 8_000]


class Chooser(Protocol):
    """Where a mutation's choices come from."""

    def integer(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``."""
        ...

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``."""
        ...

    def character(self) -> str:
        """A character to put in: often an interesting one, else any character."""
        ...


class SeededChoices:
    """Choices from ``random.Random(seed)``: the same seed, the same mutant."""

    def __init__(self, seed: str) -> None:
        self.random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def pick(self, options: Sequence[T]) -> T:
        return self.random.choice(options)

    def character(self) -> str:
        if self.random.random() < 0.5:
            return self.random.choice(INTERESTING)
        while True:  # any code point but a surrogate (which no file can hold)
            value = self.random.choice([0x7F, 0x7FF, 0xFFFF, 0x10FFFF])
            char = chr(self.random.randint(0, value))
            if not 0xD800 <= ord(char) <= 0xDFFF:
                return char


# -- the classic kinds: a range [a, b) of the text -----------------------------------------

Ranged = Callable[[str, int, int, Sequence[str], Chooser], str]


def _delete(text: str, a: int, b: int, corpus: Sequence[str], choose: Chooser) -> str:
    return text[:a] + text[b:]


def _duplicate(text: str, a: int, b: int, corpus: Sequence[str], choose: Chooser) -> str:
    return text[:b] + text[a:b] + text[b:]


def _flip(text: str, a: int, b: int, corpus: Sequence[str], choose: Chooser) -> str:
    return text[:a] + choose.character() + text[a + 1 :]


def _truncate(text: str, a: int, b: int, corpus: Sequence[str], choose: Chooser) -> str:
    return text[:a]


def _splice(text: str, a: int, b: int, corpus: Sequence[str], choose: Chooser) -> str:
    other = choose.pick(corpus)
    c = choose.integer(0, len(other))
    d = choose.integer(c, min(len(other), c + 400))
    return text[:a] + other[c:d] + text[b:]


_RANGED: dict[str, Ranged] = {
    "delete": _delete,
    "duplicate": _duplicate,
    "flip": _flip,
    "truncate": _truncate,
    "splice": _splice,
}

# -- the shapes of issue 25 ----------------------------------------------------------------

Shaped = Callable[[str, Sequence[str], Chooser], str]

# A rough token of either language: strings, SSA names, symbols, words, numbers, comments,
# blank runs, any other character.
_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"?|%[\w$.#-]*|@[\w$.]+|[A-Za-z_][\w.$]*|\d+|//[^\n]*|#[^\n]*|\s+|.',
    re.S,
)


def _tokens(text: str) -> list[tuple[int, int]]:
    return [match.span() for match in _TOKEN.finditer(text)]


def _byte_flip(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    if not data:
        return text
    data[choose.integer(0, len(data) - 1)] ^= 1 << choose.integer(0, 7)
    return data.decode("utf-8", "replace")  # what an editor holds of such a file


def _token_delete(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    spans = _tokens(text)
    if not spans:
        return text
    start, end = choose.pick(spans)
    return text[:start] + text[end:]


def _token_duplicate(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    spans = _tokens(text)
    if not spans:
        return text
    start, end = choose.pick(spans)
    return text[:end] + text[start:end] + text[end:]


def _token_insert(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    other = choose.pick(corpus)
    donors = _tokens(other)
    if not donors:
        return text
    start, end = choose.pick(donors)
    at = choose.pick([0, *(span[1] for span in _tokens(text))])
    return text[:at] + other[start:end] + text[at:]


def _line_splice(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    lines = text.splitlines(keepends=True)
    other = choose.pick(corpus).splitlines(keepends=True)
    c = choose.integer(0, len(other))
    d = choose.integer(c, min(len(other), c + 20))
    a = choose.integer(0, len(lines))
    b = choose.integer(a, min(len(lines), a + 3))
    return "".join(lines[:a] + other[c:d] + lines[b:])


def _line_ends(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    form = choose.pick(["cr", "crlf", "one cr", "one crlf", "mixed"])
    if form == "cr":
        return text.replace("\r\n", "\n").replace("\n", "\r")
    if form == "crlf":
        return text.replace("\r\n", "\n").replace("\n", "\r\n")
    lines = text.split("\n")
    at = choose.integer(0, len(lines) - 1)
    if form == "mixed":
        return "\n".join(line + "\r" if i % 2 == at % 2 else line for i, line in enumerate(lines))
    if form == "one cr" and at:  # a lone CR instead of the line end before line `at`
        return "\n".join(lines[:at]) + "\r" + "\n".join(lines[at:])
    lines[at] += "\r"  # a CR before line `at`'s end: a CRLF among LFs (or a trailing CR)
    return "\n".join(lines)


def _bom(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    at = 0 if choose.integer(0, 3) else choose.integer(0, len(text))
    return text[:at] + "\ufeff" + text[at:]


def _run(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    unit = choose.pick(RUN_CHARACTERS)
    at = choose.integer(0, len(text))
    return text[:at] + unit * choose.pick(RUN_LENGTHS) + text[at:]


def _token_run(text: str, corpus: Sequence[str], choose: Chooser) -> str:
    spans = _tokens(text)
    if spans and choose.integer(0, 1):
        start, end = choose.pick(spans)
        unit = text[start:end]
    else:
        unit = choose.pick(RUN_TOKENS)
    at = choose.integer(0, len(text))
    count = max(1, choose.pick(RUN_LENGTHS) // max(1, len(unit)))
    return text[:at] + unit * count + text[at:]


_SHAPED: dict[str, Shaped] = {
    "byte flip": _byte_flip,
    "token delete": _token_delete,
    "token duplicate": _token_duplicate,
    "token insert": _token_insert,
    "line splice": _line_splice,
    "line ends": _line_ends,
    "bom": _bom,
    "run": _run,
    "token run": _token_run,
}

# fuzz_gen's property tests draw these (flip twice as often); the CI target adds the shapes.
CLASSIC = ("delete", "duplicate", "flip", "truncate", "splice", "flip")
ALL_KINDS = (*CLASSIC, *_SHAPED, "run", "token run")


def mutate_once(text: str, corpus: Sequence[str], choose: Chooser, kinds: Sequence[str]) -> str:
    """``text`` changed once, by a kind chosen from ``kinds``; ``corpus`` gives splices."""
    kind = choose.pick(kinds)
    if kind in _SHAPED:
        return _SHAPED[kind](text, corpus, choose)
    size = len(text)
    a = choose.integer(0, size)
    b = choose.integer(a, min(size, a + choose.pick([1, 3, 20, 200, 5000])))
    return _RANGED[kind](text, a, b, corpus, choose)
