"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit in a test repository.

pre-commit builds a ``language: python`` hook by pip-installing this repository into a new
virtual environment, which needs the package index. The default test therefore declares the
same hooks (id, entry, files, options read from .pre-commit-hooks.yaml) as ``repo: local``
hooks with ``language: system``, running the passlint of this environment: no network. The
test of the published form (``pre-commit try-repo``) runs when
``PASSLINT_TEST_PRECOMMIT_INSTALL=1``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_testing import CLEAN_MLIR, INPUT_MLIR

REPO = Path(__file__).resolve().parents[2]
HOOKS: list[dict[str, Any]] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
BIN = str(Path(sys.executable).parent)


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PATH=BIN + os.pathsep + env.get("PATH", ""),
        PRE_COMMIT_HOME=str(home / "pre-commit-home"),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )
    return env


def _git(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )


def test_hook_definitions() -> None:
    assert [hook["id"] for hook in HOOKS] == ["passlint", "passlint-fix"]
    for hook in HOOKS:
        assert hook["files"] == r"\.(mlir|py)$"
        assert hook["language"] == "python"
        assert hook["entry"].startswith("passlint check")
        assert "--force-exclude" in hook["entry"]


@pytest.fixture
def repository(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    env = _env(tmp_path)
    assert _git(repo, "init", "-q", env=env).returncode == 0
    (repo / "pyproject.toml").write_text('[tool.passlint]\nextend-exclude = ["vendor"]\n')
    return repo, env


def _use_hook(repo: Path, hook_id: str) -> None:
    """A .pre-commit-config.yaml with the hook ``hook_id`` as a local, system hook."""
    (hook,) = [h for h in HOOKS if h["id"] == hook_id]
    local = {key: value for key, value in hook.items() if key != "description"}
    local["language"] = "system"
    config = {"repos": [{"repo": "local", "hooks": [local]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))


def test_commit_hook_blocks_findings_and_lets_clean_files_through(
    repository: tuple[Path, dict[str, str]],
) -> None:
    repo, env = repository
    _use_hook(repo, "passlint")
    install = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "--hook-type", "pre-commit"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    (repo / "vendor").mkdir()
    (repo / "vendor" / "theirs.mlir").write_text(INPUT_MLIR)  # excluded, even when staged
    (repo / "clean.mlir").write_text(CLEAN_MLIR)
    (repo / "notes.txt").write_text("not checked\n")
    _git(repo, "add", ".", env=env)
    ok = _git(repo, "commit", "-q", "-m", "clean", env=env)
    assert ok.returncode == 0, ok.stdout + ok.stderr

    (repo / "model.mlir").write_text(INPUT_MLIR)
    _git(repo, "add", "model.mlir", env=env)
    blocked = _git(repo, "commit", "-q", "-m", "bad", env=env)
    assert blocked.returncode == 1
    output = blocked.stdout + blocked.stderr  # git shows the hook's output on stderr
    assert "model.mlir:3:12: TL001 Output 0" in output
    assert "passlint" in output and "Failed" in output
    assert "vendor/theirs.mlir" not in output


def test_fix_hook_fixes_the_files(repository: tuple[Path, dict[str, str]]) -> None:
    repo, env = repository
    _use_hook(repo, "passlint-fix")
    (repo / "model.mlir").write_text(INPUT_MLIR)
    _git(repo, "add", ".", env=env)
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "passlint-fix", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1  # pre-commit fails a hook that changed files
    assert "files were modified by this hook" in run.stdout
    assert "mhlo.copy %arg0" in (repo / "model.mlir").read_text()
    again = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stdout


@pytest.mark.skipif(
    os.environ.get("PASSLINT_TEST_PRECOMMIT_INSTALL") != "1",
    reason="installs the hook from the package index (PASSLINT_TEST_PRECOMMIT_INSTALL=1)",
)
def test_try_repo_installs_the_published_hook(tmp_path: Path) -> None:
    env = _env(tmp_path)
    source = tmp_path / "source"
    files = _git(REPO, "ls-files", "passlint", "pyproject.toml", "README.md", env=env).stdout
    for name in [*files.split(), ".pre-commit-hooks.yaml"]:
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    _git(source, "init", "-q", env=env)
    _git(source, "add", ".", env=env)
    assert _git(source, "commit", "-q", "-m", "hook", env=env).returncode == 0
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", env=env)
    (repo / "model.mlir").write_text(INPUT_MLIR)
    _git(repo, "add", ".", env=env)
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(source), "passlint", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "model.mlir:3:12: TL001" in run.stdout
