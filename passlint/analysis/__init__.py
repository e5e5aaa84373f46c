"""Documents to IR to findings: front ends, the IR and the rule catalog (no passes, no pipeline,
no LSP, no terminal)."""
