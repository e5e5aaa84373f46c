# Symbols for kernels of other modules of this folder (uses_shape_symbols.py): one made by a
# helper, one re-exported from a third module.
import pypto.language as pl

from base_symbols import DEPTH


def symbol(name):
    return pl.dynamic(name)


TILE = symbol("TILE")
__all__ = ["DEPTH", "TILE", "symbol"]
