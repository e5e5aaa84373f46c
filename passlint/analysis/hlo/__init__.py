"""XLA HLO text (``*.hlo``, ``*.hlo.txt``, XLA dumps starting with ``HloModule``).

- ``lexer``: the text as tokens, comments skipped, in one regular-expression pass;
- ``ir``: the module, its computations and instructions, each with its source span;
- ``parser``: a recursive-descent parser with recovery at the next line (linear time);
- ``shapes``: what the passes read of a shape (element count) and of a constant literal;
- ``rules``: the front end's syntax rule, which the catalog reads without loading the parser.
"""
