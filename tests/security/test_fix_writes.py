"""`--fix` writes a user can trust: every file of a run as one unit (temporaries synced
first, then renamed in a burst that SIGINT/SIGTERM wait for), the mode and owner kept, a file
the user may not write reported and not replaced, only what was written counted, and the
leftovers of a killed run removed by the next one. It writes only below the paths it was
given, never through a link out of them, and a file reached twice is edited once."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from security_testing import DATA, run

from passlint import writes

INPUT_MLIR = (
    "module {\n  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    return %arg0 : tensor<4xf32>\n  }\n}\n"
)
FIXED_MLIR = INPUT_MLIR.replace(
    "    return %arg0",
    "    %output0_copy = mhlo.copy %arg0 : tensor<4xf32>\n    return %output0_copy",
)
CROSS = DATA / "pl" / "cross_file"
ROOT = os.geteuid() == 0


def passlint(args: list[str], cwd: Path) -> tuple[int, str, str]:
    result = run(["-m", "passlint", *args], cwd, cwd / "marker.txt")
    assert "Traceback" not in result.stderr
    return result.returncode, result.stdout, result.stderr


def leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".passlint")]


def cross_file(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(CROSS / "kernels.py", folder / "kernels.py")
    shutil.copy(CROSS / "program.py", folder / "program.py")
    return folder / "kernels.py", folder / "program.py"


# -- writes.write_texts ------------------------------------------------------------------------


def test_files_are_replaced_whole_with_their_mode_and_owner(tmp_path: Path) -> None:
    first, second = tmp_path / "a.mlir", tmp_path / "b.mlir"
    first.write_text("old a\n")
    second.write_text("old b\n")
    os.chmod(first, 0o640)
    if ROOT:
        os.chown(second, 4242, 4343)
    inode = first.stat().st_ino
    outcome = writes.write_texts(
        {str(first): "new ✓\n", str(second): "new b\n"},
        {str(first): "old a\n", str(second): "old b\n"},
    )
    assert (outcome.written, outcome.failed) == ([str(first), str(second)], {})
    assert first.read_text(encoding="utf-8") == "new ✓\n" and second.read_text() == "new b\n"
    assert first.stat().st_ino != inode  # a new file renamed over the old one
    assert stat.S_IMODE(first.stat().st_mode) == 0o640
    if ROOT:
        assert (second.stat().st_uid, second.stat().st_gid) == (4242, 4343)
    assert leftovers(tmp_path) == []


def test_a_failed_rename_puts_the_files_already_replaced_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.mlir", tmp_path / "b.mlir"
    first.write_text("old a\n")
    second.write_text("old b\n")
    real_replace = os.replace
    calls: list[str] = []

    def replace(source: str, target: str) -> None:
        calls.append(target)
        if target == str(second) and calls.count(target) == 1:
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    outcome = writes.write_texts(
        {str(first): "new a\n", str(second): "new b\n"},
        {str(first): "old a\n", str(second): "old b\n"},
    )
    assert outcome.written == []
    assert outcome.failed == {
        str(second): "No space left on device",
        str(first): f"held back, as {second} could not be written (a run's fixes go together)",
    }
    assert first.read_text() == "old a\n" and second.read_text() == "old b\n"
    assert leftovers(tmp_path) == []


def test_files_passlint_may_not_replace_are_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, readonly, linked, changed = (tmp_path / f"{n}.mlir" for n in "abcd")
    for path in (plain, readonly, linked, changed):
        path.write_text("old\n")
    os.chmod(readonly, 0o444)
    os.link(linked, tmp_path / "hard.mlir")
    new = {str(p): "new\n" for p in (plain, readonly, linked, changed)}
    old = {str(p): "old\n" for p in (plain, readonly, linked, changed)}
    changed.write_text("edited meanwhile\n")
    outcome = writes.write_texts(new, old)
    assert outcome.written == []
    assert outcome.failed == {
        str(readonly): "it is read-only for you",
        str(linked): "it has 2 hard links, which a rewritten file would part",
        str(changed): "it changed on disk since passlint read it",
        str(plain): f"held back, as {readonly}, {linked}, {changed} could not be written "
        "(a run's fixes go together)",
    }
    assert plain.read_text() == "old\n" and changed.read_text() == "edited meanwhile\n"
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(plain).st_uid + 1)  # not its owner
    assert writes.why_not_writable(str(plain)) == (
        "it belongs to another user, and a rewritten file would belong to you"
    )


def test_signals_wait_for_the_burst_of_renames() -> None:
    seen: list[str] = []
    previous = signal.signal(signal.SIGTERM, lambda *_: seen.append("handled"))
    try:
        with writes.signals_deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            seen.append("renamed")
        assert seen == ["renamed", "handled"]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_leftovers_of_a_killed_run_are_removed_by_the_next(tmp_path: Path) -> None:
    model = tmp_path / "m.mlir"
    model.write_text(INPUT_MLIR)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    stale = tmp_path / f".m.mlir.{dead.stdout.strip()}.x1y2z3.passlint"
    running = tmp_path / f".m.mlir.{os.getpid()}.a1b2c3.passlint"  # a run still going
    stale.write_text("half")
    running.write_text("half")
    status, _stdout, stderr = passlint(["check", "--fix", "."], tmp_path)
    assert (status, stderr) == (0, "")
    assert model.read_text() == FIXED_MLIR
    assert not stale.exists() and running.exists()


# -- passlint check --fix ------------------------------------------------------------------------


def test_a_read_only_file_is_reported_not_replaced_and_not_counted(tmp_path: Path) -> None:
    (tmp_path / "a.mlir").write_text(INPUT_MLIR)
    (tmp_path / "b.mlir").write_text(INPUT_MLIR)
    os.chmod(tmp_path / "b.mlir", 0o444)
    status, stdout, stderr = passlint(
        ["check", "--fix", "--output-format", "concise", "."], tmp_path
    )
    assert status == 1  # b.mlir's finding remains
    assert stderr == (
        "passlint: b.mlir: not fixed (Copy %arg0 into %output0_copy for output 0 ('output0')): "
        "it is read-only for you\n"
    )
    assert stdout.splitlines()[0] == "Fixed 1 finding."
    assert (tmp_path / "a.mlir").read_text() == FIXED_MLIR
    assert (tmp_path / "b.mlir").read_text() == INPUT_MLIR
    assert stat.S_IMODE((tmp_path / "b.mlir").stat().st_mode) == 0o444


def test_an_immutable_file_is_reported_and_nothing_is_counted(tmp_path: Path) -> None:
    target = tmp_path / "m.mlir"
    target.write_text(INPUT_MLIR)
    if (
        shutil.which("chattr") is None
        or subprocess.run(["chattr", "+i", str(target)], capture_output=True).returncode
    ):
        pytest.skip("chattr +i is not possible here")
    try:
        status, stdout, stderr = passlint(["check", "--fix", "."], tmp_path)
    finally:
        subprocess.run(["chattr", "-i", str(target)], check=True)
    assert status == 1
    assert "m.mlir: not fixed" in stderr and "read-only for you" in stderr
    assert "Fixed" not in stdout
    assert target.read_text() == INPUT_MLIR


def test_a_fix_over_two_files_is_refused_whole_when_one_is_read_only(tmp_path: Path) -> None:
    kernels, program = cross_file(tmp_path / "ws")
    os.chmod(program, 0o444)
    status, _stdout, stderr = passlint(["check", "--fix", "ws"], tmp_path)
    assert status == 1
    assert stderr.startswith("passlint: ws/program.py: not fixed (")
    assert stderr.endswith("): it is read-only for you\n")
    assert kernels.read_text() == (CROSS / "kernels.py").read_text()
    assert program.read_text() == (CROSS / "program.py").read_text()


def test_fix_writes_only_below_the_paths_given(tmp_path: Path) -> None:
    """`cd B && passlint check --fix ws`: the project (a git work tree, B) holds a caller in
    B/other; the fix is refused whole, naming that file, and neither file changes."""
    project = tmp_path / "B"
    (project / ".git").mkdir(parents=True)
    kernels, _ = cross_file(project / "ws")
    (project / "ws" / "program.py").unlink()
    other = project / "other"
    other.mkdir()
    shutil.copy(CROSS / "program.py", other / "program.py")
    (other / "program.py").write_text(
        (CROSS / "program.py").read_text().replace("from kernels import", "from ws.kernels import")
    )
    caller = (other / "program.py").read_text()
    status, _stdout, stderr = passlint(["check", "--fix", "ws"], project)
    assert status == 1
    assert stderr.startswith("passlint: other/program.py: not fixed (")
    assert stderr.endswith("): it lies outside the paths given (--fix writes only there)\n")
    assert kernels.read_text() == (CROSS / "kernels.py").read_text()
    assert (other / "program.py").read_text() == caller
    # named too, both are fixed
    status, _stdout, stderr = passlint(["check", "--fix", "ws", "other"], project)
    assert (status, stderr) == (0, "")
    assert "VALID_COLS: pl.Scalar[pl.INDEX]" in kernels.read_text()
    assert "scale_rows(cols, head, out)" in (other / "program.py").read_text()


def test_a_working_folder_is_no_root_by_itself(tmp_path: Path) -> None:
    """Checking ws from a folder B that holds a caller of ws's kernel: B is neither read
    (it is not a project root: no git, no configuration) nor written."""
    base = tmp_path / "B"
    kernels, _ = cross_file(base / "ws")
    (base / "ws" / "program.py").unlink()
    shutil.copy(CROSS / "program.py", base / "program.py")
    status, _stdout, stderr = passlint(["check", "--fix", "ws"], base)
    assert (status, stderr) == (0, "")
    assert "VALID_COLS: pl.Scalar[pl.INDEX]" in kernels.read_text()
    assert (base / "program.py").read_text() == (CROSS / "program.py").read_text()


def test_a_caller_reached_twice_is_edited_once(tmp_path: Path) -> None:
    for where in ("cli", "named"):
        ws = tmp_path / where
        _kernels, program = cross_file(ws)
        os.symlink("program.py", ws / "alias.py")
        args = (
            ["check", "--fix", "."]
            if where == "cli"
            else ["check", "--fix", "alias.py", "kernels.py", "program.py"]
        )
        status, _stdout, stderr = passlint(args, ws)
        assert (status, stderr) == (0, ""), where
        text = program.read_text()
        assert "scale_rows(cols, head, out)" in text, where
        assert "scale_rows(width, tail, out)" in text, where
        assert (ws / "alias.py").is_symlink()


def test_a_linked_folder_outside_is_neither_checked_nor_written(tmp_path: Path) -> None:
    outside, project = tmp_path / "outside", tmp_path / "project"
    outside.mkdir()
    project.mkdir()
    (outside / "model.mlir").write_text(INPUT_MLIR)
    (project / "inner.mlir").write_text(INPUT_MLIR)
    os.symlink(outside, project / "linked")
    status, _stdout, stderr = passlint(["check", "--fix", "."], project)
    assert status == 0
    assert stderr == (
        f"passlint: warning: linked: links outside the workspace (to {outside.resolve()}); "
        "not followed\n"
    )
    assert (outside / "model.mlir").read_text() == INPUT_MLIR
    assert (project / "inner.mlir").read_text() == FIXED_MLIR
    assert leftovers(tmp_path) == []


def test_fix_writes_the_target_of_a_link_named_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "real.mlir").write_text(INPUT_MLIR)
    os.symlink("real.mlir", tmp_path / "link.mlir")
    status, _, stderr = passlint(["check", "--fix", "link.mlir"], tmp_path)
    assert (status, stderr) == (0, "")
    assert (tmp_path / "link.mlir").is_symlink()
    assert (tmp_path / "real.mlir").read_text() == FIXED_MLIR
    assert leftovers(tmp_path) == []


def test_diff_of_a_cross_file_fix_applies_with_git(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")
    ws = tmp_path / "repo"
    cross_file(ws / "pkg")
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    status, diff, _ = passlint(["check", "--diff", "pkg/kernels.py", "pkg/program.py"], ws)
    assert status == 1
    assert [line for line in diff.splitlines() if line.startswith(("---", "+++"))] == [
        "--- a/pkg/kernels.py",
        "+++ b/pkg/kernels.py",
        "--- a/pkg/program.py",
        "+++ b/pkg/program.py",
    ]
    applied = subprocess.run(
        ["git", "apply", "-"], cwd=ws, input=diff, text=True, capture_output=True
    )
    assert applied.returncode == 0, applied.stderr
    assert "VALID_COLS: pl.Scalar[pl.INDEX]" in (ws / "pkg" / "kernels.py").read_text()


# -- interrupted runs -----------------------------------------------------------------------------

_INTERRUPTED = """\
import os, signal, sys
from passlint import cli, writes
number = getattr(signal, sys.argv[2])
# As in a terminal, however the suite was started (a background job ignores SIGINT), or
# ignored, as under nohup.
default = signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL
signal.signal(number, signal.SIG_IGN if sys.argv[3:] == ["ignored"] else default)
if sys.argv[1] == "staging":  # after the first temporary file is written
    stage = writes._stage
    def _stage(real, text):
        found = stage(real, text)
        os.kill(os.getpid(), number)
        return found
    writes._stage = _stage
