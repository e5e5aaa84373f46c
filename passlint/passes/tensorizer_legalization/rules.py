"""The rules of TensorizerLegalization, one declaration each (code, name, severity and the
explanation `passlint rule CODE` prints), in the catalog's order. Each is raised by name where
its check is: TL001-TL003, TL006, TL007 and TL009 by the case table (``cases``), TL004 and
TL005 by ``findings``. The module imports nothing of the pass, so the catalog reads it without
loading the MLIR front end."""

from __future__ import annotations

from passlint.analysis.findings import Severity
from passlint.analysis.rules import Rule, by_code

OUTPUT_ALIASES_INPUT = Rule(
    code="TL001",
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
)


OUTPUT_ALIASES_CONSTANT = Rule(
    code="TL002",
    name="output-aliases-constant",
    severity=Severity.WARNING,
    summary="An operand of @main's return is produced by a constant op.",
    why="Constants are read-only; an output must be a writable buffer, so the pass inserts "
    "an identity `mhlo.copy` of the constant and names the copy. (In the StableHLO "
    "variant a splat `stablehlo.constant` is first rewritten into a broadcast: see TL007.)",
    example="%cst = mhlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\nreturn %cst : tensor<2xf32>",
    fixed="%cst = mhlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
    "%output0_copy = mhlo.copy %cst : tensor<2xf32>\n"
    "return %output0_copy : tensor<2xf32>",
    fix="insert `mhlo.copy` of the constant before the return and return the copy.",
)


OUTPUT_RETURNED_TWICE = Rule(
    code="TL003",
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
)


OUTPUT_NAMES_MISMATCH = Rule(
    code="TL004",
    name="output-names-mismatch",
    severity=Severity.ERROR,
    summary="@main's `output_names` does not have exactly one distinct string per returned value.",
    why="The pass indexes `output_names` by return slot: a shorter list reads past its end, "
    "a longer one names outputs that do not exist, and duplicates give two buffers one name.",
    example='func.func @main(...) attributes {output_names = ["a"]} {\n'
    "  return %0, %1 : tensor<4xf32>, tensor<4xf32>\n}",
)


MISSING_MAIN = Rule(
    code="TL005",
    name="missing-main",
    severity=Severity.ERROR,
    summary="The module has no `func.func @main`.",
    why="TensorizerLegalization legalizes the outputs of @main and aborts without one. Lit "
    "tests and libraries legitimately have no main, so this rule is opt-in.",
    example="module {\n  func.func @helper() { return }\n}",
    opt_in=True,
)


ZERO_SIZED_OUTPUT = Rule(
    code="TL006",
    name="zero-sized-output",
    severity=Severity.INFORMATION,
    summary="An output of @main has a tensor type with zero elements.",
    why="MHLO leaves a returned zero-element input un-copied, so the output still aliases the "
    "input (reported as a warning there); the StableHLO variant replaces zero-element "
    "values with an `AwsNeuronZeroSizedOp` custom call that carries `neuron.actual_shape`.",
    example="func.func @main(%arg0: tensor<0x4xf32>) -> tensor<0x4xf32> {\n"
    "  return %arg0 : tensor<0x4xf32>\n}",
)


SPLAT_OUTPUT_BROADCAST = Rule(
    code="TL007",
    name="splat-output-broadcast",
    severity=Severity.INFORMATION,
    summary="An output of @main is a splat `stablehlo.constant` (StableHLO variant).",
    why="Stage A of the StableHLO variant rewrites every splat constant into a scalar "
    "constant and a `stablehlo.broadcast_in_dim`; the broadcast is a compute op, so the "
    "output is named in place instead of copied.",
    example="%cst = stablehlo.constant dense<0.0> : tensor<4x4xf32>\nreturn %cst : tensor<4x4xf32>",
)


COMPOSITE_DECOMPOSITION_MISSING = Rule(
    code="TL009",
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
)


TL_RULES = by_code(
    OUTPUT_ALIASES_INPUT,
    OUTPUT_ALIASES_CONSTANT,
    OUTPUT_RETURNED_TWICE,
    OUTPUT_NAMES_MISMATCH,
    MISSING_MAIN,
    ZERO_SIZED_OUTPUT,
    SPLAT_OUTPUT_BROADCAST,
    COMPOSITE_DECOMPOSITION_MISSING,
)
