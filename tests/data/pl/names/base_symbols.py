# A symbol that shape_symbols.py re-exports.
import pypto.language as pl

DEPTH = pl.dynamic("DEPTH")
