"""TensorizerLegalization (MHLO and StableHLO variants): dry run, findings, apply mode.

- ``rules``: the pass's rules, declared once (the catalog reads them);
- ``outputs``: @main's outputs and a chunk's analysis, the data every reader shares;
- ``analysis``: @main's outputs, each classified by the case table;
- ``cases``: the table (classification, finding, fix, hover, inlay, apply, quick path);
- ``findings``: the findings and their copy fixes, from the full parse or @main's outline;
- ``apply``: the module after the whole pass (`passlint legalize`);
- ``hlo_outputs``, ``hlo_findings``: the same rules on an XLA HLO text's ENTRY computation,
  with the copy fix written as an HLO ``copy`` instruction.

The package itself imports nothing, so reading the rules does not load the pass.
"""
