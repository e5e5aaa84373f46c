"""What passlint predicts for one pl file, through its public API only: the kernels that gain
leading parameters (``analyze_module``; and those still added after ``pl.compile``'s
pipeline), the extents each call site gets, and the VS
findings (``engine.analyze``). Places are 1-based lines and columns, as the truth has them."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from passlint.analysis.findings import Finding
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module
from passlint.pipeline import analyze


@dataclass(frozen=True)
class PredictedKernel:
    line: int  # the ``def`` line
    name: str
    added: tuple[str, ...]  # pl.dynamic names, in the order the pass adds them
    compiled: tuple[str, ...] | None = None  # those added after pl.compile's pipeline (None:
    # passlint says it depends on a condition)


@dataclass(frozen=True)
class PredictedSite:
    file: str  # as analysed (absolute)
    line: int
    column: int  # 1-based
    callee: str
    extents: tuple[str, ...] | None  # None: passlint cannot resolve them statically


@dataclass
class Prediction:
    path: str  # as analysed
    kernels: dict[int, PredictedKernel] = field(default_factory=dict)  # every analysed kernel
    sites: list[PredictedSite] = field(default_factory=list)  # of this file's kernels, anywhere
    findings: list[Finding] = field(default_factory=list)  # VS codes only
    problem: str | None = None

    def changes(self) -> dict[int, PredictedKernel]:
        return {line: k for line, k in self.kernels.items() if k.added}


def predict(path: str, text: str, workspace: Workspace | None) -> Prediction:
    prediction = Prediction(path)
    analysis = analyze_module(path, text, workspace)
    if analysis.problem is not None:
        prediction.problem = str(analysis.problem)
    for summary in analysis.kernels:
        node = summary.kernel.node
        added = tuple(symbol.symbol for symbol in summary.unbound)
        compiled = summary.compiled
        prediction.kernels[node.lineno] = PredictedKernel(
            node.lineno,
            summary.kernel.name,
            added,
            tuple(s.symbol for s in compiled) if compiled is not None else None,
        )
        for call in summary.calls:
            site = call.site.node
            prediction.sites.append(
                PredictedSite(
                    call.module.path,
                    site.lineno,
                    _column(call.module.text, site),
                    summary.kernel.name,
                    tuple(call.texts) if call.texts is not None else None,
                )
            )
    prediction.findings = [
        f for f in analyze(path, text, None, workspace) if f.code.startswith("VS")
    ]
    return prediction


def _column(text: str, node: ast.expr) -> int:
    """The 1-based character column of ``node`` (ast counts UTF-8 bytes)."""
    line = text.splitlines()[node.lineno - 1] if node.lineno <= text.count("\n") + 1 else ""
    return len(line.encode("utf-8")[: node.col_offset].decode("utf-8", "replace")) + 1
