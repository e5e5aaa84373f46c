"""E findings from the syntax issues of a parsed .mlir file (E001 and the precise codes), and
their rules. The parser's modules raise the issues by ``codes.E00x``, the rule's code as a
checked name; its explanation is here. ``MLIR_SYNTAX_RULES`` lists them for the catalog."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passlint.analysis import codes
from passlint.analysis.findings import Finding, Location, Severity
from passlint.analysis.rules import Rule, by_code

if TYPE_CHECKING:  # the catalog reads the rules without loading the MLIR front end
    from passlint.analysis.mlir.ir import ParsedFile
    from passlint.analysis.source import SourceText

MLIR_SYNTAX_ERROR = Rule(
    code=codes.E001,
    name="mlir-syntax-error",
    severity=Severity.ERROR,
    summary="The MLIR text does not parse (a generic syntax error; E003-E009 name the precise "
    "ones).",
    why="Nothing after a syntax error can be trusted by the passes; passlint recovers at the "
    "next statement so every error in the file is reported.",
)


UNDEFINED_VALUE = Rule(
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
)


VALUE_REDEFINED = Rule(
    code=codes.E004,
    name="value-redefined",
    severity=Severity.ERROR,
    summary="An SSA name is defined twice where the first definition is still visible: twice "
    "in one region, or in a nested region of the same function (block arguments too).",
    why="MLIR's parser reports `redefinition of SSA value` (or `region entry argument ... is "
    "already in use`): SSA names are unique within a function and its nested regions. "
    "Sibling regions may reuse a name.",
    example="%0 = stablehlo.abs %arg0 : tensor<4xf32>\n%0 = stablehlo.abs %arg0 : tensor<4xf32>",
)


MALFORMED_OPERAND_LIST = Rule(
    code=codes.E005,
    name="malformed-operand-list",
    severity=Severity.ERROR,
    summary="An operand list is malformed: two operands with no comma between them, a comma "
    "followed by no operand, or a generic op's `(...)` list not closed after its operands.",
    why="MLIR's parser rejects the statement (`expected ','`, `expected SSA operand`, "
    "`expected ')' to end operand list`).",
    example="%0 = stablehlo.add %arg0 %arg0 : tensor<4xf32>",
    fixed="%0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>",
)


RESULT_COUNT_MISMATCH = Rule(
    code=codes.E006,
    name="result-count-mismatch",
    severity=Severity.ERROR,
    summary="The results bound by a generic op (`%0:2 =`, `%a, %b =`) do not match the result "
    "types of its function type, or a use names a result the op does not have (`%0#2`).",
    why="MLIR's parser reports `operation defines N results but was provided M to bind` or "
    "`reference to invalid result number`.",
    example='%0:2 = "foo.bar"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>',
)


UNDEFINED_ALIAS = Rule(
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
)


UNDEFINED_BLOCK = Rule(
    code=codes.E008,
    name="undefined-block",
    severity=Severity.ERROR,
    summary="A successor names a block label that the region does not define, or a region "
    "defines one label twice.",
    why="MLIR's parser reports `reference to an undefined block` or `redefinition of block`.",
    example='"cf.br"()[^bb9] : () -> ()',
)


UNBALANCED_BRACKETS = Rule(
    code=codes.E009,
    name="unbalanced-brackets",
    severity=Severity.ERROR,
    summary="A bracket, a region's braces or the resource section's `{-#`/`#-}` do not "
    "balance: a closer with no opener, or an opener never closed.",
    why="MLIR's parser stops at the first such place; passlint reports each one and recovers "
    "at the next statement so the rest of the file is still read.",
    example="%0 = stablehlo.add %arg0, %arg0 : tensor<4xf32\nreturn %0 : tensor<4xf32>",
)


# The MLIR front end's rules, in the catalog's order.
MLIR_SYNTAX_RULES = by_code(
    MLIR_SYNTAX_ERROR,
    UNDEFINED_VALUE,
    VALUE_REDEFINED,
    MALFORMED_OPERAND_LIST,
    RESULT_COUNT_MISMATCH,
    UNDEFINED_ALIAS,
    UNDEFINED_BLOCK,
    UNBALANCED_BRACKETS,
)


def syntax_findings(path: str, parsed: ParsedFile, source: SourceText) -> list[Finding]:
    findings = []
    for issue in parsed.errors:
        related: tuple[Location, ...] = ()
        if issue.related is not None:
            related = (Location(path, source.range(*issue.related), issue.related_note),)
        findings.append(
            Finding(
                issue.code,
                Severity.ERROR,
                path,
                source.range(issue.start, issue.end),
                issue.message,
                related,
            )
        )
    return findings
