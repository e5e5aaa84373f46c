"""TensorizerLegalization (MHLO and StableHLO variants): dry run, findings, apply mode.

- ``outputs``: @main's outputs and a chunk's analysis, the data every reader shares;
- ``analysis``: @main's outputs, each classified by the case table;
- ``cases``: the table (classification, finding, fix, hover, inlay, apply, quick path);
- ``findings``: the findings and their copy fixes, from the full parse or @main's outline;
- ``apply``: the module after the whole pass (`passlint legalize`).
"""

from passlint.passes.tensorizer_legalization.analysis import (
    analyze_chunk,
    analyze_file,
    names_in_function,
)
from passlint.passes.tensorizer_legalization.apply import (
    Legalized,
    legalize,
    legalize_text,
    unsure_placement,
)
from passlint.passes.tensorizer_legalization.cases import CASES, Case
from passlint.passes.tensorizer_legalization.findings import (
    QUICK_CODES,
    TL_RULES,
    check,
    copy_statement,
    quick_check,
)
from passlint.passes.tensorizer_legalization.outputs import ChunkAnalysis, Output, variant_of

__all__ = [
    "CASES",
    "QUICK_CODES",
    "TL_RULES",
    "Case",
    "ChunkAnalysis",
    "Legalized",
    "Output",
    "analyze_chunk",
    "analyze_file",
    "check",
    "copy_statement",
    "legalize",
    "legalize_text",
    "names_in_function",
    "quick_check",
    "unsure_placement",
    "variant_of",
]
