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
        modules and the disk): a batch run analyses each text once, and what it keeps only
        costs memory and collector time."""
        self.pieces.clear()
        self.models.clear()
        for part in self._parts.values():
            part.clear()

    def clear(self) -> None:
        """Forget everything (tests compare kept and from-scratch analyses)."""
        self.modules.clear()
        self.files.clear()
        self.forget_statements()
