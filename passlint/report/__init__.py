"""Renderers: findings to text for people and to JSON, SARIF, GitHub annotations, GitLab
Code Quality and JUnit XML for tools.

Each module renders one format and nothing else; none of them reads files or analyses.
"""

from __future__ import annotations

# text: one line per finding, with the source line and carets on a terminal; concise and
# full (ruff's names): never and always the source line.
TEXT_FORMATS = ("text", "concise", "full")
FORMATS = (*TEXT_FORMATS, "json", "sarif", "github", "gitlab", "junit")
