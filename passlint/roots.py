"""The roots of a workspace: what the user named, and the project found from it.

A workspace is never the working folder by itself: `passlint check` reads below the paths it
was given and the project root found from them; the language server below the editor's
workspace folders, or, with none, the project root of the document.
"""

from __future__ import annotations

from pathlib import Path

from passlint.config import find_config_file
from passlint.discovery import git_top


def project_root(start: str | Path, config: Path | None = None) -> str | None:
    """The project ``start`` (a file or folder) belongs to: the folder of its configuration
    file (``config`` when one was named, else the nearest ``passlint.toml`` or
    ``pyproject.toml`` with ``[tool.passlint]``), else the top of its git work tree."""
    found = config if config is not None else find_config_file(start)
    if found is not None:
        return str(Path(found).resolve().parent)
    return git_top(start)
