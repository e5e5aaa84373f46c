"""What one run keeps between the documents it analyses: the MLIR front end's memo and the
pl side's, in one object the face makes and passes down.

A face makes one ``Memo`` per `passlint check` run (and one per worker process of the run)
and one per language server session (and one per analysis process it starts); the pipeline
hands ``mlir`` to the MLIR front end and ``pl`` to the pl pass. Without one
(``memo=None``) every document is analysed on the reference path, from scratch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from passlint.analysis.mlir.memo import MlirMemo
from passlint.analysis.pl.memo import PlMemo


@dataclass
class Memo:
    """A run's caches: the MLIR front end's (``mlir``) and the pl side's (``pl``)."""

    mlir: MlirMemo = field(default_factory=MlirMemo)
    pl: PlMemo = field(default_factory=PlMemo)

    def clear(self) -> None:
        """Forget everything either side keeps."""
        self.mlir.clear()
        self.pl.clear()
