"""The rules of MaterializeValidShapeSymbols and of its reading of the source (E002, a file
that is not Python): the dry run's own (VS001-VS008), one declaration each (code, name,
severity, the explanation `passlint rule CODE` prints and the screen's tests that let its
findings through, ``screened``), which ``findings`` raises by name with their messages and
fixes, and ``dry_run`` raises E002; then the standalone checks' rules, each declared in its
own file of ``checks`` with its detector. Nothing here or there loads the pl front end, so
the catalog reads the rules of a run over .mlir files cheaply."""

from __future__ import annotations

from passlint.analysis.findings import Severity
from passlint.analysis.rules import Rule, by_code
from passlint.passes.materialize_valid_shape_symbols.checks import CHECKS
from passlint.passes.materialize_valid_shape_symbols.preconditions import Precondition

UNBOUND_VALID_SHAPE_SYMBOL = Rule(
    code="VS001",
    name="unbound-valid-shape-symbol",
    severity=Severity.WARNING,
    summary="A device kernel's TensorView valid_shape reads a `pl.dynamic` symbol that no "
    "tensor parameter's physical shape binds and no scalar parameter provides.",
    why="MaterializeValidShapeSymbols turns such a symbol into a leading "
    "`NAME: pl.Scalar[pl.INDEX]` parameter and prepends the caller's actual extent at "
    "every call site; the source should say so itself. A kernel with several such symbols "
    "has one finding, on the first, naming them all: the pass adds them in one rewrite, "
    "which is the fix. The finding is the pass on the program as parsed (as pypto's own "
    "tests run it); under `pl.compile`, OptimizeOrchTensors first replaces the view of an "
    "input fed slices of a tensor of static shape by strides, and the message says when "
    "that leaves the pass nothing to add. A parameter named as the symbol's Python "
    "variable takes that "
    "`pl.dynamic` over for every function pypto's parser reads after the kernel; where "
    "other functions of the program read the symbol both before and after the kernel, "
    "that would split one symbol in two and calls between them would no longer build, so "
    "the fix gives the kernel a `pl.dynamic` of its own for the same symbol "
    '(`NAME_kernel = pl.dynamic("NAME")` after the shared one), reads it in the kernel '
    "and names the parameter after it (or, where it cannot, is not preferred and says "
    "why). A program built in a `pytest.mark.parametrize` test (marks of the test, its "
    "class and the module's `pytestmark`, and `@pytest.fixture(params=...)` fixtures it "
    "requests), or in a builder the test, such a fixture or such a builder calls with "
    "its parameters (up to 4 calls from the test), is analysed once per case, with the "
    "parameters holding that case's literal values: a finding of some cases only names "
    "them as pytest does (`test_k[n1]`, `TestX::test_k[n1]`), and its fix is not "
    "preferred, since it would change the programs of the other cases too. A test with "
    "more than 64 cases, or with values that are not literals, is analysed as if it were "
    "not parametrized.",
    example="@pl.function(type=pl.FunctionType.InCore)\n"
    "def k(x: pl.Tensor[[16, 128], pl.FP32, "
    "pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]): ...\n"
    "...\nk(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]))",
    fixed="@pl.function(type=pl.FunctionType.InCore)\n"
    "def k(VALID: pl.Scalar[pl.INDEX], x: pl.Tensor[[16, 128], pl.FP32, "
    "pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]): ...\n"
    "...\nk(n, pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]))",
    fix="add the symbol as a leading scalar parameter and pass the extent at every call site.",
    screened=(Precondition.HEADER,),
)


COMPOUND_ONLY_VALID_SHAPE_SYMBOL = Rule(
    code="VS002",
    name="compound-only-valid-shape-symbol",
    severity=Severity.ERROR,
    summary="An unbound symbol appears only inside compound valid_shape entries (`VALID * 2`).",
    why="The pass can only read a symbol's value from an entry that is exactly the symbol; "
    "a compound-only symbol has no value and the pass raises an error.",
    example="pl.TensorView(valid_shape=[Q, V2 * 2], layout=pl.TensorLayout.ND)",
    screened=(Precondition.HEADER,),
)


CONFLICTING_VALID_SHAPE_EXTENTS = Rule(
    code="VS003",
    name="conflicting-valid-shape-extents",
    severity=Severity.ERROR,
    summary="A call passes different extents for two slots of the same valid_shape symbol.",
    why="The symbol becomes one scalar parameter; two disagreeing extents leave no single "
    "value to pass, and the pass raises an error.",
    example="r = self.k_g(a, b)   # a's valid dim is vl, b's is vm, both slots read VALID",
    screened=(Precondition.HEADER, Precondition.CALL),
)


CALL_OMITS_VALID_SHAPE_ARGUMENT = Rule(
    code="VS004",
    name="call-omits-valid-shape-argument",
    severity=Severity.ERROR,
    summary="A call or submit omits the argument whose valid_shape holds a symbol's slot.",
    why="The extent of the symbol is read from that argument; without it the pass has no "
    "value to pass and raises an error.",
    example="h, _tid = pl.submit(self.k_h, src1)   # k_h's second parameter holds VALID",
    screened=(Precondition.HEADER, Precondition.CALL),
)


