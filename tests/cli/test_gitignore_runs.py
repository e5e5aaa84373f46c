"""``.gitignore`` rules are matched a run of rules at a time: the answers are those of
matching every rule in order, the last match winning."""

from __future__ import annotations

import os
from pathlib import Path

from passlint.discovery import GitIgnore


def rule_by_rule(ignore: GitIgnore, path: str, is_dir: bool) -> bool:
    path = os.path.abspath(path)
    verdict = False
    for folder, regex, negated, dir_only in ignore.rules:
        if not path.startswith(folder + os.sep):
            continue
        relative = path[len(folder) + 1 :].replace(os.sep, "/")
        if dir_only and not is_dir:
            parts = relative.split("/")[:-1]
            hit = any(regex.fullmatch("/".join(parts[:n])) for n in range(1, len(parts) + 1))
        else:
            hit = regex.fullmatch(relative) is not None
        if hit:
            verdict = not negated
    return verdict


def test_runs_answer_as_the_rules_one_by_one(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text(
        "*.log\nbuild/\n!keep.log\n!build/keep/\ngen_*.py\n/top.py\nkeep.log\n!again.log\n"
        "deep/**/y/\n**/cache/\na?c/d*/\n"
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("*.py\n!main.py\n")
    ignore = GitIgnore()
    ignore.load_folder(str(tmp_path))
    ignore.load_folder(str(tmp_path / "sub"))
    names = [
        "a.log", "keep.log", "again.log", "build/x.py", "build/keep/y.py", "gen_a.py",
        "top.py", "sub/top.py", "sub/main.py", "sub/other.py", "sub/build/z.py", "x.py",
        "a/b/build/c/d.py", "deep/x/y/z.py", "deep/y/z/w.py", "deep/x/yy/z.py", "q/cache/r/s.py",
        "cache.py", "abc/dd/e.py", "abc/e/dd.py", "sub/build/keep/v.py",
    ]  # fmt: skip
    for name in names:
        for is_dir in (False, True):
            path = str(tmp_path / name)
            assert ignore.ignored(path, is_dir) == rule_by_rule(ignore, path, is_dir), name
