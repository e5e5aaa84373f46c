"""What passlint knows of MLIR ops by their names, declared once: the parser, the syntax
checks, the passes and the server read these tables (none restates an op name list)."""

from __future__ import annotations

from typing import Final

# Ops whose region is a graph region: a value may be used before the op that defines it.
MODULE_OPS: Final = frozenset(("module", "builtin.module"))

# Ops isolated from above: their regions see no value defined outside them.
ISOLATED_OPS: Final = frozenset(("func.func", *MODULE_OPS))

# The ops that return from a function (`return` is `func.return` in the default dialect).
FUNC_RETURN_OPS: Final = frozenset(("func.return", "return"))

# The terminators of a region the passes read: a function's return and a region's yield.
TERMINATORS: Final = frozenset(("mhlo.return", "stablehlo.return", *FUNC_RETURN_OPS))

# The ops whose result is a constant (read-only: an output must be copied).
CONSTANT_OPS: Final = frozenset(("mhlo.constant", "stablehlo.constant"))

# Ops spelled without a dialect: the default dialects' (func in a function, builtin above).
BARE_OP_NAMES: Final = frozenset(("return", "module", "call", "call_indirect", "constant"))
