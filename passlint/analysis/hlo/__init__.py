"""XLA HLO: text (``*.hlo``, ``*.hlo.txt``, XLA dumps starting with ``HloModule``) and
protocol buffers (``*.hlo.pb``, ``*.hlo_module.pb``).

- ``ir``: the module, its computations and instructions, each with its source span;
- ``printed``: text as XLA's printer writes it, read a line at a time (the fast path);
- ``lexer`` and ``parser``: any text, by tokens, with recovery at the next line (linear time);
- ``literals``: what the passes read of a constant's literal (is it a splat);
- ``wire`` and ``proto``: the protobuf wire format, and the module read from it;
- ``rules`` and ``syntax_findings``: the front end's rules (E010, E011), which the catalog
  reads without loading the parser, and their findings.
"""
