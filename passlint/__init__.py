"""passlint: accelerator-compiler legalization passes as a linter and language server."""

__version__ = "0.1.0"
