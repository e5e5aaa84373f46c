"""The rule catalog: every rule of passlint by code, in the order `passlint rules` and
docs/rules.md list them. Each rule is declared once: a pass's in its ``rules`` module
(``TL_RULES``, ``VS_RULES``; E002 with the pl pass), which its checks raise by name and which
imports nothing of the pass, so a run over .mlir files never loads the pl front end and the
other way round; the MLIR front end's beside their check in
``analysis/mlir/syntax_findings.py``. passlint's own rules (PL) are raised by the pipeline
and the faces, which sit above this catalog and import it (``config`` reads it to check
selections), so they are declared here, below them."""

from __future__ import annotations

from passlint.analysis import codes
from passlint.analysis.findings import Severity
from passlint.analysis.hlo.rules import HLO_SYNTAX_RULES
from passlint.analysis.mlir.bytecode_rules import BYTECODE_RULES
from passlint.analysis.mlir.syntax_findings import MLIR_SYNTAX_RULES
from passlint.analysis.rules import Rule, by_code
from passlint.passes.materialize_valid_shape_symbols.rules import PYTHON_SYNTAX_ERROR, VS_RULES
from passlint.passes.tensorizer_legalization.rules import TL_RULES

# Raised by the pipeline's ``_too_large`` (``passlint.pipeline``).
FILE_TOO_LARGE = Rule(
    code="PL001",
    name="file-too-large",
    severity=Severity.INFORMATION,
    summary="The file is larger than `max-file-size` (by default 1 GiB for a .mlir file, "
    "128 MiB for HLO text or a proto, 64 MiB for a Python file), so it was not analysed.",
    why="Analysing a file takes time and memory in proportion to its size; above the limit "
    "passlint reports this one finding instead of running the passes, so an editor stays "
    "responsive. Raise `max-file-size` in `[tool.passlint]` (or the editor's passlint "
    "settings) to analyse bigger files.",
    no_fix="none in the source; raise `max-file-size` to analyse the file.",
)


# Raised by the faces' internal-error report (the server's ``internal_error_diagnostic``).
INTERNAL_ERROR = Rule(
    code=codes.PL002,
    name="internal-error",
    severity=Severity.ERROR,
    summary="An internal error stopped passlint from analysing the file.",
    why="A bug in passlint, not in the file: the language server shows this one diagnostic "
    "for the document (the traceback goes to the server's log, never to the document) "
    "and keeps serving the others; `passlint check` prints a one-line internal error for "
    "the file and exits 2. Please report it with the file (see SECURITY.md for anything "
    "sensitive).",
    no_fix="none in the source; it is a bug in passlint: please report it.",
)


# Raised by ``passlint.suppression``.
UNUSED_SUPPRESSION = Rule(
    code="PL100",
    name="unused-suppression",
    severity=Severity.WARNING,
    summary="A `passlint: ignore[CODE]` comment suppresses nothing: no finding with that code "
    "is raised on its line or the line below, or CODE is not a rule.",
    why="Stale suppressions hide the next real finding on that line and rot as code moves. "
    "A suppression counts as used when the pass raises the code there, even if the rule "
    "is not selected. Opt-in (select it with `--extend-select PL100` or in "
    "`[tool.passlint]`), like ruff's RUF100; `passlint: ignore-file` silences it too.",
    example="%0 = stablehlo.sine %arg0 : tensor<4xf32>  // passlint: ignore[TL001]\n"
    "return %0 : tensor<4xf32>",
    fixed="%0 = stablehlo.sine %arg0 : tensor<4xf32>\nreturn %0 : tensor<4xf32>",
    fix="remove the unused codes, or the whole comment when none is used.",
    opt_in=True,
)


RULES: dict[str, Rule] = by_code(
    *TL_RULES.values(),
    *VS_RULES.values(),
    *MLIR_SYNTAX_RULES.values(),
    PYTHON_SYNTAX_ERROR,
    *HLO_SYNTAX_RULES.values(),
    *BYTECODE_RULES.values(),
    FILE_TOO_LARGE,
    INTERNAL_ERROR,
    UNUSED_SUPPRESSION,
)


def default_selected(code: str) -> bool:
    return not RULES[code].opt_in