else:  # after the first rename
    replace = os.replace
    def _replace(source, target):
        replace(source, target)
        os.kill(os.getpid(), number)
    os.replace = _replace
sys.exit(cli.main(["check", "--fix", "ws"]))
"""


@pytest.mark.parametrize("moment", ["staging", "renaming"])
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_an_interrupted_fix_is_applied_whole_or_not_at_all(
    tmp_path: Path, moment: str, name: str
) -> None:
    kernels, program = cross_file(tmp_path / "ws")
    script = tmp_path / "interrupted.py"
    script.write_text(_INTERRUPTED)
    result = run([str(script), moment, name], tmp_path, tmp_path / "marker.txt")
    assert "Traceback" not in result.stderr
    assert result.returncode == 128 + getattr(signal, name)
    fixed = ["VALID_COLS: pl.Scalar" in kernels.read_text(), "(cols, head" in program.read_text()]
    assert fixed == ([False, False] if moment == "staging" else [True, True])
    assert leftovers(tmp_path) == []
    assert result.stderr == ""  # a cancelled run ends silently


@pytest.mark.parametrize("name", ["SIGINT", "SIGHUP"])
def test_a_signal_the_run_ignores_leaves_the_fix_whole(tmp_path: Path, name: str) -> None:
    """Under ``nohup`` (SIGHUP ignored) or in a background job (SIGINT ignored), such a signal
    reaches nothing: every file is fixed, as if it had never come (it stopped the writes and
    reported "held back, as  could not be written")."""
    kernels, program = cross_file(tmp_path / "ws")
    script = tmp_path / "interrupted.py"
    script.write_text(_INTERRUPTED)
    result = run([str(script), "staging", name, "ignored"], tmp_path, tmp_path / "marker.txt")
    assert (result.returncode, result.stderr) == (0, "")
    assert "VALID_COLS: pl.Scalar" in kernels.read_text()
    assert "(cols, head" in program.read_text()
    assert leftovers(tmp_path) == []


def test_sigterm_ends_check_and_its_workers(tmp_path: Path) -> None:
    """Workers of a parallel check die with it: nothing keeps the caller's pipes open."""
    for index in range(80):
        (tmp_path / f"m{index}.mlir").write_text(INPUT_MLIR * 40)
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""\
            import sys, time
            from passlint import cli, runner
            work = runner._work
            def slow(path):
                time.sleep(30)
                return work(path)
            runner._work = slow
            sys.exit(cli.main(["check", "--jobs", "2", "."]))
        """),
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = 200
    while not _children(process.pid) and deadline:
        deadline -= 1
        subprocess.run(["sleep", "0.1"])
    workers = _children(process.pid)
    assert workers
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=60)  # returns once every holder of the pipes is gone
    assert process.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err
    assert [pid for pid in workers if Path(f"/proc/{pid}").exists()] == []


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def test_a_write_that_fails_counts_nothing_and_reports_what_is_on_disk(tmp_path: Path) -> None:
    """A rename refused by the file system (as for an immutable file): no file is changed,
    "Fixed" is not said, and the findings shown are those still in the files."""
    (tmp_path / "a.mlir").write_text(INPUT_MLIR)
    (tmp_path / "b.mlir").write_text(INPUT_MLIR)
    script = tmp_path / "refused.py"
    script.write_text(
        "import os, sys\nfrom passlint import cli\n"
        "def replace(source, target):\n"
        "    raise PermissionError(1, 'Operation not permitted')\n"
        "os.replace = replace\n"
        "sys.exit(cli.main(['check', '--fix', '--output-format', 'concise', '.']))\n"
    )
    result = run([str(script)], tmp_path, tmp_path / "marker.txt")
    assert result.returncode == 2
    assert sorted(result.stderr.splitlines()) == [
        "passlint: a.mlir: cannot write the fix: Operation not permitted",
        "passlint: b.mlir: cannot write the fix: held back, as "
        f"{(tmp_path / 'a.mlir').resolve()} could not be written (a run's fixes go together)",
    ]
    assert "Fixed" not in result.stdout
    assert result.stdout.count("TL001") == 2
    assert (tmp_path / "a.mlir").read_text() == INPUT_MLIR
    assert leftovers(tmp_path) == []


def test_a_caller_behind_a_link_out_of_the_workspace_stops_the_fix(tmp_path: Path) -> None:
    """The caller cannot be read (it lies outside), so the fix cannot be known to reach every
    call: it is offered only to be finished by hand, and --fix leaves the kernel alone."""
    outside, project = tmp_path / "outside", tmp_path / "project"
    outside.mkdir()
    kernels, _ = cross_file(project)
    (project / "program.py").rename(outside / "program.py")
    os.symlink(outside / "program.py", project / "program.py")
    status, stdout, stderr = passlint(["check", "--fix", "."], project)
    assert status == 1
    assert stderr == (
        "passlint: warning: program.py: links outside the workspace "
        f"(to {(outside / 'program.py').resolve()}); skipped\n"
    )
    assert kernels.read_text() == (CROSS / "kernels.py").read_text()
    assert (outside / "program.py").read_text() == (CROSS / "program.py").read_text()
    assert stdout.splitlines()[0].endswith(
        "The fix cannot complete these calls: program.py: links outside the workspace "
        f"(to {(outside / 'program.py').resolve()}), so it was not read and its calls, if any, "
        "are unseen."
    )
