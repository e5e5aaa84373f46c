"""The shape of a standalone check of the pl pass: a rule and its detector over one module,
declared together in one file of ``checks`` (which finds them by file: a new rule is one new
file). Such a check reads a module's kernels as they are written, so no parametrized case
changes what it reports, and it imports only what is light (the catalog reads its rule
without loading the pl front end): the module and the resolver it is given are its way in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from passlint.analysis.rules import Rule

if TYPE_CHECKING:
    from passlint.analysis.findings import Finding
    from passlint.analysis.pl.model import Module
    from passlint.analysis.pl.resolve import Resolver


@dataclass(frozen=True)
class Check:
    """``rule``, and ``findings``: its findings in one module, whose names ``resolver``
    resolves. ``may_find``: a test of a file's text, true of every file it has findings in,
    by which the batch screen lets those through; None when the rule's ``screened``
    preconditions do."""

    rule: Rule
    findings: Callable[[Module, Resolver], list[Finding]]
    may_find: Callable[[str], bool] | None = None
