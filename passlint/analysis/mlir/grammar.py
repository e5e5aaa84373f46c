"""The statement grammar, ``mlir.lark``, and lark's LALR parser of it (fed tokens cut
beforehand: the grammar only sees terminal kinds)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from importlib import resources
from typing import Any

from lark import Lark, Token
from lark.lexer import Lexer

from passlint.analysis.mlir.program_constant import program_constant


class _Feeder(Lexer):
    """A lark lexer that hands over tokens cut beforehand."""

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        return iter(lexer_state.text)


def grammar() -> str:
    """The text of the statement grammar, ``mlir.lark``."""
    return resources.files("passlint.analysis.mlir").joinpath("mlir.lark").read_text()


@program_constant
def lark_parser() -> Lark:
    """lark's LALR parser of the grammar (built in about 30 ms, the same for every input)."""
    parser = Lark(grammar(), parser="lalr", lexer=_Feeder, maybe_placeholders=False)
    # The table construction leaves some 3,000 objects in cycles: freed here, once, so no
    # batch run freezes them with what the first file's analysis leaves (collector.settled).
    gc.collect(1)
    return parser
