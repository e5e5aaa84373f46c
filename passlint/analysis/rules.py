"""A rule: code, name, default severity, and the explanation every face shows; and the rules
whose checks do not declare them yet (TensorizerLegalization's, the front ends' and passlint's
own). A pass's rules sit beside the code that raises them (the valid_shape pass's in its
``findings.py``); ``passlint.catalog`` puts them all in one catalog."""

from __future__ import annotations

from dataclasses import dataclass

from passlint.analysis import codes
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


# TensorizerLegalization's rules (raised in passes/tensorizer_legalization).
TENSORIZER_RULES = by_code(
    Rule(
        code=codes.TL001,
        name="output-aliases-input",
        severity=Severity.WARNING,
        summary="An operand of @main's return is a block argument (an input of the module).",
        why="TensorizerLegalization needs every output to be a distinct, writable buffer with a "
        "name. A returned input aliases the caller's buffer, so the pass inserts an identity "
        "`mhlo.copy` and names the copy.",
        example="func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  return %arg0 : tensor<4xf32>\n}",
        fixed="func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n"
        "  return %output0_copy : tensor<4xf32>\n}",
        fix="insert `mhlo.copy` of the input before the return and return the copy.",
    ),
    Rule(
        code=codes.TL002,
        name="output-aliases-constant",
        severity=Severity.WARNING,
        summary="An operand of @main's return is produced by a constant op.",
        why="Constants are read-only; an output must be a writable buffer, so the pass inserts "
        "an identity `mhlo.copy` of the constant and names the copy. (In the StableHLO "
        "variant a splat `stablehlo.constant` is first rewritten into a broadcast: see TL007.)",
        example="%cst = mhlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "return %cst : tensor<2xf32>",
        fixed="%cst = mhlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "%output0_copy = mhlo.copy %cst : tensor<2xf32>\n"
        "return %output0_copy : tensor<2xf32>",
        fix="insert `mhlo.copy` of the constant before the return and return the copy.",
    ),
    Rule(
        code=codes.TL003,
        name="output-returned-twice",
        severity=Severity.WARNING,
        summary="One SSA value is returned at two or more slots of @main's return.",
        why="The pass names the producing op's result once per slot: the second name overwrites "
        "the first in the same `neuron.symName` slot and two outputs share one buffer. "
        "`passlint legalize` prints exactly that (the value named twice, no copy); the copy "
        "is passlint's own fix, beyond the pass: it gives every later slot a buffer and a "
        "name of its own.",
        example="%0 = stablehlo.sine %arg0 : tensor<4xf32>\n"
        "return %0, %0 : tensor<4xf32>, tensor<4xf32>",
        fixed="%0 = stablehlo.sine %arg0 : tensor<4xf32>\n"
        "%output1_copy = mhlo.copy %0 : tensor<4xf32>\n"
        "return %0, %output1_copy : tensor<4xf32>, tensor<4xf32>",
        fix="copy the value for every slot after the first (passlint's advice; the pass inserts "
        "no such copy).",
    ),
    Rule(
        code=codes.TL004,
        name="output-names-mismatch",
        severity=Severity.ERROR,
        summary="@main's `output_names` does not have exactly one distinct string per returned "
        "value.",
        why="The pass indexes `output_names` by return slot: a shorter list reads past its end, "
        "a longer one names outputs that do not exist, and duplicates give two buffers one name.",
        example='func.func @main(...) attributes {output_names = ["a"]} {\n'
        "  return %0, %1 : tensor<4xf32>, tensor<4xf32>\n}",
    ),
    Rule(
        code=codes.TL005,
        name="missing-main",
        severity=Severity.ERROR,
        summary="The module has no `func.func @main`.",
        why="TensorizerLegalization legalizes the outputs of @main and aborts without one. Lit "
        "tests and libraries legitimately have no main, so this rule is opt-in.",
        example="module {\n  func.func @helper() { return }\n}",
        opt_in=True,
    ),
    Rule(
        code=codes.TL006,
        name="zero-sized-output",
        severity=Severity.INFORMATION,
        summary="An output of @main has a tensor type with zero elements.",
        why="MHLO leaves a returned zero-element input un-copied, so the output still aliases the "
        "input (reported as a warning there); the StableHLO variant replaces zero-element "
        "values with an `AwsNeuronZeroSizedOp` custom call that carries `neuron.actual_shape`.",
        example="func.func @main(%arg0: tensor<0x4xf32>) -> tensor<0x4xf32> {\n"
        "  return %arg0 : tensor<0x4xf32>\n}",
    ),
    Rule(
        code=codes.TL007,
        name="splat-output-broadcast",
        severity=Severity.INFORMATION,
        summary="An output of @main is a splat `stablehlo.constant` (StableHLO variant).",
        why="Stage A of the StableHLO variant rewrites every splat constant into a scalar "
        "constant and a `stablehlo.broadcast_in_dim`; the broadcast is a compute op, so the "
        "output is named in place instead of copied.",
        example="%cst = stablehlo.constant dense<0.0> : tensor<4x4xf32>\n"
        "return %cst : tensor<4x4xf32>",
    ),
    Rule(
        code=codes.TL009,
        name="composite-decomposition-missing",
        severity=Severity.ERROR,
        summary="A returned `stablehlo.composite` carrying `CompositeKind` (or `composite_kind`) "
        "names a decomposition function the module lacks.",
        why="The pass names the output of a composite with Neuron's `CompositeKind` attribute "
        "(also spelled `composite_kind`) inside its decomposition; without that function "
        "there is nothing to name and the pass fails. (A composite without `CompositeKind`, "
        "as jax writes them, is named in place.)",
        example='%0 = stablehlo.composite "my.op" %arg0 {CompositeKind = "FusedComposite", '
        "decomposition = @my.op} : "
        "(tensor<4xf32>) -> tensor<4xf32>\nreturn %0 : tensor<4xf32>",
    ),
)

