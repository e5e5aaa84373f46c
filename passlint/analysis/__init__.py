"""Documents to IR to findings: front ends, rules and the engine (no LSP, no terminal)."""
