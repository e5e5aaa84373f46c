"""Renderers: findings to text for people and to JSON, SARIF and GitHub annotations for tools.

Each module renders one format and nothing else; none of them reads files or analyses.
"""

from __future__ import annotations

FORMATS = ("text", "json", "sarif", "github")
