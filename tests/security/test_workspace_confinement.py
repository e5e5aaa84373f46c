"""Cross-file resolution reads only files inside the workspace folders: not through `..`
imports, symbolic links to files or folders outside, absolute paths or absolute imports of a
module that lives outside. Checked with an audit hook on every file the analysis opens."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from security_testing import AUDITED, make_tree, run

from passlint import pipeline
from passlint.analysis.workspace import Workspace


def audited_analysis(base: Path, root: Path, path: Path) -> tuple[list[list[str]], list[list[str]]]:
    result = run([str(AUDITED), "analyze", str(root), str(path)], base, base / "marker.txt")
    assert result.returncode == 0, result.stderr
    findings, events = (json.loads(line) for line in result.stdout.splitlines()[-2:])
    return findings, events


def outside_touches(events: list[list[str]], outside: Path) -> list[list[str]]:
    real = str(outside.resolve())
    return [
        [event, detail]
        for event, detail in events
        if detail.startswith(real) or os.path.realpath(detail).startswith(real)
    ]


def test_analysis_reads_nothing_outside_the_workspace(tmp_path: Path) -> None:
    ws, outside = make_tree(tmp_path)
    findings, events = audited_analysis(tmp_path, ws, ws / "kernels.py")
    assert outside_touches(events, outside) == []
    # only files of the workspace are opened (passlint's own modules are imported before)
    opened = {os.path.realpath(d) for e, d in events if e == "open"}
    assert opened <= {str(p.resolve()) for p in ws.rglob("*.py") if not p.is_symlink()}
    assert opened  # the imports inside the workspace were read
    # the symbols from outside stay unknown imports: nothing is said about the kernel
    # reading them, while the kernel inside is analysed
    assert [code for code, message in findings if "'k_outside'" in message] == []
    assert [code for code, message in findings if "'k'" in message] == ["VS001"]
    assert not (tmp_path / "marker.txt").exists()


def test_the_same_tree_inside_the_workspace_is_read(tmp_path: Path) -> None:
    """Control: with the parent as the workspace, the symlinked module is resolved (so the
    test above would see a read outside if resolution wandered off)."""
    ws, outside = make_tree(tmp_path)
    findings, events = audited_analysis(tmp_path, tmp_path, ws / "kernels.py")
    assert outside_touches(events, outside) != []
    assert [code for code, message in findings if "'k_outside'" in message] == ["VS001"]
    assert not (tmp_path / "marker.txt").exists()


def test_workspace_read_refuses_paths_outside(tmp_path: Path) -> None:
    ws, outside = make_tree(tmp_path)
    workspace = Workspace([ws])
    assert workspace.read(ws / "kernels.py") is not None
    assert workspace.read(outside / "secret.py") is None  # absolute path outside
    assert workspace.read(str(ws / ".." / "outside" / "secret.py")) is None
    assert workspace.read(ws / "linked_file.py") is None  # symlink to a file outside
    assert workspace.read(ws / "linked_dir" / "secret.py") is None  # through a linked folder
    assert workspace.read("/etc/passwd") is None
    importer = str(ws / "kernels.py")
    assert workspace.find_module("outside.secret", importer, level=2) is None
    assert workspace.find_module("secret", importer, level=2) is None
    assert workspace.find_module("linked_file", importer) is None
    assert workspace.find_module("linked_dir.secret", importer) is None
    assert workspace.find_module(str(outside / "secret"), importer) is None
    assert str(outside.resolve()) not in " ".join(workspace.python_files())
    # an unsaved document outside the roots is not offered to resolution either
    workspace.set_overlay(str(outside / "secret.py"), "S = 1\n")
    assert workspace.find_module("secret", str(outside / "x.py")) is None


def test_a_fix_never_edits_call_sites_outside_the_workspace(tmp_path: Path) -> None:
    """A caller outside the workspace (reached by a symlink inside it) is not read, so the
    VS001 fix edits only files inside."""
    ws, outside = make_tree(tmp_path)
    os.symlink(outside / "caller.py", ws / "caller_link.py")
    text = (ws / "kernels.py").read_text()
    findings = pipeline.analyze(str(ws / "kernels.py"), text, None, Workspace([ws]))
    fixes = [f.fix for f in findings if f.code == "VS001" and f.fix is not None]
    assert fixes
    for fix in fixes:
        for edit in fix.edits:
            assert Path(edit.path).resolve().is_relative_to(ws.resolve()), edit.path
    related = [loc.path for f in findings for loc in f.related]
    assert all(Path(p).resolve().is_relative_to(ws.resolve()) for p in related)


def test_cli_check_reads_nothing_outside_the_checked_tree(tmp_path: Path) -> None:
    ws, outside = make_tree(tmp_path)
    (ws / "linked_dir").unlink()  # a followed folder link is checked on purpose; see below
    result = run([str(AUDITED), "check", "--format", "json", "."], ws, tmp_path / "marker.txt")
    assert result.returncode == 1, result.stderr
    events = json.loads(result.stdout.splitlines()[-1])
    touched = outside_touches(events, outside)
    # `passlint check .` lists the file link it was given in the tree, and reads nothing
    # of what lies outside through the imports
    assert [e for e in touched if e[0] != "open" or not e[1].endswith("linked_file.py")] == []
    assert not (tmp_path / "marker.txt").exists()
    assert sys.executable  # the subprocess ran this interpreter
