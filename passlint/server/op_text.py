"""What one op's text says, read when a hover asks (the index keeps spans, not strings):
its result names, the types its signature spells, a function's signature, the type written
after a block argument, and the op on one line, shortened.

Everything is read from the op's own tokens (``lexer.tokenize``: one compiled expression,
linear in the op's text), never by parsing the document again. Types come from the op's
text as MLIR prints them: ``: (T1, T2) -> U`` and ``: T1 to U`` name operand and result
types; a lone ``: T`` is the type of every result (constants, same-type ops such as
``stablehlo.add``), except where it is plainly an operand's (``tensor.extract %t[%i] : T``)
or a comparison's (``arith.cmpi``); what the text does not say is left unknown (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from passlint.analysis.mlir.lexer import Tok, statement_tokens, tokenize

Span = tuple[int, int]

LINE = 160  # characters of an op shown on one line, at most (then shortened)
TOKEN = 48  # characters of one token shown (a hex blob, a long string), at most
_WINDOWS = (256, 1 << 12, 1 << 16)  # characters read after a block argument for its type

_OPEN = frozenset(("LPAR", "LSQB", "LANGLE", "LBRACE"))
_CLOSE = frozenset(("RPAR", "RSQB", "RANGLE", "RBRACE"))
_REGION = "{...}"  # how a region is shown


@dataclass(frozen=True)
class OpReading:
    """An op as its text spells it (``None``: not written there)."""

    results: list[str]  # result names, a group expanded (``%0#0``, ``%0#1``)
    line: str  # the op on one line, regions as ``{...}``, shortened to ``LINE``
    # one per operand, when the signature lists them in their order (the generic form: a
    # custom form may list them otherwise, as ``stablehlo.reduce`` lists inputs, then inits)
    operand_types: list[str] | None
    result_types: list[str | None]  # one per result
    types: list[str]  # the types after ``:`` when there is no ``->`` (``while`` arguments)


def read_op(
    text: str, span: Span, name_start: int, regions: Sequence[Span], operands: int
) -> OpReading:
    """The op written at ``span`` (its trailing location left out), whose name starts at
    ``name_start``, with ``regions`` (spans, in order) and ``operands`` uses in its header."""
    toks = _without_locations(text, statement_tokens(text, span[0], span[1], regions))
    name = next((i for i, tok in enumerate(toks) if tok.end > name_start), len(toks))
    signature = _Signature(text, toks, name)
    results = _results(text, toks[:name])
    generic = name < len(toks) and toks[name].kind == "STRING"
    return OpReading(
        results,
        _one_line(text, toks, signature.colon),
        signature.operand_types(operands) if generic else None,
        signature.result_types(len(results), _op_name(text, toks, name)),
        signature.plain or [],
    )


def function_type(text: str, header: Span, name_start: int) -> str | None:
    """A function's signature ``(T1, T2) -> U`` from its header (``header``: from the op's
    start to its body): the pretty ``@f(%a: T1 {attrs}, ...) -> (U {attrs})`` or the
    generic ``function_type = ...`` property."""
    toks = _without_locations(text, tokenize(text, header[0], header[1]))
    toks = [tok for tok in toks if tok.kind != "NL"]
    at = next((i for i, tok in enumerate(toks) if tok.end > name_start), len(toks))
    for i in range(at, len(toks) - 2):
        if _word(text, toks[i]) == "function_type" and toks[i + 1].kind == "EQUAL":
            return _joined(text, _entry(toks, i + 2))
    opening = next((i for i in range(at, len(toks)) if toks[i].kind == "LPAR"), None)
    if opening is None or not any(tok.kind == "SYMBOL" for tok in toks[at:opening]):
        return None
    closing = _closing(toks, opening)
    arguments = [_joined(text, _cleaned(e)) for e in _split(toks[opening + 1 : closing])]
    signature = "(" + ", ".join(arguments) + ") -> "
    rest = toks[closing + 1 :]
    if not rest or rest[0].kind != "ARROW":
        return signature + "()"
    after = rest[1:]
    listed = _type_list(text, after[: _results_end(text, after)])
    if len(listed) == 1 and not (after and after[0].kind == "LPAR"):
        return signature + listed[0]
    return signature + "(" + ", ".join(listed) + ")"


def argument_type(text: str, name_end: int, limit: int) -> str | None:
    """The type written after a block argument's name (``%x: T``), read up to ``limit``
    (in growing windows: a function header can hold thousands of arguments)."""
    for window in _WINDOWS:
        end = min(limit, name_end + window)
        toks = [tok for tok in tokenize(text, name_end, end) if tok.kind != "NL"]
        if not toks or toks[0].kind != "COLON":
            return None
        depth = 0
        for i in range(1, len(toks) - (end < limit)):  # (the last token may be cut)
            tok = toks[i]
            if depth == 0 and (
                tok.kind in ("COMMA", "RPAR", "LBRACE", "EQUAL") or _word(text, tok) == "loc"
            ):
                return _joined(text, toks[1:i]) or None
            depth = max(0, depth + _step(tok))
        if end == limit:
            return _joined(text, toks[1:]) or None
    return None


# -- reading tokens -------------------------------------------------------------------------------


class _Signature:
    """The types after the op's last top-level ``:`` (or, without one, after its ``->``)."""

    def __init__(self, text: str, toks: list[Tok], name: int) -> None:
        self.text = text
        self.colon = -1
        self.before: list[str] | None = None
        self.after: list[str] | None = None
        self.plain: list[str] | None = None
        self.indexing = False  # an operand indexed (``%t[%i]``) before the ``:``
        depth, arrow = 0, -1
        previous: Tok | None = None
        for i in range(name, len(toks)):
            tok = toks[i]
            if depth == 0 and tok.kind == "COLON":
                self.colon = i
            elif depth == 0 and tok.kind == "ARROW" and arrow < 0 and self.colon < 0:
                arrow = i
            if tok.kind == "LSQB" and previous is not None and previous.kind == "VALUE_ID":
                self.indexing = self.indexing or previous.end == tok.start
            depth = max(0, depth + _step(tok))
            previous = tok
        if self.colon >= 0:
            self._read(toks[self.colon + 1 : _region_cut(text, toks, self.colon + 1)])
        elif arrow >= 0:
            after = toks[arrow + 1 :]
            self.after = _type_list(text, after[: _results_end(text, after)])

    def _read(self, toks: list[Tok]) -> None:
        depth = 0
        for i, tok in enumerate(toks):
            if depth == 0 and (tok.kind == "ARROW" or _word(self.text, tok) == "to"):
                self.before = _type_list(self.text, toks[:i])
                self.after = _type_list(self.text, toks[i + 1 :])
                return
            depth = max(0, depth + _step(tok))
        self.plain = _type_list(self.text, toks)

    def operand_types(self, operands: int) -> list[str] | None:
        if self.before is not None and len(self.before) == operands:
            return self.before
        return None

    def result_types(self, results: int, name: str) -> list[str | None]:
        listed: list[str] | None = self.after
        if listed is None and self.plain is not None:
            word = name.rsplit(".", 1)[-1]
            same = len(self.plain) == 1 and not self.indexing and not word.startswith("cmp")
            listed = self.plain * results if same else self.plain if len(self.plain) > 1 else None
        if listed is None or len(listed) != results:
            return [None] * results
        return list(listed)


