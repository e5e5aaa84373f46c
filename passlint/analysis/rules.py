"""A rule: code, name, default severity, and the explanation every face shows. Each rule is
declared once, beside the check that raises it (``passlint.catalog`` says where each group
is); its ``code=`` is the one place the code is spelled, and the catalog puts them together."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from passlint.analysis.findings import Severity

# The published page of docs/rules.md, when there is one: rule links (LSP codeDescription,
# SARIF helpUri) point at its sections. None: no such page exists, so there are no links;
# `passlint rule CODE` prints the same text wherever passlint is installed.
DOCS_URL: str | None = None


@dataclass(frozen=True, kw_only=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    why: str
    example: str = ""
    fixed: str = ""
    fix: str = ""
    opt_in: bool = False
    no_fix: str = ""  # the "Fix:" line when there is no fix, if the default does not fit
    # The batch screen's tests that let a file with this rule's findings through (any one of
    # them): a VS rule's ``Precondition``s, from which the pass's ``SCREENED`` is built.
    screened: tuple[Enum, ...] = ()

    @property
    def anchor(self) -> str:
        """The section's anchor in docs/rules.md (``tl001-output-aliases-input``)."""
        return f"{self.code.lower()}-{self.name}"

    @property
    def url(self) -> str | None:
        """A link to this rule's explanation, or None when no published page has it."""
        return f"{DOCS_URL}#{self.anchor}" if DOCS_URL else None

    def explain(self) -> str:
        """The full explanation, as `passlint rule CODE` prints it."""
        parts = [
            f"{self.code} ({self.name})",
            "",
            f"What it checks: {self.summary}",
            "",
            f"Why it matters: {self.why}",
            "",
            f"Default severity: {self.severity.label}"
            + (" (opt-in: not selected by default)" if self.opt_in else ""),
        ]
        parts += ["", f"Fix: {self.fix or self.no_fix or self._default_no_fix()}"]
        if self.example:
            parts += ["", "Example:", "", _indent(self.example)]
        if self.fixed:
            parts += ["", "After the fix:", "", _indent(self.fixed)]
        return "\n".join(parts) + "\n"

    def _default_no_fix(self) -> str:
        if self.severity is Severity.INFORMATION:
            return "none needed: nothing in the source has to change."
        return "none; change the source by hand."


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.rstrip("\n").split("\n"))


def by_code(*rules: Rule) -> dict[str, Rule]:
    """Rules by their code, in the order given."""
    return {rule.code: rule for rule in rules}
