"""What the pl side keeps between analyses, in one object the caller makes and passes in.

A face makes one ``PlMemo`` (the ``pl`` side of its run's ``passlint.memo.Memo``) per
`passlint check` run (per worker process) and one per language server session (shared by
its analysis threads; its analysis process has its own), and hands it to
``resolve.load_module`` and the pass's entry points. Without one, every text is parsed whole
and modelled from scratch: the reference path that the memo's reuse must agree with.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

from passlint.analysis.pl.frontend import ModelMemo
from passlint.analysis.pl.model import Module
from passlint.analysis.pl.pieces import PieceMemo
from passlint.analysis.workspace import SharedFiles

_Part = TypeVar("_Part", bound="Clearable")

MODULE_COUNT = 256  # modules kept at most
# Modules kept, in characters of their texts: a model takes about 80 bytes a character.
MODULE_CHARACTERS = 1_500_000
# Between the files of a batch run, which reads most texts once: the modules of the files
# it analyses in full stayed until the end (a check of the pypto checkout peaked at
# 165 MB, 130 MB so).
BATCH_MODULE_CHARACTERS = 300_000


class Clearable:
    """What an analysis built on the memo's modules keeps in it (``PlMemo.part``)."""

    def clear(self) -> None:
        raise NotImplementedError


class PlMemo:
    """The parsed pieces (``pieces``), function models (``models``) and modules by path and
    text (``modules``, see ``load_module``), the shared disk sides of a server session
    (``files``), and what the analyses built on those modules keep (``part``)."""

    def __init__(self) -> None:
        self.modules: OrderedDict[tuple[str, str], Module | None] = OrderedDict()
        self.pieces = PieceMemo()
        self.models = ModelMemo()
        self.files = SharedFiles()
        self._parts: dict[type[Clearable], Clearable] = {}

    def part(self, kind: type[_Part]) -> _Part:
        """This memo's ``kind`` (made by ``kind()`` on first use): a pass keeps its own
        results here, beside the modules they were computed from."""
        found = self._parts.get(kind)
        if found is None:
            found = self._parts[kind] = kind()
        assert isinstance(found, kind)
        return found

    def forget_statements(self) -> None:
        """Forget what was kept per statement for the next version of a text (all but the
        disk, and the modules of the ``BATCH_MODULE_CHARACTERS`` used last): a batch run
        analyses each text once, and what it keeps only costs memory and collector time."""
        self.pieces.clear()
        self.models.clear()
        for part in self._parts.values():
            part.clear()
        self.keep_modules(MODULE_COUNT, BATCH_MODULE_CHARACTERS)

    def keep_modules(self, count: int, characters: int) -> None:
        """Forget the modules used least recently until ``count`` remain at most, of
        ``characters`` of text at most (the last one used stays)."""
        modules = self.modules
        size = sum(len(key[1]) for key in modules)
        while len(modules) > 1 and (len(modules) > count or size > characters):
            size -= len(modules.popitem(last=False)[0][1])

    def clear(self) -> None:
        """Forget everything (tests compare kept and from-scratch analyses)."""
        self.modules.clear()
        self.files.clear()
        self.forget_statements()