def _results(text: str, toks: list[Tok]) -> list[str]:
    """The names a result list defines (``%0:2`` is ``%0#0``, ``%0#1``)."""
    names: list[str] = []
    for i, tok in enumerate(toks):
        if tok.kind != "VALUE_ID":
            continue
        name = text[tok.start : tok.end]
        count = 1
        if i + 2 < len(toks) and toks[i + 1].kind == "COLON" and toks[i + 2].kind == "INT":
            digits = text[toks[i + 2].start : toks[i + 2].end]
            count = int(digits) if digits.isdigit() and len(digits) < 5 else 1
        names.extend([name] if count == 1 else [f"{name}#{k}" for k in range(count)])
    return names


def _op_name(text: str, toks: list[Tok], name: int) -> str:
    if name >= len(toks):
        return ""
    return text[toks[name].start : toks[name].end].strip('"')


def _without_locations(text: str, toks: list[Tok]) -> list[Tok]:
    """``toks`` without ``loc(...)`` (an op's, an argument's): what the hover leaves out."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if (
            tok.kind == "BARE_ID"
            and i + 1 < len(toks)
            and toks[i + 1].kind == "LPAR"
            and _word(text, tok) == "loc"
        ):
            i = _closing(toks, i + 1) + 1
            continue
        out.append(tok)
        i += 1
    return out


def _region_cut(text: str, toks: list[Tok], start: int) -> int:
    """Where the signature that starts at ``start`` ends: at the first region, before the
    words and argument lists that lead into it (``cond {``, ``reducer(%a: T) {``)."""
    region = next((i for i in range(start, len(toks)) if toks[i].kind == "REGION"), len(toks))
    if region == len(toks):
        return region
    cut = region
    while True:
        i = cut - 1
        while i >= start and toks[i].kind == "RPAR":  # argument lists: skip back over them
            opening = _opening(toks, i, start)
            if opening < 0:
                return cut
            i = opening - 1
        if i >= start and toks[i].kind == "BARE_ID":
            cut = i
        else:
            return cut


def _results_end(text: str, toks: list[Tok]) -> int:
    """Where the result types after ``->`` end: at a top-level region, ``{`` or
    ``attributes``."""
    depth = 0
    for i, tok in enumerate(toks):
        if depth == 0 and (tok.kind in ("REGION", "LBRACE") or _word(text, tok) == "attributes"):
            return i
        depth = max(0, depth + _step(tok))
    return len(toks)


def _type_list(text: str, toks: list[Tok]) -> list[str]:
    """The entries of a type list, ``(T1, T2)`` or ``T1, T2``, each on one line."""
    if toks and toks[0].kind == "LPAR" and _closing(toks, 0) == len(toks) - 1:
        toks = toks[1:-1]
        if not toks:
            return []
    return [_joined(text, _cleaned(entry)) for entry in _split(toks)]


def _split(toks: list[Tok]) -> list[list[Tok]]:
    """``toks`` cut at their top-level commas."""
    entries: list[list[Tok]] = [[]]
    depth = 0
    for tok in toks:
        if depth == 0 and tok.kind == "COMMA":
            entries.append([])
            continue
        entries[-1].append(tok)
        depth = max(0, depth + _step(tok))
    return [entry for entry in entries if entry]


def _cleaned(entry: list[Tok]) -> list[Tok]:
    """An argument or result entry's type: without ``%name:`` and a trailing ``{attrs}``."""
    if len(entry) >= 2 and entry[0].kind == "VALUE_ID" and entry[1].kind == "COLON":
        entry = entry[2:]
    if entry and entry[-1].kind == "RBRACE":
        opening = _opening(entry, len(entry) - 1, 0)
        if opening > 0:
            entry = entry[:opening]
    return entry


def _entry(toks: list[Tok], start: int) -> list[Tok]:
    """The tokens of an attribute value starting at ``start``, up to its group's next
    top-level comma or closing bracket."""
    depth = 0
    for i in range(start, len(toks)):
        tok = toks[i]
        if depth == 0 and (tok.kind == "COMMA" or tok.kind in _CLOSE):
            return toks[start:i]
        depth = max(0, depth + _step(tok))
    return toks[start:]


def _closing(toks: list[Tok], opening: int) -> int:
    """The index of the bracket closing the one at ``opening`` (the last token if none)."""
    depth = 0
    for i in range(opening, len(toks)):
        depth += _step(toks[i])
        if depth <= 0:
            return i
    return len(toks) - 1


def _opening(toks: list[Tok], closing: int, start: int) -> int:
    """The index of the bracket opening the one at ``closing`` (-1: none from ``start``)."""
    depth = 0
    for i in range(closing, start - 1, -1):
        depth -= _step(toks[i])
        if depth <= 0:
            return i
    return -1


def _step(tok: Tok) -> int:
    return 1 if tok.kind in _OPEN else -1 if tok.kind in _CLOSE else 0


def _word(text: str, tok: Tok) -> str:
    return text[tok.start : tok.end] if tok.kind == "BARE_ID" else ""


# -- one line ---------------------------------------------------------------------------------


def _shown(text: str, tok: Tok) -> str:
    """A token as the one-line form shows it: a region as ``{...}``, a long token cut."""
    if tok.kind == "REGION":
        return _REGION
    if tok.end - tok.start <= TOKEN:
        return text[tok.start : tok.end]
    cut = text[tok.start : tok.start + TOKEN]
    closer = {"STRING": '"', "ELEMENTS": "]"}.get(tok.kind, "")
    return cut + "..." + closer


def _joined(text: str, toks: Sequence[Tok]) -> str:
    """``toks`` on one line: one space wherever the text had space, a newline or a comment."""
    parts: list[str] = []
    previous = -1
    for tok in toks:
        if parts and tok.start > previous:
            parts.append(" ")
        parts.append(_shown(text, tok))
        previous = tok.end
    return "".join(parts)


def _one_line(text: str, toks: list[Tok], colon: int) -> str:
    """The op on one line, at most ``LINE`` characters: the longest bracketed groups before
    its signature become ``(...)``, ``{...}``, ``<...>`` first, then the middle is cut."""
    pieces: list[str] = []
    groups: list[tuple[int, str]] = []  # (piece, the group collapsed)
    end = colon if colon >= 0 else len(toks)
    i, previous = 0, -1
    while i < end:
        tok = toks[i]
        space = " " if pieces and tok.start > previous else ""
        if tok.kind in _OPEN:
            closing = min(_closing(toks, i), end - 1)
            collapsed = _shown(text, tok) + "..." + _shown(text, toks[closing])
            groups.append((len(pieces), space + collapsed))
            pieces.append(space + _joined(text, toks[i : closing + 1]))
            i, previous = closing + 1, toks[closing].end
            continue
        pieces.append(space + _shown(text, tok))
        i, previous = i + 1, tok.end
    tail = ""
    if colon >= 0:
        space = " " if colon > 0 and toks[colon].start > toks[colon - 1].end else ""
        tail = space + _joined(text, toks[colon:])
    total = sum(map(len, pieces)) + len(tail)
    for at, collapsed in sorted(groups, key=lambda group: -len(pieces[group[0]])):
        if total <= LINE or len(pieces[at]) <= len(collapsed):
            break
        total -= len(pieces[at]) - len(collapsed)
        pieces[at] = collapsed
    head = "".join(pieces)
    if len(head) + len(tail) > LINE and len(tail) > LINE // 2:
        tail = tail[: LINE // 2] + "..."
    if len(head) + len(tail) > LINE:
        head = head[: max(LINE - len(tail) - 4, 0)] + " ..."
    return head + tail
