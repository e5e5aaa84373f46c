"""What one run keeps between the documents it analyses: the MLIR front end's memo and the
pl side's, in one object the face makes and passes down.

A face makes one ``Memo`` per `passlint check` run (and one per worker process of the run)
and one per language server session (and one per analysis process it starts); the pipeline
hands ``mlir`` to the MLIR front end and ``pl`` to the pl pass. Each side's memo is made the
first time it is asked for, with its front end, so a run over .mlir files never loads the pl
side and the other way round. Without a ``Memo`` (``memo=None``) every document is analysed
on the reference path, from scratch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from passlint.analysis.mlir.memo import MlirMemo
    from passlint.analysis.pl.memo import PlMemo


class Memo:
    """A run's caches: the MLIR front end's (``mlir``) and the pl side's (``pl``)."""

    def __init__(self) -> None:
        self._mlir: MlirMemo | None = None
        self._pl: PlMemo | None = None

    @property
    def mlir(self) -> MlirMemo:
        if self._mlir is None:
            from passlint.analysis.mlir.memo import MlirMemo

            self._mlir = MlirMemo()
        return self._mlir

    @property
    def pl(self) -> PlMemo:
        if self._pl is None:
            from passlint.analysis.pl.memo import PlMemo

            self._pl = PlMemo()
        return self._pl

    def clear(self) -> None:
        """Forget everything either side keeps."""
        for side in (self._mlir, self._pl):
            if side is not None:
                side.clear()
