"""Where a project begins: the roots a workspace is drawn from.

A workspace is the set of roots a user named (the paths given to ``check``, the editor's
workspace folders) and the project found from them, never the working folder by itself.
A file's project is the folder of the nearest configuration file (``passlint.toml``, or
``pyproject.toml`` with ``[tool.passlint]``), else the top of the git work tree holding it
(the nearest folder upwards that contains ``.git``), else none: the file stands alone. A
home or temporary folder is never a project by being a parent.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from passlint.config_files import config_root, find_config_file
from passlint.discovery import git_top


def project_root(
    path: str | Path, config: Path | None = None, named: Sequence[str] = ()
) -> str | None:
    """The real path of the project folder holding ``path`` (a file or a folder), or None;
    ``config``: the configuration file named on the command line, if one was; ``named``:
    the paths the user named (where a linked configuration file may lead,
    ``config_files``). A project's folder is the one holding its configuration file, not
    where a link there leads."""
    real = os.path.realpath(path)
    folder = real if os.path.isdir(real) else os.path.dirname(real)
    found = config if config is not None else find_config_file(folder, named)
    if found is not None:
        return config_root(found)
    top = git_top(folder)
    return os.path.realpath(top) if top is not None else None


def roots_for(
    named: tuple[str, ...], path: str, projects: dict[str, str | None] | None = None
) -> tuple[str, ...]:
    """The workspace of ``path``: the ``named`` roots if there are any, else its project,
    else the file itself (real paths). ``projects``: the project of each folder asked about
    so far, a memo the caller keeps (and clears when configuration files change)."""
    if named:
        return tuple(dict.fromkeys(os.path.realpath(root) for root in named))
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if projects is not None and folder in projects:
        project = projects[folder]
    else:
        project = project_root(folder)
        if projects is not None:
            projects[folder] = project
    return (project or real,)
