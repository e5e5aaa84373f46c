"""The language server: turns Findings into LSP types and schedules the analysis."""