PYTHON_SYNTAX_ERROR = Rule(
    code=codes.E002,
    name="python-syntax-error",
    severity=Severity.ERROR,
    summary="The pl source is not valid Python.",
    why="The pass cannot read kernels from a file that does not parse.",
)

# The front ends' rules: the MLIR parser's (analysis/mlir) and the pl source's syntax error.
FRONT_END_RULES = by_code(
    Rule(
        code=codes.E001,
        name="mlir-syntax-error",
        severity=Severity.ERROR,
        summary="The MLIR text does not parse (a generic syntax error; E003-E009 name the precise "
        "ones).",
        why="Nothing after a syntax error can be trusted by the passes; passlint recovers at the "
        "next statement so every error in the file is reported.",
    ),
    Rule(
        code=codes.E003,
        name="undefined-value",
        severity=Severity.ERROR,
        summary="An operand names an SSA value that is not defined where it is used: never defined "
        "in scope (`use of undeclared SSA value name`), or, in a function body or any region "
        "other than a module's, defined only after the use (`operand #N does not dominate "
        "this use`).",
        why="MLIR's parser (and its verifier for the order) rejects the module; the passes would "
        "read an operand that does not exist. A module's body is a graph region: there, a "
        "value may be used before the op that defines it.",
        example="func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  return %nothere : tensor<4xf32>\n}",
    ),
    Rule(
        code=codes.E004,
        name="value-redefined",
        severity=Severity.ERROR,
        summary="An SSA name is defined twice where the first definition is still visible: twice "
        "in one region, or in a nested region of the same function (block arguments too).",
        why="MLIR's parser reports `redefinition of SSA value` (or `region entry argument ... is "
        "already in use`): SSA names are unique within a function and its nested regions. "
        "Sibling regions may reuse a name.",
        example="%0 = stablehlo.abs %arg0 : tensor<4xf32>\n"
        "%0 = stablehlo.abs %arg0 : tensor<4xf32>",
    ),
    Rule(
        code=codes.E005,
        name="malformed-operand-list",
        severity=Severity.ERROR,
        summary="An operand list is malformed: two operands with no comma between them, a comma "
        "followed by no operand, or a generic op's `(...)` list not closed after its operands.",
        why="MLIR's parser rejects the statement (`expected ','`, `expected SSA operand`, "
        "`expected ')' to end operand list`).",
        example="%0 = stablehlo.add %arg0 %arg0 : tensor<4xf32>",
        fixed="%0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>",
    ),
    Rule(
        code=codes.E006,
        name="result-count-mismatch",
        severity=Severity.ERROR,
        summary="The results bound by a generic op (`%0:2 =`, `%a, %b =`) do not match the result "
        "types of its function type, or a use names a result the op does not have (`%0#2`).",
        why="MLIR's parser reports `operation defines N results but was provided M to bind` or "
        "`reference to invalid result number`.",
        example='%0:2 = "foo.bar"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>',
    ),
    Rule(
        code=codes.E007,
        name="undefined-alias",
        severity=Severity.ERROR,
        summary="An attribute or type alias (`#name`, `!name`) is used but never defined in the "
        "module (`#name = ...`), or used before its definition.",
        why="MLIR's parser reports `undefined symbol alias id` (or `operation location alias was "
        "never defined` for a `loc(#name)`). Only an op's location may name an alias defined "
        "further down; a type or attribute alias, and any alias another alias's definition "
        "names, must be defined first.",
        example="%0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc9)",
    ),
    Rule(
        code=codes.E008,
        name="undefined-block",
        severity=Severity.ERROR,
        summary="A successor names a block label that the region does not define, or a region "
        "defines one label twice.",
        why="MLIR's parser reports `reference to an undefined block` or `redefinition of block`.",
        example='"cf.br"()[^bb9] : () -> ()',
    ),
    Rule(
        code=codes.E009,
        name="unbalanced-brackets",
        severity=Severity.ERROR,
        summary="A bracket, a region's braces or the resource section's `{-#`/`#-}` do not "
        "balance: a closer with no opener, or an opener never closed.",
        why="MLIR's parser stops at the first such place; passlint reports each one and recovers "
        "at the next statement so the rest of the file is still read.",
        example="%0 = stablehlo.add %arg0, %arg0 : tensor<4xf32\nreturn %0 : tensor<4xf32>",
    ),
    PYTHON_SYNTAX_ERROR,
)

# passlint's own rules: a file not analysed, an internal error, an unused suppression.
PASSLINT_RULES = by_code(
    Rule(
        code=codes.PL001,
        name="file-too-large",
        severity=Severity.INFORMATION,
        summary="The file is larger than `max-file-size` (default 64 MB), so it was not analysed.",
        why="Analysing a file takes time and memory in proportion to its size; above the limit "
        "passlint reports this one finding instead of running the passes, so an editor stays "
        "responsive. Raise `max-file-size` in `[tool.passlint]` (or the editor's passlint "
        "settings) to analyse bigger files.",
        no_fix="none in the source; raise `max-file-size` to analyse the file.",
    ),
    Rule(
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
    ),
    Rule(
        code=codes.PL100,
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
    ),
)
