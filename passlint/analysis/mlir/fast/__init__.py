"""The MLIR front end's fast paths: what an ``MlirMemo`` remembers and how it is used.

The plain modules (``parser``, ``structure``, ``statements``, ``validate``) are the
specification; these modules give the same IR faster, reached only through the memo's
methods (``memo.MlirMemo``), so a parse without a memo imports none of them:

- ``lines``: line shapes, the tokens of lines seen twice;
- ``line_scanner``: the statement scanner over a chunk's lines, which cuts tokens line by
  line and takes lines of a simple shape, and statements the memo keeps, whole;
- ``line_operations``: the op of a one-line statement from its line's shape;
- ``templates``: a statement's template by its text, kinds and words, kinds and word
  classes, and its parse tree by its kinds;
- ``statement_memo``: the IR of region statements repeated verbatim, relocated to a copy;
- ``type_counts``: a generic op's function type counts by template;
- ``main_headers``: @main's header op, for ``main_outline``;
- ``main_outline``: @main's outline, the TensorizerLegalization pass's quick path (its
  ``quick_check``): a first answer from @main's header, return and what the return reads,
  found without parsing the rest of the module; it reads line shapes (``lines``) and keeps
  @main's header in the memo when it is given one.
"""