SCALAR_PARAM_AFTER_USE = Rule(
    code="VS005",
    name="scalar-param-after-use",
    severity=Severity.ERROR,
    summary="A `X: pl.Scalar[pl.INDEX]` parameter comes after a parameter whose annotation "
    "reads X.",
    why="The pypto DSL parser rejects a parameter that shadows a dynamic symbol an earlier "
    "parameter's annotation already uses.",
    example="def kernel(self, x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, "
    "V], layout=pl.TensorLayout.ND)],\n"
    "           V: pl.Scalar[pl.INDEX]): ...",
    fixed="def kernel(self, V: pl.Scalar[pl.INDEX],\n"
    "           x: pl.Tensor[[16, 128], pl.FP32, "
    "pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)]): ...",
    fix="move the scalar parameter in front of the first parameter that reads it.",
    screened=(Precondition.HEADER,),
)


UNDEFINED_VALID_SHAPE_NAME = Rule(
    code="VS006",
    name="undefined-valid-shape-name",
    severity=Severity.ERROR,
    summary="A valid_shape entry names something that is neither a `pl.dynamic` symbol nor an "
    "int constant where Python evaluates it: in the kernel's annotations when its `def` runs, "
    "or in the assignment of a TensorView variable.",
    why="Python raises NameError before pypto's parser sees the kernel. A parameter of the "
    "kernel is no name there either: pypto's parser would read an earlier parameter, but "
    "Python evaluates the annotation first, where the kernel is defined. Where Python does "
    "not evaluate the annotation (`from __future__ import annotations`) or finds the name in "
    "the program's class body, pypto's parser reads it instead: an earlier parameter is that "
    "parameter, and a name nothing defines becomes a symbol of that name, which the pass adds "
    "as a parameter (VS001).",
    example="pl.TensorView(valid_shape=[16, UNDEFINED], layout=pl.TensorLayout.ND)",
    screened=(Precondition.HEADER,),
)


OUTLINED_SCOPE_GAINS_VALID_SHAPE_PARAMETER = Rule(
    code="VS007",
    name="outlined-scope-gains-valid-shape-parameter",
    severity=Severity.INFORMATION,
    summary="A `with pl.at(level=pl.Level.CORE_GROUP, ...)` scope of an orchestration reads a "
    "tensor whose valid_shape names a symbol the outlined kernel will not bind. The "
    "finding sits on the `with` line and names the outlined kernel (`name_hint`, else "
    "`<function>_incore_<n>`) and the extent its call is fed.",
    why="The pypto default pipeline outlines the scope into an InCore kernel whose parameters "
    "are the variables the body reads (OutlineIncoreScopes); MaterializeValidShapeSymbols "
    "then adds each valid_shape symbol that no captured variable or physical dimension "
    "binds as a leading `pl.Scalar[pl.INDEX]` parameter, fed the captured tensor's own "
    "extent. Before it, OptimizeOrchTensors gives an input fed a slice of a tensor of "
    "static shape that tensor's strides instead of its view, so such a slice adds nothing "
    "(where the shape is not known statically, the message says under which condition the "
    "finding holds). Nothing needs changing: the finding says what the compiled kernel "
    "receives.",
    example="part = pl.slice(x, [16, 64], [0, 0], valid_shape=[16, n])\n"
    'with pl.at(level=pl.Level.CORE_GROUP, name_hint="fused"):\n'
    "    t = pl.load(part, [0, 0], [16, 64])",
    fix="none; the source has no signature to edit.",
    screened=(Precondition.SCOPE,),
)


UNKNOWN_SHAPE_VARIABLE = Rule(
    code="VS008",
    name="unknown-shape-variable",
    severity=Severity.ERROR,
    summary="A physical shape dimension of a device kernel's parameter (`pl.Tensor[[ROWS, 64], "
    "...]`, not a valid_shape) names something that is neither an int constant nor a "
    "`pl.dynamic` symbol of the frame that builds the program, nor an earlier parameter.",
    why='The pypto DSL parser rejects the kernel when the program is defined ("Unknown shape '
    'variable", `_resolve_shape_dim`): with postponed annotations '
    "(`from __future__ import annotations`) it reads the names bound when the decorator "
    "runs (a global bound below the program, or a local bound after it, is not), and it "
    "never reads the program's class body. Without postponed annotations Python raises "
    "NameError first, except for a class-body name, which Python sees and the parser does "
    "not. Unlike a valid_shape entry, such a name never becomes a symbol.",
    example="from __future__ import annotations\n...\n"
    "def kernel(self, x: pl.Tensor[[ROWS, 64], pl.FP32]): ...   # ROWS defined nowhere",
    no_fix='none; define the name above the program (`ROWS = pl.dynamic("ROWS")`, or '
    "an int constant) or pass it as an earlier scalar parameter: which one is the "
    "author's choice.",
    screened=(Precondition.HEADER,),
)


PYTHON_SYNTAX_ERROR = Rule(
    code="E002",
    name="python-syntax-error",
    severity=Severity.ERROR,
    summary="The pl source is not valid Python.",
    why="The pass cannot read kernels from a file that does not parse.",
)


# The pass's rules, in the catalog's order.
VS_RULES = by_code(
    UNBOUND_VALID_SHAPE_SYMBOL,
    COMPOUND_ONLY_VALID_SHAPE_SYMBOL,
    CONFLICTING_VALID_SHAPE_EXTENTS,
    CALL_OMITS_VALID_SHAPE_ARGUMENT,
    SCALAR_PARAM_AFTER_USE,
    UNDEFINED_VALID_SHAPE_NAME,
    OUTLINED_SCOPE_GAINS_VALID_SHAPE_PARAMETER,
    UNKNOWN_SHAPE_VARIABLE,
    *(check.rule for check in CHECKS),
)
