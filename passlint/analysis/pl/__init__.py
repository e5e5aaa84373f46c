"""The pl front end: Python ``ast`` (never executed) -> kernels, params, symbols, call sites."""
